package httpapi

// The partners' webhooks in /admin (docs/webhooks.md): a moderator
// registers a partner's https receiver and the events it wants (the
// signing secret is answered once), sees each webhook's last status and
// recent deliveries, and removes one.

import (
	"net/http"
	"slices"

	"locator/internal/apperr"
	"locator/internal/identity"
	"locator/internal/partners"
	"locator/internal/webhooks"
)

// recentDeliveries is how many deliveries /admin shows per webhook.
const recentDeliveries = 10

// forPartnerHooks adapts the moderators' calls on a partner's webhooks:
// the partner must exist.
func (s *Server) forPartnerHooks(h func(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner, m *identity.Moderator) error) handler {
	return s.forPartners(func(w http.ResponseWriter, r *http.Request, ps *partners.Service, m *identity.Moderator) error {
		if s.Webhooks == nil {
			return apperr.New(apperr.NotFound, "webhooks are not kept here")
		}
		p, err := ps.Get(r.Context(), r.PathValue("id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return h(w, r, s.Webhooks, p, m)
	})
}

type webhookDTO struct {
	webhooks.Hook
	Deliveries []webhooks.Delivery `json:"deliveries"`
}

// adminListWebhooks answers GET /api/admin/partners/{id}/webhooks: each
// webhook with its last status and its newest deliveries.
func (s *Server) adminListWebhooks(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner, _ *identity.Moderator) error {
	hooks, err := ws.List(r.Context(), p.ID)
	if err != nil {
		return err
	}
	out := make([]webhookDTO, len(hooks))
	for i, h := range hooks {
		ds, err := ws.Recent(r.Context(), h.ID, recentDeliveries)
		if err != nil {
			return err
		}
		out[i] = webhookDTO{Hook: h, Deliveries: ds}
	}
	writeJSON(w, http.StatusOK, map[string]any{"webhooks": out})
	return nil
}

type registerWebhookRequest struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// adminRegisterWebhook answers POST /api/admin/partners/{id}/webhooks:
// 201 with the webhook and its signing secret (this once), a 400 for a URL
// the guard refuses or an unknown event.
func (s *Server) adminRegisterWebhook(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner, m *identity.Moderator) error {
	var in registerWebhookRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if p.Disabled {
		return apperr.New(apperr.Conflict, "%s is disabled: its webhooks would receive nothing.", p.Name)
	}
	h, secret, err := ws.Register(r.Context(), p.ID, in.URL, in.Events)
	if err != nil {
		return err
	}
	s.auditWebhook(r, m, "webhook.register", h)
	writeJSON(w, http.StatusCreated, map[string]any{"webhook": webhookDTO{Hook: h, Deliveries: []webhooks.Delivery{}}, "secret": secret})
	return nil
}

// adminRemoveWebhook answers DELETE /api/admin/partners/{id}/webhooks/{hookId}
// (again for a removed one: the same answer, no second audit entry).
func (s *Server) adminRemoveWebhook(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner, m *identity.Moderator) error {
	id, ok := parseID(r.PathValue("hookId"))
	if !ok {
		return apperr.New(apperr.NotFound, "No such webhook.")
	}
	hooks, err := ws.List(r.Context(), p.ID)
	if err != nil {
		return err
	}
	if err := ws.Remove(r.Context(), p.ID, id); err != nil {
		return err
	}
	if i := slices.IndexFunc(hooks, func(h webhooks.Hook) bool { return h.ID == id }); i >= 0 && !hooks[i].Disabled {
		s.auditWebhook(r, m, "webhook.remove", hooks[i])
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// auditWebhook writes a webhook's registration or removal to the audit log
// with the moderator: the partner, the webhook's id, URL and events, never
// its signing secret.
func (s *Server) auditWebhook(r *http.Request, m *identity.Moderator, action string, h webhooks.Hook) {
	s.auditAfter(r.Context(), m.Actor(), action, map[string]any{"partner": h.PartnerID, "webhook_id": h.ID, "url": h.URL, "events": h.Events})
}

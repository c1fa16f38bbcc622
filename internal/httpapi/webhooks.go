package httpapi

// The partners' webhooks in /admin (docs/webhooks.md): a moderator
// registers a partner's https receiver and the events it wants (the
// signing secret is answered once), sees each webhook's last status and
// recent deliveries, and removes one.

import (
	"net/http"

	"locator/internal/apperr"
	"locator/internal/identity"
	"locator/internal/partners"
	"locator/internal/webhooks"
)

// recentDeliveries is how many deliveries /admin shows per webhook.
const recentDeliveries = 10

// forPartnerHooks adapts the moderators' calls on a partner's webhooks:
// the partner must exist.
func (s *Server) forPartnerHooks(h func(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner) error) handler {
	return s.forPartners(func(w http.ResponseWriter, r *http.Request, ps *partners.Service, _ *identity.Moderator) error {
		if s.Webhooks == nil {
			return apperr.New(apperr.NotFound, "webhooks are not kept here")
		}
		p, err := ps.Get(r.Context(), r.PathValue("id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return h(w, r, s.Webhooks, p)
	})
}

type webhookDTO struct {
	webhooks.Hook
	Deliveries []webhooks.Delivery `json:"deliveries"`
}

// adminListWebhooks answers GET /api/admin/partners/{id}/webhooks: each
// webhook with its last status and its newest deliveries.
func (s *Server) adminListWebhooks(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner) error {
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
func (s *Server) adminRegisterWebhook(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner) error {
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
	writeJSON(w, http.StatusCreated, map[string]any{"webhook": webhookDTO{Hook: h, Deliveries: []webhooks.Delivery{}}, "secret": secret})
	return nil
}

// adminRemoveWebhook answers DELETE /api/admin/partners/{id}/webhooks/{hookId}.
func (s *Server) adminRemoveWebhook(w http.ResponseWriter, r *http.Request, ws *webhooks.Service, p partners.Partner) error {
	id, ok := parseID(r.PathValue("hookId"))
	if !ok {
		return apperr.New(apperr.NotFound, "No such webhook.")
	}
	if err := ws.Remove(r.Context(), p.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

package httpapi

// The moderators' partners under /api/admin/partners (docs/partners.md):
// list, create, read, edit and disable the brands, point-of-sale vendors
// and chains that embed the locator, read its API and hear its webhooks.
// Each change is in the audit log.

import (
	"net/http"

	"locator/internal/apperr"
	"locator/internal/identity"
	"locator/internal/partners"
)

// forPartners adapts a handler of the partners' admin: forModerator (401
// without a moderator), then 404 where no partners are kept.
func (s *Server) forPartners(h func(w http.ResponseWriter, r *http.Request, ps *partners.Service, m *identity.Moderator) error) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		if s.Partners == nil {
			return apperr.New(apperr.NotFound, "no partners are kept here")
		}
		return h(w, r, s.Partners, m)
	})
}

// adminListPartners answers GET /api/admin/partners.
func (s *Server) adminListPartners(w http.ResponseWriter, r *http.Request, ps *partners.Service, _ *identity.Moderator) error {
	list, err := ps.List(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string][]partners.Partner{"partners": list})
	return nil
}

// adminCreatePartner answers POST /api/admin/partners: 201 with the
// partner, a 400 naming the first broken field, a 409 for a taken slug.
func (s *Server) adminCreatePartner(w http.ResponseWriter, r *http.Request, ps *partners.Service, m *identity.Moderator) error {
	var in partners.Input
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	in.Actor = m.Actor()
	p, err := ps.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]partners.Partner{"partner": p})
	return nil
}

// adminGetPartner answers GET /api/admin/partners/{id}.
func (s *Server) adminGetPartner(w http.ResponseWriter, r *http.Request, ps *partners.Service, _ *identity.Moderator) error {
	p, err := ps.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]partners.Partner{"partner": p})
	return nil
}

// partnerPatch is a PATCH body: the fields to change (absent: kept).
type partnerPatch struct {
	Name           *string   `json:"name"`
	Slug           *string   `json:"slug"`
	Kind           *string   `json:"kind"`
	AllowedOrigins *[]string `json:"allowed_origins"`
	Brands         *[]string `json:"brands"`
	ProductIDs     *[]string `json:"product_ids"`
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// adminEditPartner answers PATCH /api/admin/partners/{id}: the fields
// given replace the partner's, with the rules of a creation.
func (s *Server) adminEditPartner(w http.ResponseWriter, r *http.Request, ps *partners.Service, m *identity.Moderator) error {
	var patch partnerPatch
	if err := decodeJSON(r, &patch); err != nil {
		return err
	}
	p, err := ps.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	in := partners.Input{Name: p.Name, Slug: p.Slug, Kind: p.Kind, AllowedOrigins: p.AllowedOrigins, Brands: p.Brands, ProductIDs: p.ProductIDs, Actor: m.Actor()}
	set(&in.Name, patch.Name)
	set(&in.Slug, patch.Slug)
	set(&in.Kind, patch.Kind)
	set(&in.AllowedOrigins, patch.AllowedOrigins)
	set(&in.Brands, patch.Brands)
	set(&in.ProductIDs, patch.ProductIDs)
	if p, err = ps.Update(r.Context(), p.ID, in); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]partners.Partner{"partner": p})
	return nil
}

// adminDisablePartner answers POST /api/admin/partners/{id}/disable.
func (s *Server) adminDisablePartner(w http.ResponseWriter, r *http.Request, ps *partners.Service, m *identity.Moderator) error {
	if err := ps.DisableBy(r.Context(), r.PathValue("id"), m.Actor()); err != nil {
		return err
	}
	p, err := ps.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]partners.Partner{"partner": p})
	return nil
}

package httpapi

// The mapping of the marketplace's Medusa stock locations to physical
// stores in /admin (docs/products.md, "From the marketplace (Medusa)"):
// list the locations a sync read, ask which stores one probably is, map
// it (or unmap it).

import (
	"net/http"
	"strings"

	"locator/internal/apperr"
	"locator/internal/identity"
	"locator/internal/medusa"
)

type medusaLocationsDTO struct {
	Locations []medusa.LocationView `json:"locations"`
	Sync      *medusa.State         `json:"sync"` // null where no Medusa server is set
}

// adminMedusaLocations answers GET /api/admin/medusa/locations.
func (s *Server) adminMedusaLocations(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	locs, err := s.MedusaLocations.List(r.Context())
	if err != nil {
		return err
	}
	out := medusaLocationsDTO{Locations: locs}
	if out.Locations == nil {
		out.Locations = []medusa.LocationView{}
	}
	if s.MedusaSync != nil {
		st, err := s.MedusaSync.State(r.Context())
		if err != nil {
			return err
		}
		out.Sync = &st
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
	return nil
}

// locationID reads the path's Medusa stock location id.
func locationID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if id == "" || len(id) > 100 || strings.ContainsFunc(id, func(c rune) bool { return c < ' ' || c == '/' }) {
		return "", apperr.Invalidf("a stock location id is 1 to 100 characters")
	}
	return id, nil
}

// adminMedusaProposals answers GET /api/admin/medusa/locations/{id}/proposals.
func (s *Server) adminMedusaProposals(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	id, err := locationID(r)
	if err != nil {
		return err
	}
	ps, err := s.MedusaLocations.Propose(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string][]medusa.Proposal{"proposals": ps})
	return nil
}

type mapLocationRequest struct {
	StoreID *int64 `json:"store_id"`
}

// adminMedusaMap answers PUT /api/admin/medusa/locations/{id}/store with
// {"store_id": N} (null: unmap).
func (s *Server) adminMedusaMap(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
	id, err := locationID(r)
	if err != nil {
		return err
	}
	var in mapLocationRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	var store int64
	if in.StoreID != nil {
		if *in.StoreID < 1 {
			return apperr.Invalidf("store_id must be a store's id (1 or more) or null")
		}
		store = *in.StoreID
	}
	v, err := s.MedusaLocations.Map(r.Context(), id, store, m.Actor())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]*medusa.LocationView{"location": v})
	return nil
}

// forMedusa adapts a mapping handler: forModerator, then 404 where the
// mapping is not kept.
func (s *Server) forMedusa(h func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		if s.MedusaLocations == nil {
			return apperr.New(apperr.NotFound, "no Medusa mapping is kept here")
		}
		return h(w, r, m)
	})
}

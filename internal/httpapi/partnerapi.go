package httpapi

// Partners' read API keys (docs/partners.md, "Read API keys"): moderators
// make and revoke them in /admin; a partner's system sends one as a
// bearer token to /api/partner/v1/..., which answers what the public calls
// answer (the store search, a store), and the stock of a product only for
// the partner's own products. A key opens nothing else, and no other
// credential opens these calls.

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"locator/internal/apikeys"
	"locator/internal/apperr"
	"locator/internal/catalog"
	"locator/internal/identity"
	"locator/internal/partners"
)

// errPartnerKey is every refusal of a partner's key: missing, unknown,
// revoked, or of a disabled partner read the same.
var errPartnerKey = apperr.New(apperr.Unauthorized, "A valid partner API key is required (Authorization: Bearer lpar_...).")

// forPartnerKey adapts a read of the partner API: the request's key must
// be an active partner key of an enabled partner (401 otherwise, with
// WWW-Authenticate), counted against the key's rate (429 past it).
func (s *Server) forPartnerKey(h func(w http.ResponseWriter, r *http.Request, p partners.Partner) error) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		if s.APIKeys == nil || s.Partners == nil {
			return apperr.New(apperr.NotFound, "the partner API is not served here")
		}
		key, err := s.APIKeys.AuthenticatePartner(r.Context(), r.Header.Get("Authorization"))
		var p partners.Partner
		if err == nil {
			p, err = s.Partners.Get(r.Context(), key.PartnerID)
			if err == nil && p.Disabled || errors.Is(err, partners.ErrNotFound) {
				err = errPartnerKey
			}
		}
		if err != nil {
			if apperr.CodeOf(err) == apperr.Unauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="partner"`)
				err = errPartnerKey
			}
			return err
		}
		w.Header().Set("Cache-Control", "private, no-store")
		return h(w, r, p)
	}
}

// partnerListStores answers GET /api/partner/v1/stores: the public store
// search; with product=, only for one of the partner's products (403 for
// another's).
func (s *Server) partnerListStores(w http.ResponseWriter, r *http.Request, p partners.Partner) error {
	if q := strings.TrimSpace(r.URL.Query().Get("product")); q != "" && s.Catalog != nil {
		prod, err := s.Catalog.Get(r.Context(), q)
		if errors.Is(err, catalog.ErrNotFound) && strings.Trim(q, "0123456789") == "" {
			prod, err = s.Catalog.GetByGTIN(r.Context(), q)
		}
		switch {
		case err == nil:
			if !p.Sells(prod.ProductID, prod.Brand) {
				return apperr.New(apperr.Forbidden, "This product is not one of %s's: a partner key reads the stock of the partner's own products only.", p.Name)
			}
		case !errors.Is(err, catalog.ErrNotFound) && apperr.CodeOf(err) != apperr.Invalid:
			return err
		}
		// An unknown or malformed product is answered by the search itself.
	}
	return s.listStores(w, r)
}

// partnerGetStore answers GET /api/partner/v1/stores/{id}: a published
// store, as the public call answers it.
func (s *Server) partnerGetStore(w http.ResponseWriter, r *http.Request, _ partners.Partner) error {
	return withID(s.getStore)(w, r)
}

// forPartnerKeys adapts the moderators' calls on a partner's keys: the
// partner must exist.
func (s *Server) forPartnerKeys(h func(w http.ResponseWriter, r *http.Request, ks *apikeys.Service, p partners.Partner, m *identity.Moderator) error) handler {
	return s.forPartners(func(w http.ResponseWriter, r *http.Request, ps *partners.Service, m *identity.Moderator) error {
		ks, err := s.apiKeys()
		if err != nil {
			return err
		}
		p, err := ps.Get(r.Context(), r.PathValue("id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return h(w, r, ks, p, m)
	})
}

// adminListPartnerKeys answers GET /api/admin/partners/{id}/keys.
func (s *Server) adminListPartnerKeys(w http.ResponseWriter, r *http.Request, ks *apikeys.Service, p partners.Partner, _ *identity.Moderator) error {
	list, err := ks.ListOf(r.Context(), apikeys.PartnerOwner(p.ID))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, apiKeysDTO{Keys: list, MaxActive: apikeys.MaxActive, PerMinute: ks.PerMinute()})
	return nil
}

// adminCreatePartnerKey answers POST /api/admin/partners/{id}/keys: the
// key itself is in this answer only (the audit log has its id, name and
// shown prefix).
func (s *Server) adminCreatePartnerKey(w http.ResponseWriter, r *http.Request, ks *apikeys.Service, p partners.Partner, m *identity.Moderator) error {
	var in createAPIKeyRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if p.Disabled {
		return apperr.New(apperr.Conflict, "%s is disabled: its keys would open nothing.", p.Name)
	}
	k, plain, err := ks.CreateFor(r.Context(), apikeys.PartnerOwner(p.ID), in.Name)
	if err != nil {
		return err
	}
	s.auditPartnerKey(r, m, "partner_key.create", p, k)
	writeJSON(w, http.StatusCreated, apiKeyDTO{Key: k, Secret: plain})
	return nil
}

// adminRevokePartnerKey answers DELETE /api/admin/partners/{id}/keys/{keyId}
// (again for a revoked key: the same answer, no second audit entry).
func (s *Server) adminRevokePartnerKey(w http.ResponseWriter, r *http.Request, ks *apikeys.Service, p partners.Partner, m *identity.Moderator) error {
	id, ok := parseID(r.PathValue("keyId"))
	if !ok {
		return apperr.New(apperr.NotFound, "No such key.")
	}
	owner := apikeys.PartnerOwner(p.ID)
	was, err := ks.ListOf(r.Context(), owner)
	if err != nil {
		return err
	}
	k, err := ks.RevokeOf(r.Context(), owner, id)
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(was, func(w apikeys.Key) bool { return w.ID == id }); i >= 0 && was[i].RevokedAt == nil {
		s.auditPartnerKey(r, m, "partner_key.revoke", p, k)
	}
	writeJSON(w, http.StatusOK, apiKeyDTO{Key: k})
	return nil
}

// auditPartnerKey writes a partner key's creation or revocation to the
// audit log with the moderator: the partner, the key's id, name and shown
// prefix, never the key.
func (s *Server) auditPartnerKey(r *http.Request, m *identity.Moderator, action string, p partners.Partner, k apikeys.Key) {
	s.auditAfter(r.Context(), m.Actor(), action, map[string]any{"partner": p.ID, "key_id": k.ID, "name": k.Name, "prefix": k.Prefix})
}

package httpapi

// The moderators' catalogue editor under /api/admin/products
// (docs/products.md, "Editing a product"): search, read and edit one
// product with the catalogue file's rules; each edit is in the audit log.

import (
	"context"
	"net/http"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/identity"
)

// adminProductDTO is a product as the editor shows it: each field as the
// catalogue file writes it (the strength with its unit), null for empty
// optional ones.
type adminProductDTO struct {
	productCoreDTO
	IsZeroNicApplicable bool    `json:"is_zero_nic_applicable"`
	IsCBDApplicable     bool    `json:"is_cbd_applicable"`
	Image               *string `json:"image"`
	Handle              *string `json:"handle"`
	FDAStatus           string  `json:"fda_status"`
	UpdatedAt           string  `json:"updated_at"`
}

// productCoreDTO is what every answer about a product starts with, for
// shoppers as for the editor: which product and how it reads (the
// strength with its unit, null for empty optional fields).
type productCoreDTO struct {
	ID       string  `json:"id"`
	GTIN     *string `json:"gtin"`
	Brand    string  `json:"brand"`
	Name     string  `json:"name"`
	Kind     string  `json:"kind"`
	Flavour  string  `json:"flavour"`
	Nicotine *string `json:"nicotine"`
}

func productCore(p *catalog.Product) productCoreDTO {
	return productCoreDTO{ID: p.ProductID, GTIN: orNull(p.GTIN), Brand: p.Brand, Name: p.Name, Kind: string(p.Kind),
		Flavour: string(p.Flavour), Nicotine: orNull(p.NicotineText())}
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func adminProduct(p *catalog.Product) adminProductDTO {
	return adminProductDTO{productCoreDTO: productCore(p), IsZeroNicApplicable: p.IsZeroNicApplicable,
		IsCBDApplicable: p.IsCBDApplicable, Image: orNull(p.Image), Handle: orNull(p.Handle), FDAStatus: string(p.FDAStatus),
		UpdatedAt: p.UpdatedAt.UTC().Format(time.RFC3339)}
}

type adminProductListDTO struct {
	Products []adminProductDTO `json:"products"`
	Total    int               `json:"total"`
}

// forCatalog adapts a handler of the catalogue editor: forModerator (401
// without a moderator), then 404 where no catalogue is kept.
func (s *Server) forCatalog(h func(w http.ResponseWriter, r *http.Request, c *catalog.Repo, m *identity.Moderator) error) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		if s.Catalog == nil {
			return apperr.New(apperr.NotFound, "no catalogue is kept here")
		}
		return h(w, r, s.Catalog, m)
	})
}

// adminListProducts answers GET /api/admin/products?q=&limit=&offset=.
func (s *Server) adminListProducts(w http.ResponseWriter, r *http.Request, c *catalog.Repo, _ *identity.Moderator) error {
	limit, err := intParam(r, "limit", 20, 1, catalog.MaxSearchLimit)
	if err != nil {
		return err
	}
	offset, err := intParam(r, "offset", 0, 0, 1_000_000)
	if err != nil {
		return err
	}
	ps, total, err := c.Search(r.Context(), r.URL.Query().Get("q"), limit, offset)
	if err != nil {
		return err
	}
	out := adminProductListDTO{Products: make([]adminProductDTO, len(ps)), Total: total}
	for i, p := range ps {
		out.Products[i] = adminProduct(p)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
	return nil
}

// productID reads the path's product id (the catalogue's id, as feeds
// name the product).
func productID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if id == "" || len(id) > 100 || strings.ContainsAny(id, "\x00/") {
		return "", apperr.Invalidf("product id must be 1 to 100 characters")
	}
	return id, nil
}

// adminGetProduct answers GET /api/admin/products/{id}.
func (s *Server) adminGetProduct(w http.ResponseWriter, r *http.Request, c *catalog.Repo, _ *identity.Moderator) error {
	id, err := productID(r)
	if err != nil {
		return err
	}
	p, err := c.Get(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]adminProductDTO{"product": adminProduct(p)})
	return nil
}

// adminEditProduct answers PATCH /api/admin/products/{id}: the body holds
// the fields to change; the first rule the product then breaks is a 400
// naming its field, an id or GTIN another product holds a 409. The audit
// log gets the old and new value of each changed field.
func (s *Server) adminEditProduct(w http.ResponseWriter, r *http.Request, c *catalog.Repo, m *identity.Moderator) error {
	id, err := productID(r)
	if err != nil {
		return err
	}
	var patch map[string]any
	if err := decodeJSON(r, &patch); err != nil {
		return err
	}
	now := s.Clock.Now()
	p, err := c.Update(r.Context(), id, patch, func(ctx context.Context, q db.Querier, before, after *catalog.Product) error {
		return audit.Write(ctx, q, now, m.Actor(), "product.edit", 0, 0, productEdit{Product: before.ProductID, Changes: catalog.Changes(before, after)})
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]adminProductDTO{"product": adminProduct(p)})
	return nil
}

// productEdit is an edit's audit entry.
type productEdit struct {
	Product string                    `json:"product"`
	Changes map[string]catalog.Change `json:"changes"`
}

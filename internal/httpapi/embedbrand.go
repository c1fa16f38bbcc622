package httpapi

// The widget's brand chooser (docs/embed.md, "A brand's button"): the
// products of one brand, for a widget opened with brand= instead of a
// product, from the search index's catalogue and stock.

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"locator/internal/apperr"
	"locator/internal/catalog"
)

// Brand products' limits.
const (
	brandProductsDefault = 50
	brandProductsMax     = 100
)

// brandProductDTO is one product of the chooser with how many stores
// carry it (BrandProduct in api/openapi.yaml).
type brandProductDTO struct {
	productSummaryDTO
	Stores int `json:"stores"`
}

// brandProducts answers GET /api/store/brand-products?brand=&partner=&limit=:
// the catalogue's products of a brand, the partner's own product list
// first (in its order), then by how many stores carry them (most first),
// then by name. With a known partner that is a brand with a brand list,
// the brand must be one of its brands (400 otherwise, as /embed answers).
func (s *Server) brandProducts(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	for name, vs := range q {
		if len(vs) > 1 {
			return apperr.Invalidf("%s is given more than once", name)
		}
	}
	brand := strings.TrimSpace(q.Get("brand"))
	switch {
	case !embedText(q.Get("brand")):
		return apperr.Invalidf("brand must be text of at most 100 characters")
	case brand == "":
		return apperr.Invalidf("brand is required")
	}
	limit, err := intParam(r, "limit", brandProductsDefault, 1, brandProductsMax)
	if err != nil {
		return err
	}
	var ownList []string // the partner's product list
	if slug := q.Get("partner"); q.Has("partner") {
		if !embedSlug.MatchString(slug) {
			return apperr.Invalidf("partner must be a partner's name in lowercase letters, digits and hyphens")
		}
		if p, ok := s.embedPartner(r.Context(), slug); ok {
			if why := brandRefusal(p, brand); why != "" {
				return apperr.Invalidf("%s", why)
			}
			ownList = p.ProductIDs
		}
	}
	prod := s.Index.Products()
	ps := prod.Catalog().OfBrand(brand)
	type ranked struct {
		p            *catalog.Product
		own, carried int
	}
	rs := make([]ranked, len(ps))
	for i, p := range ps {
		own := slices.Index(ownList, p.ProductID)
		if own < 0 {
			own = len(ownList)
		}
		rs[i] = ranked{p: p, own: own, carried: prod.Stores(p.ID)}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.own, b.own), cmp.Compare(b.carried, a.carried),
			cmp.Compare(a.p.Name, b.p.Name), cmp.Compare(a.p.ProductID, b.p.ProductID))
	})
	out := struct {
		Brand    string            `json:"brand"`
		Products []brandProductDTO `json:"products"`
	}{Brand: brand, Products: make([]brandProductDTO, 0, min(limit, len(rs)))}
	if len(ps) > 0 {
		out.Brand = strings.TrimSpace(ps[0].Brand) // the catalogue's spelling
	}
	for _, r := range rs[:min(limit, len(rs))] {
		out.Products = append(out.Products, brandProductDTO{productSummaryDTO: productSummary(r.p), Stores: r.carried})
	}
	return s.answerJSON(w, r, out)
}

package httpapi

// The shoppers' product calls (docs/products.md, "Searching by product"):
// product suggestions, one product, a store's products. All answer from
// the search index's product side, which every replica keeps in memory.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/catalog"
	"locator/internal/httpbody"
	"locator/internal/rules"
	"locator/internal/search"
)

// Suggestion limits.
const (
	suggestDefault = 8
	suggestMax     = 20
	maxSuggestText = 100
)

// productSummaryDTO is a product as shoppers see it (ProductSummary in
// api/openapi.yaml).
type productSummaryDTO struct {
	productCoreDTO
	Handle    *string `json:"handle"`
	Thumbnail *string `json:"thumbnail"`
	ZeroNic   bool    `json:"is_zero_nic_applicable"`
	CBD       bool    `json:"is_cbd_applicable"`
}

func productSummary(p *catalog.Product) productSummaryDTO {
	return productSummaryDTO{productCoreDTO: productCore(p), Handle: orNull(p.Handle), Thumbnail: orNull(p.Image),
		ZeroNic: p.IsZeroNicApplicable, CBD: p.IsCBDApplicable}
}

type productDetailDTO struct {
	productSummaryDTO
	FDAStatus string `json:"fda_status"`
}

// storeProductDTO is a product a store carries, with its stock there.
type storeProductDTO struct {
	productSummaryDTO
	Availability string        `json:"availability"`
	Quantity     *int64        `json:"quantity"`
	Price        *float64      `json:"price"`
	SalePrice    *float64      `json:"sale_price"`
	CurrencyCode *string       `json:"currency_code"`
	UpdatedAt    string        `json:"updated_at"`
	Stale        bool          `json:"stale"`
	Lawful       bool          `json:"lawful"`
	Rule         *rules.Public `json:"rule"`
}

func amount(v int64) *float64 {
	if v < 0 {
		return nil
	}
	f := float64(v) / 100
	return &f
}

// productRef reads a product id or GTIN from the path.
func productRef(r *http.Request) (string, error) {
	ref := r.PathValue("id")
	switch {
	case ref == "":
		return "", apperr.Invalidf("product id is empty")
	case strings.ContainsRune(ref, 0) || !utf8.ValidString(ref):
		return "", apperr.Invalidf("product id holds a NUL byte or is not UTF-8")
	case utf8.RuneCountInString(ref) > search.MaxProductRef:
		return "", apperr.Invalidf("product id is longer than %d characters", search.MaxProductRef)
	}
	return ref, nil
}

// findProduct looks a product up by its id or GTIN in the index's
// catalogue: a 404 when it is none.
func (s *Server) findProduct(ref string) (*catalog.Product, error) {
	if p, ok := s.Index.Products().Catalog().Find(ref); ok {
		return p, nil
	}
	return nil, apperr.New(apperr.NotFound, "no product %q in the catalogue", clipText(ref))
}

func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// suggestProducts answers GET /api/store/products/suggest?q=&limit=.
func (s *Server) suggestProducts(w http.ResponseWriter, r *http.Request) error {
	vals := r.URL.Query()
	q := vals.Get("q")
	switch n := utf8.RuneCountInString(q); {
	case strings.ContainsRune(q, 0) || !utf8.ValidString(q):
		return apperr.Invalidf("q holds a NUL byte or is not UTF-8")
	case strings.TrimSpace(q) == "":
		return apperr.Invalidf("q is required")
	case n > maxSuggestText:
		return apperr.Invalidf("q is longer than %d characters", maxSuggestText)
	}
	limit, err := intParam(r, "limit", suggestDefault, 1, suggestMax)
	if err != nil {
		return err
	}
	ps := s.Index.Products().Catalog().Suggest(q, limit)
	out := struct {
		Products []productSummaryDTO `json:"products"`
	}{Products: make([]productSummaryDTO, len(ps))}
	for i, p := range ps {
		out.Products[i] = productSummary(p)
	}
	return s.answerJSON(w, r, out)
}

// getProduct answers GET /api/store/products/{id} (an id or a GTIN).
func (s *Server) getProduct(w http.ResponseWriter, r *http.Request) error {
	ref, err := productRef(r)
	if err != nil {
		return err
	}
	p, err := s.findProduct(ref)
	if err != nil {
		return err
	}
	return s.answerJSON(w, r, struct {
		Product productDetailDTO `json:"product"`
	}{productDetailDTO{productSummary(p), string(p.FDAStatus)}})
}

// storeProducts answers GET /api/store/physical-store/{id}/products: the
// products a published store carries, by kind (in the catalogue's order
// of kinds), brand and name, each with its stock and the law's verdict.
func (s *Server) storeProducts(w http.ResponseWriter, r *http.Request, id int64) error {
	now := s.Clock.Now()
	stock, ok := s.Index.StoreProducts(id, now)
	if !ok {
		return apperr.New(apperr.NotFound, "no published store %d", id)
	}
	cat := s.Index.Products().Catalog()
	out := struct {
		Products []storeProductDTO `json:"products"`
	}{Products: make([]storeProductDTO, 0, len(stock))}
	kinds := map[string]int{}
	for i, k := range catalog.Kinds {
		kinds[string(k)] = i
	}
	for _, st := range stock {
		p, ok := cat.ByKey(st.Product)
		if !ok {
			continue // a product the catalogue lost since: its row goes with it
		}
		w := st.Row
		d := storeProductDTO{productSummaryDTO: productSummary(p), Availability: string(w.Availability),
			Price: amount(w.Price), SalePrice: amount(w.Sale), UpdatedAt: w.ReportedAt.UTC().Format(time.RFC3339),
			Stale: now.Sub(w.ReportedAt) > search.StaleAfter, Lawful: st.Verdict.Lawful, Rule: st.Verdict.Rule}
		if w.Quantity >= 0 {
			q := w.Quantity
			d.Quantity = &q
		}
		if w.Currency != "" {
			c := strings.ToLower(w.Currency)
			d.CurrencyCode = &c
		}
		out.Products = append(out.Products, d)
	}
	slices.SortFunc(out.Products, func(a, b storeProductDTO) int {
		return cmp.Or(cmp.Compare(kinds[a.Kind], kinds[b.Kind]), cmp.Compare(a.Brand, b.Brand), cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	return s.answerJSON(w, r, out)
}

// answerJSON writes v as JSON, compressed when the caller takes it.
func (s *Server) answerJSON(w http.ResponseWriter, r *http.Request, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode answer: %w", err)
	}
	httpbody.JSON(w, r, b)
	return nil
}

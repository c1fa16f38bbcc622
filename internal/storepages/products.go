package storepages

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"locator/internal/catalog"
	"locator/internal/productlaw"
	"locator/internal/rules"
	"locator/internal/search"
)

// Product pages, /products/{handle} (or /products/{id} for a product
// without a marketplace handle), for search engines and shared links
// (docs/store-pages.md, "Product pages"): the product, where the law
// forbids selling it in stores, and the stores of the index that carry
// it, by state. Read from the index alone (its catalogue, stock, rulebook
// and state directories), like the store pages.

// productStoresPerState bounds the stores a product page lists in one
// state; the rest are counted, with the state's directory linked.
const productStoresPerState = 50

// productPage is what the product template shows.
type productPage struct {
	Name, Brand, Kind, Flavour, Nicotine, FDA string
	GTIN                                      string
	Image                                     string // http(s) or a path on this site; "" none
	ZeroNicotine, CBD                         bool
	Restrictions                              []restrictionLine
	States                                    []productState
	Carriers                                  int    // stores carrying it
	Lawful                                    int    // of those, where it may be sold
	Summary                                   string // "Carried by 3 stores; the law lets 2 of them sell it."
}

type restrictionLine struct {
	Place, Summary, Citation, URL, Checked string
	AdultOnlyExempt                        bool
}

// productState is one state's stores that carry the product.
type productState struct {
	Name, Path string // the state's directory page
	Count      int
	More       int // stores not listed (past productStoresPerState)
	Stores     []productStore
}

type productStore struct {
	Name, Path, Where string
	offerLine
}

var flavourNames = map[catalog.Flavour]string{
	catalog.Tobacco: "Tobacco", catalog.Menthol: "Menthol", catalog.Mint: "Mint", catalog.Fruit: "Fruit",
	catalog.Dessert: "Dessert", catalog.OtherFlavor: "Other", catalog.Unflavoured: "Unflavoured",
}

var fdaWords = map[catalog.FDAStatus]string{
	catalog.FDAAuthorised: "Marketing granted order (authorised)", catalog.FDADenied: "Marketing denial order (denied)",
	catalog.FDAPending: "Application under review (pending)", catalog.FDANone: "No marketing order known",
}

// findProduct resolves a product page's last path segment: a handle
// first, then a catalogue id.
func findProduct(cat *search.Catalog, seg string) (*catalog.Product, bool) {
	if p, ok := cat.ByHandle(seg); ok {
		return p, true
	}
	id, err := url.PathUnescape(seg)
	if err != nil {
		return nil, false
	}
	return cat.Find(id)
}

// ServeProduct answers /products/{handle-or-id}: the product's page, a 301
// to its canonical path (a product reached by its id or GTIN that has a
// handle, a trailing slash), or the 404 page.
func (p *Pages) ServeProduct(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	seg, ok := strings.CutPrefix(r.URL.EscapedPath(), "/products/")
	if seg = strings.TrimSuffix(seg, "/"); !ok || seg == "" || len(seg) > 200 || strings.Contains(seg, "/") {
		p.notFound(w, r)
		return
	}
	cat := p.ix.Products().Catalog()
	prod, ok := findProduct(cat, seg)
	if !ok {
		p.notFound(w, r)
		return
	}
	canonical := ProductPath(prod)
	if r.URL.EscapedPath() != canonical {
		redirect(w, canonical)
		return
	}
	base := p.base(r)
	now := p.opt.Now()
	pp := &productPage{Name: prod.Name, Brand: prod.Brand, Kind: kindNames[prod.Kind], Flavour: flavourNames[prod.Flavour],
		Nicotine: prod.NicotineText(), FDA: fdaWords[prod.FDAStatus], GTIN: prod.GTIN,
		ZeroNicotine: prod.IsZeroNicApplicable, CBD: prod.IsCBDApplicable}
	if prod.Image != "" && safeImage(prod.Image) {
		pp.Image = prod.Image
	}
	for _, rs := range productlaw.Restrictions(rules.MustLoad(), p.ix.Products().Directories(), productlaw.Of(prod), rules.DayOf(now)) {
		place := rs.Place
		if rs.Directory {
			place = stateName(rs.Place) + " (not in the state's directory of vapour products that may be sold)"
		}
		pp.Restrictions = append(pp.Restrictions, restrictionLine{Place: place, Summary: rs.Rule.Summary, Citation: rs.Rule.Citation,
			URL: rs.Rule.URL, Checked: rs.Rule.CheckedOn, AdultOnlyExempt: rs.AdultOnlyExempt})
	}
	ld := productLD(prod, base)
	ld.Context = "https://schema.org"
	modified := prod.UpdatedAt
	pp.States, ld.Offers, pp.Lawful, modified = p.productStores(prod, base, now, modified)
	for _, s := range pp.States {
		pp.Carriers += s.Count
	}
	pp.Summary = "No store in our directory reports carrying it."
	if pp.Carriers > 0 {
		pp.Summary = "Carried by " + storeCountText(pp.Carriers) + "; the law lets " + strconv.Itoa(pp.Lawful) + " of them sell it."
	}
	crumbs := []crumb{home, {Name: prod.Name, Path: canonical}}
	desc := prod.Name
	if prod.Brand != "" {
		desc += " by " + prod.Brand
	}
	desc += ": which stores carry it, with availability and price, and where the law forbids selling it."
	pg := &page{Title: prod.Name + " · Where to buy · Store Locator", Description: desc, Canonical: base + canonical, OGType: "product",
		Crumbs: crumbs, Product: pp, LD: []jsonLDBlock{breadcrumbLD(base, crumbs)}}
	// Search engines read a Product snippet only with an offer (or
	// reviews, which products have none of): without one the block would
	// be an invalid item, so the page has none.
	if ld.Offers != nil {
		pg.LD = []jsonLDBlock{jsonLD(ld), breadcrumbLD(base, crumbs)}
	}
	if pp.Image != "" {
		pg.Image, pg.ImageAlt = absolute(base, pp.Image), prod.Name
	}
	p.render(w, r, "product", http.StatusOK, pg, modified)
}

// productStores are the stores carrying prod, by state name, each state's
// stores by city and name (the first productStoresPerState listed), with
// the AggregateOffer of the lawful ones that give a price in one currency
// (nil: none), how many may sell it, and the latest change among them.
func (p *Pages) productStores(prod *catalog.Product, base string, now, modified time.Time) (_ []productState, _ *ldAggregateOff, lawful int, _ time.Time) {
	carriers := p.ix.Carriers(prod.ID, now)
	ids := make([]int64, len(carriers))
	for i, c := range carriers {
		ids[i] = c.Store
	}
	byState := map[string]*productState{}
	var all []*productState
	agg := &ldAggregateOff{Type: "AggregateOffer"}
	var low, high int64 = -1, -1
	i := 0
	p.ix.Docs(ids, func(sd search.StoreDoc) {
		for carriers[i].Store != sd.ID {
			i++
		}
		c := carriers[i]
		v := liteOf(sd)
		st := byState[v.stateSlug()]
		if st == nil {
			st = &productState{Name: stateName(v.State), Path: "/stores/" + v.stateSlug()}
			byState[v.stateSlug()] = st
			all = append(all, st)
		}
		st.Count++
		if c.Verdict.Lawful {
			lawful++
		}
		line, since, _ := lineOf(c.Row, c.Verdict, now)
		modified = maxTime(maxTime(modified, sd.UpdatedAt), maxTime(since, c.Row.ReportedAt))
		st.Stores = append(st.Stores, productStore{Name: v.Name, Path: v.path(), Where: cityName(v.City), offerLine: line})
		if amount := paid(c.Row); c.Verdict.Lawful && amount >= 0 && (agg.PriceCurrency == "" || agg.PriceCurrency == c.Row.Currency) && c.Row.Currency != "" {
			agg.PriceCurrency = c.Row.Currency
			agg.OfferCount++
			if low < 0 || amount < low {
				low = amount
			}
			high = max(high, amount)
		}
	})
	out := make([]productState, 0, len(all))
	for _, st := range all {
		slices.SortFunc(st.Stores, func(a, b productStore) int {
			return cmp.Or(cmp.Compare(a.Where, b.Where), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Path, b.Path))
		})
		if len(st.Stores) > productStoresPerState {
			st.More = len(st.Stores) - productStoresPerState
			st.Stores = st.Stores[:productStoresPerState]
		}
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b productState) int { return cmp.Compare(a.Name, b.Name) })
	if agg.OfferCount == 0 {
		return out, nil, lawful, modified
	}
	agg.LowPrice, agg.HighPrice = json.Number(amountText(low)), json.Number(amountText(high))
	return out, agg, lawful, modified
}

// storeCountText is "3 stores" / "1 store".
func storeCountText(n int) string {
	if n == 1 {
		return "1 store"
	}
	return strconv.Itoa(n) + " stores"
}

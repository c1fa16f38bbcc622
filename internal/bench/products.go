package bench

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"time"

	"locator/internal/catalog"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/rules"
	"locator/internal/search"
	"locator/internal/stores"
)

// SLB-1's product series (docs/performance.md, "SLB-1's product series"):
// a catalogue of CatalogSize products, StockPerStore stock rows a store
// (10 million at M), products drawn by a Zipf-like popularity, and
// ProductShare percent of the query mix searching for one of them (half
// of those in stock only).
const (
	CatalogSize   = 5000
	StockPerStore = 10
	ProductShare  = 30
	zipfS         = 1.1 // popularity: the k-th product is drawn about k^-1.1 as often as the first
	zipfV         = 4
)

// Catalogue is the series' catalogue: products with keys 1..CatalogSize,
// the most popular first; kinds and flavour families in turn, so that
// some are flavoured vapour products the rulebook forbids in places.
func Catalogue() []*catalog.Product {
	ps := make([]*catalog.Product, CatalogSize)
	for i := range ps {
		ps[i] = &catalog.Product{ID: int64(i + 1), ProductID: ProductIDOf(int64(i + 1)), Brand: fmt.Sprintf("Brand %d", i%97),
			Name: fmt.Sprintf("Product %d", i), Kind: catalog.Kinds[i%len(catalog.Kinds)],
			Flavour: catalog.Flavours[(i/len(catalog.Kinds))%len(catalog.Flavours)], FDAStatus: catalog.FDANone}
	}
	return ps
}

// ProductIDOf is the id (feeds, the API's product parameter) of the catalogue product of key.
func ProductIDOf(key int64) string { return fmt.Sprintf("slb-%04d", key) }

// popularity draws product keys as shoppers and stores pick them.
func popularity(rng *rand.Rand) func() int64 {
	z := rand.NewZipf(rng, zipfS, zipfV, CatalogSize-1)
	return func() int64 { return int64(z.Uint64()) + 1 }
}

// StockOf returns the stock of store id (1-based): StockPerStore distinct
// products by popularity, each with an availability (in stock 40%, limited
// 20%, on display to order 10%, out of stock 30%), a quantity, one of 3,000
// prices and a report time within the 10 days before now (so about 30%
// are stale). The same id and now give the same rows, in product order.
func StockOf(id int64, now time.Time) []inventory.Entry {
	rng := rand.New(rand.NewPCG(Seed^0x57c0, uint64(id)))
	draw := popularity(rng)
	es := make([]inventory.Entry, 0, StockPerStore)
	for tries := 0; len(es) < StockPerStore && tries < 50*StockPerStore; tries++ {
		p := draw()
		if slices.ContainsFunc(es, func(e inventory.Entry) bool { return e.ProductID == p }) {
			continue
		}
		avail := inventory.OutOfStock
		switch k := rng.IntN(10); {
		case k < 4:
			avail = inventory.InStock
		case k < 6:
			avail = inventory.LimitedAvailability
		case k < 7:
			avail = inventory.OnDisplayToOrder
		}
		es = append(es, inventory.Entry{StoreID: id, ProductID: p, Availability: avail, Quantity: int64(rng.IntN(60)),
			Price: int64(500 + rng.IntN(3000)), SalePrice: -1, Currency: "USD",
			ReportedAt: now.Add(-time.Duration(rng.Int64N(int64(10 * 24 * time.Hour)))).Truncate(time.Second)})
	}
	slices.SortFunc(es, func(a, b inventory.Entry) int { return cmp.Compare(a.ProductID, b.ProductID) })
	return es
}

// LoadStock gives ix the series' catalogue and the stock of stores 1..n
// (ix holds them already: the rows are arranged by their positions). It
// returns the number of rows.
func LoadStock(ix *search.Index, n int, now time.Time) (int, error) {
	ix.Products().SetCatalog(search.NewCatalog(Catalogue()))
	rows := 0
	err := ix.Products().Load(func(add func([]inventory.Entry)) error {
		const batch = 10_000
		var es []inventory.Entry
		for id := int64(1); id <= int64(n); id++ {
			es = append(es, StockOf(id, now)...)
			if len(es) >= batch*StockPerStore || id == int64(n) {
				add(es)
				rows += len(es)
				es = es[:0]
			}
		}
		return nil
	})
	return rows, err
}

// WithProducts returns rs with ProductShare percent of the valid requests
// searching for a product drawn by popularity, half of those with
// in_stock=true (the raw URL says so too); the same rs gives the same mix.
func WithProducts(rs []Request) []Request {
	rng := rand.New(rand.NewPCG(Seed, 0x9d0c))
	draw := popularity(rng)
	out := make([]Request, len(rs))
	for i, r := range rs {
		out[i] = r
		if r.Invalid || rng.IntN(100) >= ProductShare {
			continue
		}
		q := r.Query
		q.Product, q.InStock = draw(), rng.IntN(2) == 0
		q.ProductRef = ProductIDOf(q.Product)
		extra := "&product=" + url.QueryEscape(q.ProductRef)
		if q.InStock {
			extra += "&in_stock=true"
		}
		out[i] = Request{Query: q, RawURL: r.RawURL + extra}
	}
	return out
}

// ProductOnly returns the requests of rs that search for a product.
func ProductOnly(rs []Request) []Request {
	var out []Request
	for _, r := range rs {
		if !r.Invalid && r.Query.Product != 0 {
			out = append(out, r)
		}
	}
	return out
}

// ProductOracle answers product searches by brute force: every store of
// the Oracle within the radius, kept when its stock rows (StockOf) hold
// the product, judged by the rulebook at its place, ranked by distance
// band, stock class and distance (docs/products.md, "Ranking").
type ProductOracle struct {
	o      *Oracle
	now    time.Time
	rows   map[int64][]inventory.Entry // store id -> its rows, built on demand
	places map[int64]storePlace
	data   *Dataset
	law    map[int64]productlaw.Product
}

type storePlace struct {
	set   *rules.Set
	state string
	zone  string
}

// NewProductOracle is the oracle over d's stores (es, their entries) with
// the stock StockOf gives at now.
func NewProductOracle(d *Dataset, es []stores.Entry, now time.Time) *ProductOracle {
	law := map[int64]productlaw.Product{}
	for _, p := range Catalogue() {
		law[p.ID] = productlaw.Of(p)
	}
	return &ProductOracle{o: NewOracle(es), now: now, rows: map[int64][]inventory.Entry{}, places: map[int64]storePlace{},
		data: d, law: law}
}

// Stock classes, best first, as the search ranks them.
const (
	classInStock = iota
	classLimited
	classOnDisplay
	classUnknown
	classOut
	classUnlawful
)

// bandEdges are the distance bands of a product search, in miles.
var bandEdges = []float64{1, 3, 5, 10, 25, 50, 100}

func bandOf(miles float64) int {
	for i, e := range bandEdges {
		if miles < e {
			return i
		}
	}
	return len(bandEdges)
}

// ProductHit is one store of a product search's answer.
type ProductHit struct {
	search.Hit
	band, class int
}

// Nearest answers q (with a product) as the search must: its first
// q.Limit stores and whether more matched.
func (po *ProductOracle) Nearest(q search.Query) ([]ProductHit, bool) {
	book := rules.MustLoad()
	var all []ProductHit
	for _, h := range po.o.all(q) {
		e, ok := po.rowOf(h.ID, q.Product)
		if !ok {
			continue
		}
		pl := po.place(h.ID, book)
		loc := stores.Zone(pl.zone) // cached by name
		v := productlaw.Judge(pl.set.Rules(rules.DayOf(po.now.In(loc))), nil, pl.state, po.law[q.Product])
		c := classInStock
		switch {
		case !v.Lawful:
			c = classUnlawful
		case po.now.Sub(e.ReportedAt) > search.StaleAfter:
			c = classUnknown
		case e.Availability == inventory.InStock:
		case e.Availability == inventory.LimitedAvailability:
			c = classLimited
		case e.Availability == inventory.OnDisplayToOrder:
			c = classOnDisplay
		default:
			c = classOut
		}
		if q.InStock && c > classLimited {
			continue
		}
		all = append(all, ProductHit{Hit: h, band: bandOf(h.Miles), class: c})
	}
	slices.SortStableFunc(all, func(a, b ProductHit) int {
		return cmp.Or(cmp.Compare(a.band, b.band), cmp.Compare(a.class, b.class)) // all is nearest first already
	})
	if len(all) > q.Limit {
		return all[:q.Limit], true
	}
	return all, false
}

func (po *ProductOracle) rowOf(store, product int64) (inventory.Entry, bool) {
	rs, ok := po.rows[store]
	if !ok {
		rs = StockOf(store, po.now)
		po.rows[store] = rs
	}
	i, found := slices.BinarySearchFunc(rs, product, func(e inventory.Entry, p int64) int { return cmp.Compare(e.ProductID, p) })
	if !found {
		return inventory.Entry{}, false
	}
	return rs[i], true
}

func (po *ProductOracle) place(id int64, book *rules.Book) storePlace {
	if pl, ok := po.places[id]; ok {
		return pl
	}
	s := po.data.Store(int(id - 1))
	pl := storePlace{set: book.Set(rules.Place{Country: s.CountryCode, State: s.State, City: s.City, ZIP: s.PostalCode}, s.AdultOnly),
		state: s.State, zone: s.TimeZone}
	po.places[id] = pl
	return pl
}

// ProductGate is the correctness gate of the product series: the first n
// product requests of rs against the oracle. The ids must come in the
// oracle's order; two stores may swap only when their distances differ by
// under 1 m (float rounding) within one band and class, and has_more may
// differ only when a store lies within 1 m of the radius.
func ProductGate(ix *search.Index, po *ProductOracle, rs []Request, n int) error {
	const slack = 1.0 / 1609.344
	checked := 0
	for _, r := range ProductOnly(rs) {
		if checked == n {
			break
		}
		checked++
		q := r.Query
		q.Now = po.now
		got, more := ix.ProductHits(q)
		want, wantMore := po.Nearest(q)
		if len(got) != len(want) {
			return fmt.Errorf("query %s: %d stores, want %d", r.RawURL, len(got), len(want))
		}
		for i := range got {
			if got[i].ID == want[i].ID {
				continue
			}
			j := slices.IndexFunc(want, func(h ProductHit) bool { return h.ID == got[i].ID })
			if j < 0 || want[j].band != want[i].band || want[j].class != want[i].class || abs(want[j].Miles-want[i].Miles) > slack {
				return fmt.Errorf("query %s: store %d is %d (%.6f mi), want %d (%.6f mi)", r.RawURL, i, got[i].ID, got[i].Miles, want[i].ID, want[i].Miles)
			}
		}
		if more != wantMore && !(len(want) > 0 && abs(want[len(want)-1].Miles-q.RadiusMiles) <= slack) {
			return fmt.Errorf("query %s: has_more %v, want %v", r.RawURL, more, wantMore)
		}
	}
	if checked < n {
		return fmt.Errorf("only %d product requests to check, want %d", checked, n)
	}
	return nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

package search

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"locator/internal/catalog"
	"locator/internal/productlaw"
)

// Carrier is one store of the index that carries a product, with its row
// and whether it may sell the product there (the product pages of
// internal/storepages).
type Carrier struct {
	Store   int64
	Row     StockRow
	Verdict productlaw.Verdict
}

// Carriers returns the stores of the index (published, not closed for
// good) that carry product (a catalogue key), by store id, each with its
// stock and the law's verdict on now's day where the store is.
func (ix *Index) Carriers(product int64, now time.Time) []Carrier {
	c := ix.prod.carriersOf(product)
	if c == nil {
		return nil
	}
	days := ruleDay{now: now}
	j := &judge{ix: ix, dirs: ix.prod.Directories(), product: ix.prod.Catalog().lawOf(product), days: &days}
	var at []int // each carrier's row in c
	out := make([]Carrier, 0, len(c.ids))
	ix.mu.RLock()
	for i, id := range c.ids {
		if slot, ok := ix.slots[int64(id)]; ok {
			out = append(out, Carrier{Store: int64(id), Verdict: j.of(&ix.recs[slot])})
			at = append(at, i)
		}
	}
	ix.mu.RUnlock()
	for k, i := range at {
		out[k].Row = ix.prod.row(product, c, i)
	}
	// c's rows are in the spatial order of their stores (stock.go).
	slices.SortFunc(out, func(a, b Carrier) int { return cmp.Compare(a.Store, b.Store) })
	return out
}

// ByHandle returns the product whose marketplace handle is h.
func (c *Catalog) ByHandle(h string) (*catalog.Product, bool) {
	if h == "" {
		return nil, false
	}
	for _, p := range c.list {
		if p.Handle == h {
			return p, true
		}
	}
	return nil, false
}

// All is every product of the catalogue, in the order it was built from
// (read it, never change it).
func (c *Catalog) All() []*catalog.Product { return c.list }

// Stores is how many stores of the index (published, not closed for good)
// carry product (a catalogue key), whatever their stock: the order of a
// brand's products in the widget's chooser (docs/embed.md).
func (p *Products) Stores(product int64) int {
	if c := p.carriersOf(product); c != nil {
		return c.placed
	}
	return 0
}

// OfBrand returns the products whose brand is brand (without case or the
// space around it), in the catalogue's order.
func (c *Catalog) OfBrand(brand string) []*catalog.Product {
	brand = strings.TrimSpace(brand)
	var out []*catalog.Product
	if brand == "" {
		return out
	}
	for _, p := range c.list {
		if strings.EqualFold(strings.TrimSpace(p.Brand), brand) {
			out = append(out, p)
		}
	}
	return out
}

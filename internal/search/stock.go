package search

// The product side of the index (docs/products.md, "Searching by
// product"): per product, the stores that carry it with their stock row
// beside them, the catalogue for suggestions and look-ups, and the state
// directories the law reads. The Syncer fills it at start and keeps it
// equal to the database by polling the stock's change stamps
// (inventory.Repo.ChangedStores), the catalogue's signature and the
// directories' last import.

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/inventory"
	"locator/internal/productlaw"
)

// Products is the product side of an Index. Safe for concurrent use: one
// writer (the Syncer) replaces a product's stores whole, readers take a
// product's current stores and read them without a lock.
type Products struct {
	mu      sync.RWMutex
	stock   map[int64]*carriers // product key -> the stores carrying it
	prices  []priceEntry        // interned (price, sale price, currency); 0 is "none"
	priceAt map[priceEntry]uint32
	bigQty  map[stockKey]int64 // quantities of qtyBig and more
	rows    int

	gen     atomic.Uint64
	catalog atomic.Pointer[Catalog]
	dirs    atomic.Pointer[productlaw.Directories]
}

// carriers are the stores carrying one product, by store id, in parallel
// arrays (15 bytes a stock row; docs/performance.md, "Products and
// stock"). A carriers value never changes once published: a change builds
// a new one.
type carriers struct {
	ids      []uint32 // store ids, ascending
	reported []uint32 // when the row was reported, Unix seconds
	price    []uint32 // index in Products.prices
	qty      []uint16 // the quantity; qtyNone, or qtyBig for one in bigQty
	avail    []uint8  // index in inventory.Availabilities
}

const (
	qtyNone = 1<<16 - 1
	qtyBig  = 1<<16 - 2
)

type stockKey struct{ product, store int64 }

// priceEntry is a price and sale price in hundredths (-1: none) and their
// currency.
type priceEntry struct {
	price, sale int32
	currency    [3]byte
}

func newProducts() *Products {
	p := &Products{stock: map[int64]*carriers{}, priceAt: map[priceEntry]uint32{}, bigQty: map[stockKey]int64{}}
	none := priceEntry{price: -1, sale: -1}
	p.prices = []priceEntry{none}
	p.priceAt[none] = 0
	p.catalog.Store(&Catalog{})
	return p
}

// StockRow is one store's stock of one product as the index holds it.
type StockRow struct {
	Availability inventory.Availability
	Quantity     int64 // -1: not given
	Price, Sale  int64 // hundredths of Currency; -1: not given
	Currency     string
	ReportedAt   time.Time
}

// Gen counts the changes of the product side (stock, catalogue,
// directories): answers built from it are cached per generation.
func (p *Products) Gen() uint64 { return p.gen.Load() }

// Rows is how many stock rows the index holds.
func (p *Products) Rows() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.rows
}

// Catalog is the catalogue the index holds.
func (p *Products) Catalog() *Catalog { return p.catalog.Load() }

// Directories are the state directories the law reads (nil: none loaded).
func (p *Products) Directories() *productlaw.Directories { return p.dirs.Load() }

// SetCatalog replaces the catalogue.
func (p *Products) SetCatalog(c *Catalog) {
	p.catalog.Store(c)
	p.gen.Add(1)
}

// SetDirectories replaces the state directories.
func (p *Products) SetDirectories(d *productlaw.Directories) {
	p.dirs.Store(d)
	p.gen.Add(1)
}

// carriersOf returns the stores carrying product (nil: none).
func (p *Products) carriersOf(product int64) *carriers {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stock[product]
}

// Row returns store's stock of product.
func (p *Products) Row(product, store int64) (StockRow, bool) {
	c := p.carriersOf(product)
	if c == nil {
		return StockRow{}, false
	}
	i, ok := c.find(store)
	if !ok {
		return StockRow{}, false
	}
	return p.row(product, c, i), true
}

// Carried returns the products store carries, with their rows (order not
// defined).
func (p *Products) Carried(store int64) (products []int64, rows []StockRow) {
	p.mu.RLock()
	all := make(map[int64]*carriers, len(p.stock))
	for k, c := range p.stock {
		all[k] = c
	}
	p.mu.RUnlock()
	for k, c := range all {
		if i, ok := c.find(store); ok {
			products = append(products, k)
			rows = append(rows, p.row(k, c, i))
		}
	}
	return products, rows
}

func (c *carriers) find(store int64) (int, bool) {
	if store < 0 || store > 1<<32-1 {
		return 0, false
	}
	return slices.BinarySearch(c.ids, uint32(store))
}

// row reads row i of product's carriers c.
func (p *Products) row(product int64, c *carriers, i int) StockRow {
	p.mu.RLock()
	pe := p.prices[c.price[i]]
	q := int64(c.qty[i])
	switch c.qty[i] {
	case qtyNone:
		q = -1
	case qtyBig:
		q = p.bigQty[stockKey{product, int64(c.ids[i])}]
	}
	p.mu.RUnlock()
	w := StockRow{Availability: inventory.Availabilities[c.avail[i]], Quantity: q, Price: int64(pe.price), Sale: int64(pe.sale),
		ReportedAt: time.Unix(int64(c.reported[i]), 0).UTC()}
	if pe.currency != [3]byte{} {
		w.Currency = string(pe.currency[:])
	}
	return w
}

// intern returns the number of a price entry. The caller holds the write lock.
func (p *Products) intern(e *inventory.Entry) uint32 {
	pe := priceEntry{price: int32(e.Price), sale: int32(e.SalePrice)}
	if pe.price >= 0 || pe.sale >= 0 {
		copy(pe.currency[:], e.Currency)
	}
	if n, ok := p.priceAt[pe]; ok {
		return n
	}
	n := uint32(len(p.prices))
	p.prices = append(p.prices, pe)
	p.priceAt[pe] = n
	return n
}

// appendEntry appends e to c. The caller holds the write lock.
func (p *Products) appendEntry(c *carriers, e *inventory.Entry) {
	c.ids = append(c.ids, uint32(e.StoreID))
	c.reported = append(c.reported, uint32(max(0, min(e.ReportedAt.Unix(), 1<<32-1))))
	c.price = append(c.price, p.intern(e))
	q := uint16(qtyNone)
	switch {
	case e.Quantity >= qtyBig:
		q = qtyBig
		p.bigQty[stockKey{e.ProductID, e.StoreID}] = e.Quantity
	case e.Quantity >= 0:
		q = uint16(e.Quantity)
	}
	c.qty = append(c.qty, q)
	c.avail = append(c.avail, uint8(slices.Index(inventory.Availabilities, e.Availability)))
}

// appendOld appends row i of old (product's) to c.
func appendOld(c, old *carriers, i int) {
	c.ids = append(c.ids, old.ids[i])
	c.reported = append(c.reported, old.reported[i])
	c.price = append(c.price, old.price[i])
	c.qty = append(c.qty, old.qty[i])
	c.avail = append(c.avail, old.avail[i])
}

func (c *carriers) clip() {
	c.ids, c.reported, c.price = slices.Clip(c.ids), slices.Clip(c.reported), slices.Clip(c.price)
	c.qty, c.avail = slices.Clip(c.qty), slices.Clip(c.avail)
}

// Load fills the product side with the rows fill passes to add, which must
// come in (store, product) order (inventory.Repo.Scan), so that each
// product's stores arrive in ascending order. What was there is replaced
// when fill returns without an error.
func (p *Products) Load(fill func(add func([]inventory.Entry)) error) error {
	build := map[int64]*carriers{}
	rows := 0
	err := fill(func(es []inventory.Entry) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for i := range es {
			e := &es[i]
			c := build[e.ProductID]
			if c == nil {
				c = &carriers{}
				build[e.ProductID] = c
			}
			p.appendEntry(c, e)
		}
		rows += len(es)
	})
	if err != nil {
		return err
	}
	for _, c := range build {
		c.clip()
	}
	p.mu.Lock()
	p.stock, p.rows = build, rows
	p.mu.Unlock()
	p.gen.Add(1)
	return nil
}

// ApplyStores replaces the stock of the stores (ascending) with rows
// (their whole stock now, in (store, product) order): what a poll read for
// the stores whose stock changed. Only the products those stores carried
// or now carry are rebuilt.
func (p *Products) ApplyStores(stores []int64, rows []inventory.Entry) {
	if len(stores) == 0 {
		return
	}
	changed := make([]uint32, 0, len(stores))
	for _, s := range stores {
		if s >= 0 && s <= 1<<32-1 {
			changed = append(changed, uint32(s))
		}
	}
	slices.Sort(changed)
	changed = slices.Compact(changed)
	fresh := map[int64][]inventory.Entry{}
	for _, e := range rows {
		fresh[e.ProductID] = append(fresh[e.ProductID], e)
	}
	for _, es := range fresh {
		slices.SortFunc(es, func(a, b inventory.Entry) int { return int(a.StoreID - b.StoreID) })
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	touched := map[int64]bool{}
	for k := range fresh {
		touched[k] = true
	}
	for k, c := range p.stock {
		if !touched[k] && c.holdsAny(changed) {
			touched[k] = true
		}
	}
	for k := range touched {
		old := p.stock[k]
		if old == nil {
			old = &carriers{}
		}
		es := fresh[k]
		c := &carriers{}
		i, j, s := 0, 0, 0
		for i < len(old.ids) || j < len(es) {
			if j < len(es) && (i == len(old.ids) || uint32(es[j].StoreID) <= old.ids[i]) {
				if i < len(old.ids) && old.ids[i] == uint32(es[j].StoreID) {
					i++ // replaced
				}
				p.appendEntry(c, &es[j])
				j++
				continue
			}
			id := old.ids[i]
			for s < len(changed) && changed[s] < id {
				s++
			}
			if s < len(changed) && changed[s] == id {
				if old.qty[i] == qtyBig {
					delete(p.bigQty, stockKey{k, int64(id)})
				}
				i++ // the store no longer carries it
				continue
			}
			appendOld(c, old, i)
			i++
		}
		p.rows += len(c.ids) - len(old.ids)
		if len(c.ids) == 0 {
			delete(p.stock, k)
			continue
		}
		c.clip()
		p.stock[k] = c
	}
	p.gen.Add(1)
}

// holdsAny reports whether c holds any of the stores (ascending): by
// binary searches when they are few beside c, else by one merge.
func (c *carriers) holdsAny(stores []uint32) bool {
	if len(stores)*16 < len(c.ids) {
		for _, s := range stores {
			if _, ok := slices.BinarySearch(c.ids, s); ok {
				return true
			}
		}
		return false
	}
	i, j := 0, 0
	for i < len(c.ids) && j < len(stores) {
		switch {
		case c.ids[i] == stores[j]:
			return true
		case c.ids[i] < stores[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// Bytes is the memory of the stock rows: what SLB-1 reports per row.
func (p *Products) Bytes() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	n := 0
	for _, c := range p.stock {
		n += 48 + 5*24 + cap(c.ids)*4 + cap(c.reported)*4 + cap(c.price)*4 + cap(c.qty)*2 + cap(c.avail)
	}
	return n + len(p.prices)*12
}

package search

// The product side of the index (docs/products.md, "Searching by
// product"): per product, the stores that carry it with their stock row
// beside them, the catalogue for suggestions and look-ups, and the state
// directories the law reads. The Syncer fills it at start and keeps it
// equal to the database by polling the stock's change stamps
// (inventory.Repo.ChangedStores), the catalogue's signature and the
// directories' last import.

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/inventory"
	"locator/internal/productlaw"
)

// Products is the product side of an Index. Safe for concurrent use: one
// writer (the Syncer) replaces a product's stores whole, readers take a
// product's current stores and read them without a lock. The rows are
// ordered by the index's store positions, so whoever reads or writes both
// takes the index's lock first, then mu.
type Products struct {
	mu      sync.RWMutex
	stock   map[int64]*carriers // product key -> the stores carrying it
	prices  []priceEntry        // interned (price, sale price, currency); 0 is "none"
	priceAt map[priceEntry]uint32
	codes   map[[3]byte]string // the currency codes of prices, as strings (a row read allocates none)
	bigQty  map[stockKey]int64 // quantities of qtyBig and more
	rows    int

	ix      *Index // whose store positions order the rows (carriers)
	gen     atomic.Uint64
	catalog atomic.Pointer[Catalog]
	dirs    atomic.Pointer[productlaw.Directories]
}

// carriers are the stores carrying one product, in parallel arrays (15
// bytes a stock row, plus about half a byte of boxes; docs/performance.md,
// "Products and stock"). The rows of the stores in the index come first,
// in the spatial order of their points (the Hilbert key of the float32
// point, as the tree orders stores, then the id), with a small packed tree
// of boxes over them (boxes), so that a product search walks only this
// product's stores near the point (Index.walkCarriers); the rows of the
// stores outside the index (hidden, pending, unknown) follow, by id. A
// carriers value never changes once published: a change builds a new one.
type carriers struct {
	ids      []uint32 // store ids
	reported []uint32 // when the row was reported, Unix seconds
	price    []uint32 // index in Products.prices
	qty      []uint16 // the quantity; qtyNone, or qtyBig for one in bigQty
	avail    []uint8  // index in inventory.Availabilities
	placed   int      // rows [0, placed) are stores in the index, in spatial order; the rest are by id
	// boxes holds the levels of the tree one after the other (boxLevels):
	// box b of level 0 bounds the points of the placed rows [b*leafRows,
	// (b+1)*leafRows), box b of level l bounds fan boxes of level l-1, the
	// last level is the root. Nil when the placed rows fit one leaf.
	boxes []pbox
}

// maxBoxLevels bounds the levels of a carriers' boxes (2^32 rows).
const maxBoxLevels = 9

// boxLevels returns where each level of c.boxes starts (start[levels] is
// their end) and how many levels there are (0: no boxes).
func (c *carriers) boxLevels() (start [maxBoxLevels + 1]int, levels int) {
	if c.placed <= leafRows {
		return start, 0
	}
	n := (c.placed + leafRows - 1) / leafRows
	for {
		start[levels+1] = start[levels] + n
		levels++
		if n == 1 {
			return start, levels
		}
		n = (n + fan - 1) / fan
	}
}

// leafRows is how many rows one leaf box of carriers covers: 16 bytes of
// box for 32 rows keeps the boxes at about half a byte a row.
const leafRows = 32

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

func newProducts(ix *Index) *Products {
	p := &Products{ix: ix, stock: map[int64]*carriers{}, priceAt: map[priceEntry]uint32{}, codes: map[[3]byte]string{},
		bigQty: map[stockKey]int64{}}
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
	p.ix.mu.RLock()
	defer p.ix.mu.RUnlock()
	c := p.carriersOf(product)
	if c == nil {
		return StockRow{}, false
	}
	i, ok := c.find(p.ix, store)
	if !ok {
		return StockRow{}, false
	}
	return p.row(product, c, i), true
}

// carried returns the products store carries, with their rows (order not
// defined). The caller holds the index's read lock.
func (p *Products) carried(store int64) (products []int64, rows []StockRow) {
	p.mu.RLock()
	all := make(map[int64]*carriers, len(p.stock))
	for k, c := range p.stock {
		all[k] = c
	}
	p.mu.RUnlock()
	for k, c := range all {
		if i, ok := c.find(p.ix, store); ok {
			products = append(products, k)
			rows = append(rows, p.row(k, c, i))
		}
	}
	return products, rows
}

// find returns the row of store in c. The caller holds ix's read lock: a
// store in the index is looked for in the leaves whose box holds its
// point, any other among the rows that follow, by id.
func (c *carriers) find(ix *Index, store int64) (int, bool) {
	if store < 0 || store > 1<<32-1 {
		return 0, false
	}
	id := uint32(store)
	lat, lon, _, ok := ix.pointOf(id)
	if !ok {
		i, found := slices.BinarySearch(c.ids[c.placed:], id)
		return c.placed + i, found
	}
	start, levels := c.boxLevels()
	if levels == 0 {
		i := slices.Index(c.ids[:c.placed], id)
		return i, i >= 0
	}
	var look func(level, b int) int
	look = func(level, b int) int {
		x := &c.boxes[start[level]+b]
		if lat < x.minLat || lat > x.maxLat || lon < x.minLon || lon > x.maxLon {
			return -1
		}
		if level == 0 {
			for i := b * leafRows; i < min((b+1)*leafRows, c.placed); i++ {
				if c.ids[i] == id {
					return i
				}
			}
			return -1
		}
		for k := b * fan; k < min((b+1)*fan, start[level]-start[level-1]); k++ {
			if i := look(level-1, k); i >= 0 {
				return i
			}
		}
		return -1
	}
	i := look(levels-1, 0)
	return i, i >= 0
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
	code := p.codes[pe.currency] // "" for none
	p.mu.RUnlock()
	return StockRow{Availability: inventory.Availabilities[c.avail[i]], Quantity: q, Price: int64(pe.price), Sale: int64(pe.sale),
		Currency: code, ReportedAt: time.Unix(int64(c.reported[i]), 0).UTC()}
}

// intern returns the number of a price entry. The caller holds the write lock.
func (p *Products) intern(e *inventory.Entry) uint32 {
	pe := priceEntry{price: int32(e.Price), sale: int32(e.SalePrice)}
	if pe.price >= 0 || pe.sale >= 0 {
		copy(pe.currency[:], e.Currency)
	}
	return p.internPrice(pe)
}

// internPrice returns the number of pe. The caller holds the write lock.
func (p *Products) internPrice(pe priceEntry) uint32 {
	if n, ok := p.priceAt[pe]; ok {
		return n
	}
	n := uint32(len(p.prices))
	p.prices = append(p.prices, pe)
	p.priceAt[pe] = n
	if _, ok := p.codes[pe.currency]; !ok && pe.currency != [3]byte{} {
		p.codes[pe.currency] = string(pe.currency[:])
	}
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

// Load fills the product side with the rows fill passes to add, in any
// order. What was there is replaced when fill returns without an error.
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
	p.ix.mu.RLock()
	defer p.ix.mu.RUnlock()
	for k, c := range build {
		build[k] = p.ix.arrange(c)
	}
	p.mu.Lock()
	p.stock, p.rows = build, rows
	p.mu.Unlock()
	p.gen.Add(1)
	return nil
}

// ApplyStores replaces the stock of the stores with rows (their whole
// stock now): what a poll read for the stores whose stock changed. Only
// the products those stores carried or now carry are rebuilt.
func (p *Products) ApplyStores(stores []int64, rows []inventory.Entry) {
	if len(stores) == 0 {
		return
	}
	changed := newIDSet(stores)
	fresh := map[int64][]inventory.Entry{}
	for _, e := range rows {
		fresh[e.ProductID] = append(fresh[e.ProductID], e)
	}
	p.ix.mu.RLock()
	defer p.ix.mu.RUnlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	touched := map[int64]bool{}
	for k := range fresh {
		touched[k] = true
	}
	for k, c := range p.stock {
		if !touched[k] && changed.holdsAny(c.ids) {
			touched[k] = true
		}
	}
	for k := range touched {
		old := p.stock[k]
		if old == nil {
			old = &carriers{}
		}
		c := &carriers{}
		for i, id := range old.ids {
			if changed.has(id) {
				if old.qty[i] == qtyBig {
					delete(p.bigQty, stockKey{k, int64(id)})
				}
				continue // replaced, or no longer carried
			}
			appendRow(c, old, i)
		}
		for j := range fresh[k] {
			p.appendEntry(c, &fresh[k][j])
		}
		p.rows += len(c.ids) - len(old.ids)
		if len(c.ids) == 0 {
			delete(p.stock, k)
			continue
		}
		p.stock[k] = p.ix.arrange(c)
	}
	p.gen.Add(1)
}

// relocate re-arranges the products carried by stores whose point or
// presence in the index changed (moved). The caller holds ix's write lock.
func (p *Products) relocate(moved []int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rows == 0 {
		return
	}
	set := newIDSet(moved)
	for k, c := range p.stock {
		if set.holdsAny(c.ids) {
			p.stock[k] = p.ix.arrange(c)
		}
	}
	p.gen.Add(1)
}

// idSet is a set of store ids as a bitmap (a bit a store id up to the
// largest): testing every stock row against it costs about a nanosecond.
type idSet []uint64

func newIDSet(ids []int64) idSet {
	top := int64(-1)
	for _, id := range ids {
		if id >= 0 && id <= 1<<32-1 {
			top = max(top, id)
		}
	}
	s := make(idSet, top/64+1)
	for _, id := range ids {
		if id >= 0 && id <= 1<<32-1 {
			s[id/64] |= 1 << (id % 64)
		}
	}
	return s
}

func (s idSet) has(id uint32) bool {
	w := int(id / 64)
	return w < len(s) && s[w]&(1<<(id%64)) != 0
}

func (s idSet) holdsAny(ids []uint32) bool {
	for _, id := range ids {
		if s.has(id) {
			return true
		}
	}
	return false
}

// appendRow appends row i of from to c.
func appendRow(c, from *carriers, i int) {
	c.ids = append(c.ids, from.ids[i])
	c.reported = append(c.reported, from.reported[i])
	c.price = append(c.price, from.price[i])
	c.qty = append(c.qty, from.qty[i])
	c.avail = append(c.avail, from.avail[i])
}

// arrange returns c's rows as a new carriers in the order that type
// describes, with its boxes. Rows already in that order (a snapshot's, see
// stocksnap.go) are shared with c, not copied: neither is ever written.
// The caller holds ix's lock.
func (ix *Index) arrange(c *carriers) *carriers {
	type keyed struct {
		key      uint64 // the Hilbert key of the store's point; all ones: not in the index
		id       uint32
		row      uint32
		lat, lon float32
	}
	ks := make([]keyed, len(c.ids))
	placed := 0
	for i, id := range c.ids {
		ks[i] = keyed{key: ^uint64(0), id: id, row: uint32(i)}
		if lat, lon, _, ok := ix.pointOf(id); ok {
			ks[i].key, ks[i].lat, ks[i].lon = HilbertKey(float64(lat), float64(lon)), lat, lon
			placed++
		}
	}
	order := func(a, b keyed) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.id, b.id)) }
	out := &carriers{ids: c.ids, reported: c.reported, price: c.price, qty: c.qty, avail: c.avail, placed: placed}
	if !slices.IsSortedFunc(ks, order) {
		slices.SortFunc(ks, order)
		n := len(ks)
		out = &carriers{ids: make([]uint32, 0, n), reported: make([]uint32, 0, n), price: make([]uint32, 0, n),
			qty: make([]uint16, 0, n), avail: make([]uint8, 0, n), placed: placed}
		for _, k := range ks {
			appendRow(out, c, int(k.row))
		}
	}
	start, levels := out.boxLevels()
	if levels == 0 {
		return out
	}
	out.boxes = make([]pbox, start[levels])
	for b := range start[1] {
		x := pointBox(ks[b*leafRows].lat, ks[b*leafRows].lon)
		for i := b*leafRows + 1; i < min((b+1)*leafRows, placed); i++ {
			x.add(ks[i].lat, ks[i].lon)
		}
		out.boxes[b] = x
	}
	out.unionLevels()
	return out
}

// unionLevels fills the levels of c.boxes above the leaves (level 0, set).
func (c *carriers) unionLevels() {
	start, levels := c.boxLevels()
	for l, ends := 1, start[:levels+1]; l+1 < len(ends); l++ {
		below, level := c.boxes[ends[l-1]:ends[l]], c.boxes[ends[l]:ends[l+1]]
		for b := range level {
			level[b] = unionBoxes(below[b*fan : min((b+1)*fan, len(below))])
		}
	}
}

// stillArranged reports whether c, arranged against the stores' points as
// they were when a snapshot was written, is still in the order arrange
// gives for the index's points now, given the stores that may have
// changed since (changed): each of their rows is where its store's
// presence puts it (placed or not), between its neighbours by (Hilbert
// key, id) and inside its leaf's box. The other rows' stores are where
// they were, so their order and boxes hold as written. The boxes may be
// looser than arrange's (a store that moved within its box), never
// wrong. The caller holds ix's lock.
func (ix *Index) stillArranged(c *carriers, changed idSet) bool {
	type key struct {
		k  uint64
		id uint32
	}
	keyAt := func(i int) (key, bool) {
		lat, lon, _, ok := ix.pointOf(c.ids[i])
		return key{HilbertKey(float64(lat), float64(lon)), c.ids[i]}, ok
	}
	less := func(a, b key) bool { return a.k < b.k || (a.k == b.k && a.id < b.id) }
	for i, id := range c.ids {
		if !changed.has(id) {
			continue
		}
		k, ok := keyAt(i)
		if ok != (i < c.placed) {
			return false // in the index now and not then, or the other way
		}
		if !ok {
			continue // still outside: those rows are by id, which did not change
		}
		if i > 0 {
			if p, _ := keyAt(i - 1); !less(p, k) {
				return false
			}
		}
		if i+1 < c.placed {
			if n, _ := keyAt(i + 1); !less(k, n) {
				return false
			}
		}
		if len(c.boxes) > 0 {
			lat, lon, _, _ := ix.pointOf(id)
			if b := &c.boxes[i/leafRows]; lat < b.minLat || lat > b.maxLat || lon < b.minLon || lon > b.maxLon {
				return false
			}
		}
	}
	return true
}

// unionBoxes is the box around bs (at least one).
func unionBoxes(bs []pbox) pbox {
	b := bs[0]
	for _, d := range bs[1:] {
		b.minLon, b.maxLon = min(b.minLon, d.minLon), max(b.maxLon, d.maxLon)
		b.minLat, b.maxLat = min(b.minLat, d.minLat), max(b.maxLat, d.maxLat)
	}
	return b
}

// Bytes is the memory of the stock rows: what SLB-1 reports per row.
func (p *Products) Bytes() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	n := 0
	for _, c := range p.stock {
		n += 48 + 5*24 + 8 + 24 + cap(c.ids)*4 + cap(c.reported)*4 + cap(c.price)*4 + cap(c.qty)*2 + cap(c.avail) + cap(c.boxes)*16
	}
	return n + len(p.prices)*12
}

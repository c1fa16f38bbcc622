// Package search answers nearest-store searches from memory on every
// replica: the index (Index: Apply, BulkLoad, Nearest, AppendJSON), its
// packed Hilbert R-tree and the geo maths of the walk, the query and its
// parser, and the Syncer that keeps the index equal to the published
// stores by following the store repository's change feed, with snapshots
// for fast starts. It reads stores and never writes one (see
// docs/architecture.md, "The search version").
package search

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/rules"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// Index answers nearest-store searches from memory. It holds the published
// stores only: their points in a packed R-tree (float32, ~13 B a store, see
// ptree), exact float64 coordinates for distances, and each store's
// pre-rendered JSON. Safe for concurrent use; writes (store changes) are rare.
type Index struct {
	mu    sync.RWMutex
	tree  ptree
	recs  []record         // slot -> record; a removed store leaves a dead slot
	slots map[int64]uint32 // store id -> slot
	free  []uint32         // dead slots to reuse
	arena arena
	zones map[string]*time.Location
	sched map[string]*schedule.Schedule // interned: most stores share a few patterns (and the live fields cached on each, see AppendJSON)
	// The rulebook's sets of rules (rules.go), numbered: a record holds its number.
	ruleSets []*rules.Set
	ruleAt   map[*rules.Set]uint16
	// While deferTree is set (a bulk load under one lock), new slots wait
	// in pending and enter the tree together: into an empty index as a
	// freshly packed tree, otherwise as one batch of additions.
	deferTree bool
	pending   []uint32
	// gen counts the changes: the store pages' directory (pages.go) is
	// cached per generation.
	gen   uint64
	dirMu sync.Mutex // held by the one directory build at a time
	dir   atomic.Pointer[Directory]
	// prod is the product side: stock per product, the catalogue, the
	// state directories (stock.go).
	prod     *Products
	bruteMax int
	// pos is each store's position and tree item (its slot and filter
	// flags, treeItem) by store id (NaN latitude: not in the index), for
	// ids below maxDenseID: a product search that looks at a product's
	// stores (product.go) drops those far from the searched point or
	// missing a filter without a map look-up or a record read, and finds
	// the others' records without the map. 16 bytes a store id.
	pos []pos32
	// areas numbers the lawAreas of the stores (pos32.area), so that a
	// product search can pass over a row whose store may not sell the
	// product before it reads the store's record (productHits).
	areas  []lawArea
	areaAt map[lawArea]uint16
	// moved lists the stores whose point or presence changed under the
	// write lock held now: the product side re-arranges their products
	// before it is released (relocateMoved).
	moved []int64
}

// lawArea is what the law on a product at a store depends on when no
// state's product directory applies to the product: the store's rule set
// and its time zone (which day the rules are judged on).
type lawArea struct {
	rules uint16
	loc   *time.Location
}

// noArea marks a store id without a lawArea (or beyond the table's room).
const noArea = math.MaxUint16

// areaNumber is r's lawArea's number in areas, numbering it first if it
// is new (noArea once the table is full). The caller holds the write lock.
func (ix *Index) areaNumber(r *record) uint16 {
	k := lawArea{r.rules, r.loc}
	if n, ok := ix.areaAt[k]; ok {
		return n
	}
	if len(ix.areas) >= noArea {
		return noArea
	}
	if ix.areaAt == nil {
		ix.areaAt = map[lawArea]uint16{}
	}
	n := uint16(len(ix.areas))
	ix.areas = append(ix.areas, k)
	ix.areaAt[k] = n
	return n
}

// areaOf is store id's number in areas, or noArea. The caller holds the lock.
func (ix *Index) areaOf(id uint32) uint16 {
	if int(id) < len(ix.pos) {
		return ix.pos[id].area
	}
	return noArea
}

type pos32 struct {
	lat, lon float32
	item     uint32 // treeItem: the slot and the store's filter flags
	// area is the store's lawArea in areas (areaNumber), beside its point so
	// that the product search reads both with one cache line.
	area uint16
}

// maxDenseID bounds pos: stores of larger ids are found through slots.
const maxDenseID = 1 << 24

// pointOf returns the float32 point and tree item (the slot and filter
// flags, treeItem; the slot is item&slotMask) of store id when it is in
// the index. The caller holds the lock.
func (ix *Index) pointOf(id uint32) (lat, lon float32, item uint32, ok bool) {
	if int(id) < len(ix.pos) {
		p := ix.pos[id]
		return p.lat, p.lon, p.item, p.lat == p.lat // NaN: not in the index
	}
	if id < maxDenseID {
		return 0, 0, 0, false
	}
	slot, ok := ix.slots[int64(id)]
	if !ok {
		return 0, 0, 0, false
	}
	r := &ix.recs[slot]
	return float32(r.lat), float32(r.lon), treeItem(slot, r.flags), true
}

// relocateMoved hands the stores that moved to the product side. The
// caller holds the write lock (a deferred call before the unlock).
func (ix *Index) relocateMoved() {
	if len(ix.moved) == 0 {
		return
	}
	ix.prod.relocate(ix.moved)
	ix.moved = ix.moved[:0]
}

func (ix *Index) setPos(id int64, lat, lon float64, item uint32, area uint16) {
	if id < 0 || id >= maxDenseID {
		return
	}
	for int64(len(ix.pos)) <= id {
		ix.pos = append(ix.pos, pos32{lat: float32(math.NaN()), area: noArea})
	}
	ix.pos[id] = pos32{float32(lat), float32(lon), item, area}
}

type record struct {
	id       int64
	lat, lon float64
	doc      []byte // JSON object without its closing brace, or its list part (flagPlainDetail): appendDoc
	sched    *schedule.Schedule
	loc      *time.Location
	updated  int64 // the store's last change, Unix seconds (store pages, sitemaps)
	flags    uint8
	live     bool
	rules    uint16 // its rules.Set in ruleSets (rules.go)
	listEnd  uint32 // doc[:listEnd] is its list part (stores.ListEnd); in the padding, the record stays 80 bytes
}

const (
	flagDelivery uint8 = 1 << iota
	flagOrderOnline
	flagCurbside
	flagLicensed // an active licence (stores.LicenceVerified): the is_licence_verified filter
	flagDemoted  // expired, revoked or under a No-Tobacco-Sale Order: ranked after the others (rank.go); not in the tree
	// flagPlainDetail: the document's detail part is plainDetail, which
	// doc leaves out (appendDoc puts it back); not in the tree.
	flagPlainDetail
	treeFlags = flagDelivery | flagOrderOnline | flagCurbside | flagLicensed
)

// plainDetail is the detail part (stores.ListEnd) of a store with none of
// its fields set: not adult-only, no website, never verified, no licence
// record, no enforcement. Most stores have it, and the list answer never
// sends it, so the index keeps it once instead of once per store (~75 B
// each: 1,350 -> ~1,275 B of RSS per store at SLB-1 M, docs/performance-history.md "Series H").
var plainDetail = func() []byte {
	doc, err := stores.RenderDoc(&stores.Store{})
	if err != nil {
		panic(err)
	}
	doc = doc[:len(doc)-1] // without its closing brace, as the index keeps documents
	return doc[stores.ListEnd(doc):]
}()

// appendDoc appends r's whole document (without its closing brace) to dst.
func appendDoc(dst []byte, r *record) []byte {
	dst = append(dst, r.doc...)
	if r.flags&flagPlainDetail != 0 {
		dst = append(dst, plainDetail...)
	}
	return dst
}

// offered is the record's flags as the services the store offers.
func (r *record) offered() schedule.Offered {
	return schedule.OfferedOf(r.flags&flagDelivery != 0, r.flags&flagCurbside != 0, r.flags&flagOrderOnline != 0)
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	ix := &Index{
		slots:    make(map[int64]uint32),
		zones:    make(map[string]*time.Location),
		sched:    make(map[string]*schedule.Schedule),
		bruteMax: -1, // bruteMaxOf's estimate
	}
	ix.prod = newProducts(ix)
	return ix
}

// Len is the number of stores in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.slots)
}

// TreeBytes is the memory of the spatial tree alone (SLB-1 reports it, see
// docs/performance.md).
func (ix *Index) TreeBytes() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.tree.bytes()
}

// Put adds or replaces a store.
func (ix *Index) Put(e stores.Entry) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.relocateMoved()
	ix.put(e)
}

// PutAll adds or replaces many stores under one lock (start-up, sync).
func (ix *Index) PutAll(es []stores.Entry) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.relocateMoved()
	ix.deferTree = true
	ix.reserve(len(es))
	for i := range es {
		ix.put(es[i])
	}
	ix.flushPending()
}

// Apply applies a batch of changes from the store repository's change feed
// (stores.Repo.ScanChanges): published stores are added or replaced, the
// others removed. The batch enters the tree at once (one rebuild at most),
// unless a bulk load already defers the tree to its end. The index keeps
// copies: the batch may be reused afterwards.
func (ix *Index) Apply(cs []stores.Change) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.relocateMoved()
	if !ix.deferTree {
		ix.deferTree = true
		defer ix.flushPending()
	}
	for i := range cs {
		if cs[i].Published {
			ix.put(cs[i].Entry)
		} else {
			ix.removeMoved(cs[i].ID)
		}
	}
}

// Bulk is a bulk load in progress (see BulkLoad).
type Bulk struct{ ix *Index }

// BulkLoad fills the index with the changes fill applies through b, from
// any number of goroutines. The stores enter the tree once, at the end, in
// Hilbert order: into an empty index as a freshly packed tree with the
// records and documents laid out in the same order (see flushPending).
// Searches may run meanwhile; the loaded stores show once it ends.
func (ix *Index) BulkLoad(fill func(b *Bulk) error) error {
	ix.mu.Lock()
	ix.deferTree = true
	ix.mu.Unlock()
	err := fill(&Bulk{ix})
	ix.mu.Lock()
	ix.flushPending()
	ix.mu.Unlock()
	return err
}

// Reserve makes room for n more stores, when the load knows its size.
func (b *Bulk) Reserve(n int) {
	b.ix.mu.Lock()
	defer b.ix.mu.Unlock()
	b.ix.reserve(n)
}

// Apply applies a batch of changes, as Index.Apply does.
func (b *Bulk) Apply(cs []stores.Change) { b.ix.Apply(cs) }

// reserve makes room for n more stores (a bulk load that knows its size),
// sparing the records and the id map their repeated doubling.
func (ix *Index) reserve(n int) {
	if n <= 0 {
		return
	}
	if len(ix.slots) == 0 {
		ix.slots = make(map[int64]uint32, n)
	}
	ix.recs = slices.Grow(ix.recs, n)
	ix.pending = slices.Grow(ix.pending, n)
}

// flushPending inserts the deferred slots into the tree in Hilbert order
// and ends deferring. The caller holds the write lock.
//
// When the tree was empty (a bulk load into an empty index), the records
// are renumbered and the documents re-packed in the same Hilbert order
// first (see repack), so the records and documents of one answer sit close
// together in memory instead of scattered over the whole arena.
func (ix *Index) flushPending() {
	ix.deferTree = false
	ks := make([]hilbertKey, 0, len(ix.pending))
	for _, slot := range ix.pending {
		if r := &ix.recs[slot]; r.live {
			ks = append(ks, hilbertKey{pkey(ix.pitem(slot)), slot})
		}
	}
	ix.pending = nil
	// By key then slot, so that a slot listed twice (removed and reused
	// while deferred) sits next to itself even among stores of the same
	// curve cell.
	slices.SortFunc(ks, func(a, b hilbertKey) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.slot, b.slot)
	})
	ks = slices.CompactFunc(ks, func(a, b hilbertKey) bool { return a.slot == b.slot })
	// With an empty tree every live slot is in ks: the index can be laid
	// out afresh.
	fresh := ix.tree.len() == 0
	if fresh {
		ix.repack(ks)
	}
	pts := make([]pitem, len(ks))
	for i, k := range ks {
		pts[i] = ix.pitem(k.slot)
	}
	if fresh {
		ix.tree.build(pts, true) // ks is in key order
	} else {
		ix.tree.insert(pts...)
	}
}

// pitem is the tree's entry for a slot.
func (ix *Index) pitem(slot uint32) pitem {
	r := &ix.recs[slot]
	return newPitem(r.lat, r.lon, treeItem(slot, r.flags))
}

type hilbertKey struct {
	key  uint64
	slot uint32
}

// repackBuckets is how many Hilbert ranges repack sorts the documents into
// on its first pass: the extra memory it holds at any time is about one
// range's share of the documents (see repack).
const repackBuckets = 16

// repack renumbers the records in the order of ks (every live slot, in
// Hilbert order) and copies the documents into a new arena in that order;
// ks is rewritten with the new slots. The caller holds the write lock and
// inserts ks into an empty tree afterwards.
//
// Copying the documents straight into curve order would hold two full
// copies at the end (the old arena is freed only when its last document
// has moved, and curve order visits the old chunks at random). So it takes
// two passes: the first reads the old arena in its own order and sorts each
// document into one of repackBuckets arenas by its curve range, so each old
// chunk becomes garbage as soon as it has been read; the second copies the
// buckets one after the other, in curve order, into the final arena, each
// bucket becoming garbage when done. The collector reclaims the chunks as
// it goes: the peak is about the documents once plus a bucket, plus GC
// headroom.
func (ix *Index) repack(ks []hilbertKey) {
	n := len(ks)
	if n == 0 {
		ix.recs, ix.free = ix.recs[:0], nil
		return
	}
	bucket := make([]uint8, len(ix.recs)) // old slot -> curve range
	for i, k := range ks {
		bucket[k.slot] = uint8(i * repackBuckets / n)
	}
	ix.arena = arena{} // drop the old arena's last chunk
	var tmp [repackBuckets]arena
	for slot := range ix.recs { // slot order is about the old arena's order
		if r := &ix.recs[slot]; r.live {
			r.doc = tmp[bucket[slot]].copy(r.doc)
		}
	}
	recs := make([]record, n, max(n, cap(ix.recs)))
	for i, k := range ks {
		if b := i * repackBuckets / n; i > 0 && b != (i-1)*repackBuckets/n {
			tmp[b-1] = arena{} // the bucket before is done
		}
		old := &ix.recs[k.slot]
		recs[i] = *old
		recs[i].doc = ix.arena.copy(old.doc)
		*old = record{}
		ix.slots[recs[i].id] = uint32(i)
		if id := recs[i].id; id >= 0 && id < int64(len(ix.pos)) {
			ix.pos[id].item = treeItem(uint32(i), recs[i].flags)
		}
		ks[i].slot = uint32(i)
	}
	ix.recs, ix.free = recs, nil
}

// HilbertKey is the position of a point along a Hilbert curve of order 16
// over the whole globe (cells of ~0.0055 degrees): fine enough to order
// stores for the tree.
func HilbertKey(lat, lon float64) uint64 {
	const side = 1<<16 - 1
	x := uint32((lon + 180) / 360 * side)
	y := uint32((lat + 90) / 180 * side)
	var d uint64
	for s := uint32(1 << 15); s > 0; s /= 2 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		d += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		if ry == 0 {
			if rx == 1 {
				x, y = s-1-x, s-1-y
			}
			x, y = y, x
		}
	}
	return d
}

// Remove drops a store (hidden, pending, deleted); unknown ids are ignored.
func (ix *Index) Remove(id int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.relocateMoved()
	ix.removeMoved(id)
}

// removeMoved is remove that notes the store as moved when it was in the
// index.
func (ix *Index) removeMoved(id int64) {
	if _, ok := ix.slots[id]; ok {
		ix.moved = append(ix.moved, id)
	}
	ix.remove(id)
}

func (ix *Index) remove(id int64) {
	slot, ok := ix.slots[id]
	if !ok {
		return
	}
	ix.tree.delete(ix.pitem(slot))
	ix.gen++
	if id < int64(len(ix.pos)) {
		ix.pos[id].lat = float32(math.NaN())
	}
	ix.recs[slot] = record{}
	delete(ix.slots, id)
	ix.free = append(ix.free, slot)
}

func (ix *Index) put(e stores.Entry) {
	if e.ID >= 0 && e.ID <= 1<<32-1 {
		lat, lon, _, ok := ix.pointOf(uint32(e.ID))
		if !ok || lat != float32(e.Latitude) || lon != float32(e.Longitude) {
			ix.moved = append(ix.moved, e.ID)
		}
	}
	ix.remove(e.ID)
	var flags uint8
	if e.Delivery {
		flags |= flagDelivery
	}
	if e.OrderOnline {
		flags |= flagOrderOnline
	}
	if e.Curbside {
		flags |= flagCurbside
	}
	if e.Licence&stores.LicenceVerified != 0 {
		flags |= flagLicensed
	}
	if e.Licence&stores.LicenceDemoted != 0 {
		flags |= flagDemoted
	}
	doc := e.Doc
	if n := len(doc); n > 0 && doc[n-1] == '}' {
		doc = doc[:n-1]
	}
	set, listEnd := docLayout(doc, false)
	if int(listEnd) < len(doc) && bytes.Equal(doc[listEnd:], plainDetail) {
		doc = doc[:listEnd]
		flags |= flagPlainDetail
	}
	rec := record{
		id: e.ID, lat: e.Latitude, lon: e.Longitude,
		doc:     ix.arena.copy(doc),
		sched:   ix.schedule(e.Schedule),
		loc:     ix.zone(e.TimeZone),
		updated: unixOrZero(e.UpdatedAt),
		flags:   flags,
		live:    true,
		rules:   ix.internRules(set),
		listEnd: listEnd,
	}
	ix.gen++
	var slot uint32
	if n := len(ix.free); n > 0 {
		slot = ix.free[n-1]
		ix.free = ix.free[:n-1]
		ix.recs[slot] = rec
	} else {
		slot = uint32(len(ix.recs))
		if slot >= deadItem {
			panic("search: index is full (268M slots)")
		}
		ix.recs = append(ix.recs, rec)
	}
	ix.slots[e.ID] = slot
	ix.setPos(e.ID, e.Latitude, e.Longitude, treeItem(slot, flags), ix.areaNumber(&rec))
	if ix.deferTree {
		ix.pending = append(ix.pending, slot)
		return
	}
	ix.tree.insert(ix.pitem(slot))
}

// unixOrZero is t in Unix seconds, 0 for the zero time (unknown).
func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// The tree's item is the slot with the store's flags in its top bits, so the
// search skips stores that miss a filter without reading their record (a
// cache miss each on a large index).
const (
	flagShift = 28
	slotMask  = 1<<flagShift - 1
)

func treeItem(slot uint32, flags uint8) uint32 { return slot | uint32(flags&treeFlags)<<flagShift }

func (ix *Index) zone(name string) *time.Location {
	if loc, ok := ix.zones[name]; ok {
		return loc
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = time.UTC // validated on write; a zone removed from tzdata later degrades to UTC
	}
	ix.zones[name] = loc
	return loc
}

func (ix *Index) schedule(enc string) *schedule.Schedule {
	if s, ok := ix.sched[enc]; ok {
		return s
	}
	s := schedule.ParseSchedule(enc)
	ix.sched[enc] = s
	return s
}

// arena packs documents into large chunks: a million 1 KB documents cost a
// few hundred allocations instead of a million, and little slack.
type arena struct{ chunk []byte }

const arenaChunk = 4 << 20

func (a *arena) copy(b []byte) []byte {
	if len(b) > arenaChunk/8 {
		return append([]byte(nil), b...)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = make([]byte, 0, arenaChunk)
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}

package search

import (
	"cmp"
	"slices"
	"sort"
	"sync"
)

// ptree is the spatial part of the Index: an R-tree packed once, in
// Hilbert order, from flat arrays, plus a short list of stores added
// since (extra), which every search scans.
//
// It replaced a dynamic R-tree (tidwall/rtree): the stores change rarely
// and in batches (approvals, imports), and a packed tree is smaller
// (~13 instead of ~30 bytes a store), walks 16-wide nodes whose entries
// sit next to each other in memory, and lets the walk drop entries beyond
// the radius or missing a filter instead of queueing them. A removed store
// stays in its leaf, marked dead, until the next rebuild; additions wait
// in extra. When either grows past its bound, the tree is rebuilt by
// merging (O(n), a few milliseconds per million stores, no sort of the
// whole set).
type ptree struct {
	pts    []pitem  // in pkey order; leaf i holds pts[i*fan : (i+1)*fan]
	levels [][]pbox // levels[0]: one box per leaf; levels[l]: one per fan boxes of l-1; the last holds the root
	extra  []pitem  // added since the build, in no order
	dead   int      // dead items in pts
}

// pitem is one store in the tree: its float32 point and its tree item
// (slot and flags, see treeItem).
type pitem struct {
	lon, lat float32
	item     uint32
}

// newPitem is the tree entry of a store at lat, lon (float64 degrees).
func newPitem(lat, lon float64, item uint32) pitem {
	return pitem{lon: float32(lon), lat: float32(lat), item: item}
}

type pbox struct{ minLon, minLat, maxLon, maxLat float32 }

// pointBox is the box of one point.
func pointBox(lat, lon float32) pbox { return pbox{lon, lat, lon, lat} }

// add grows b to hold a point.
func (b *pbox) add(lat, lon float32) {
	b.minLon, b.maxLon = min(b.minLon, lon), max(b.maxLon, lon)
	b.minLat, b.maxLat = min(b.minLat, lat), max(b.maxLat, lat)
}

const (
	fan = 16
	// deadItem marks a removed store in pts: its slot bits are all ones, a
	// slot put never hands out.
	deadItem = slotMask
	// maxExtra bounds the additions scanned by every search (~1 us).
	maxExtra = 512
)

func isDead(item uint32) bool { return item&slotMask == deadItem }

// pkey orders the tree: the Hilbert key of the float32 point, so that an
// item can be found again from its point alone.
func pkey(p pitem) uint64 { return HilbertKey(float64(p.lat), float64(p.lon)) }

// sortByKey sorts items by pkey, computing each key once.
func sortByKey(items []pitem) {
	type keyed struct {
		key uint64
		p   pitem
	}
	ks := make([]keyed, len(items))
	for i, p := range items {
		ks[i] = keyed{pkey(p), p}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	for i := range ks {
		items[i] = ks[i].p
	}
}

// sortedByKey reports whether items are in pkey order.
func sortedByKey(items []pitem) bool {
	var prev uint64
	for i, p := range items {
		k := pkey(p)
		if i > 0 && k < prev {
			return false
		}
		prev = k
	}
	return true
}

// len is the number of live stores in the tree.
func (t *ptree) len() int { return len(t.pts) - t.dead + len(t.extra) }

// build makes the tree from pts (taken over) in pkey order and empties
// extra. Unless sorted says pts is in that order, it is checked (~40 ns
// an item) and sorted if need be.
func (t *ptree) build(pts []pitem, sorted bool) {
	if !sorted && !sortedByKey(pts) {
		sortByKey(pts)
	}
	t.pts, t.extra, t.dead, t.levels = pts, nil, 0, nil
	if len(pts) == 0 {
		return
	}
	level := make([]pbox, (len(pts)+fan-1)/fan)
	for i := range level {
		p := pts[i*fan : min((i+1)*fan, len(pts))]
		b := pointBox(p[0].lat, p[0].lon)
		for _, q := range p[1:] {
			b.add(q.lat, q.lon)
		}
		level[i] = b
	}
	t.levels = append(t.levels, level)
	for len(level) > 1 {
		up := make([]pbox, (len(level)+fan-1)/fan)
		for i := range up {
			up[i] = unionBoxes(level[i*fan : min((i+1)*fan, len(level))])
		}
		t.levels = append(t.levels, up)
		level = up
	}
}

// insert adds items; the tree is rebuilt when extra outgrows maxExtra.
func (t *ptree) insert(items ...pitem) {
	t.extra = append(t.extra, items...)
	if len(t.extra) > maxExtra {
		t.rebuild()
	}
}

// delete removes the item p (its point and item as inserted); unknown
// items are ignored.
func (t *ptree) delete(p pitem) {
	for i := range t.extra {
		if t.extra[i] == p {
			last := len(t.extra) - 1
			t.extra[i] = t.extra[last]
			t.extra = t.extra[:last]
			return
		}
	}
	k := pkey(p)
	i := sort.Search(len(t.pts), func(i int) bool { return pkey(t.pts[i]) >= k })
	for ; i < len(t.pts) && pkey(t.pts[i]) == k; i++ {
		if t.pts[i] == p {
			t.pts[i].item = deadItem
			t.dead++
			if t.dead > 1024 && t.dead > len(t.pts)/8 {
				t.rebuild()
			}
			return
		}
	}
}

// rebuild merges extra into pts, drops the dead items and packs the tree
// again. Each addition finds its place by binary search, so the keys of
// the packed items are not recomputed: a few milliseconds at 1M stores,
// under the index's write lock.
func (t *ptree) rebuild() {
	extra := slices.Clone(t.extra)
	sortByKey(extra)
	pts := make([]pitem, 0, len(t.pts)-t.dead+len(extra))
	live := func(ps []pitem) {
		for _, p := range ps {
			if !isDead(p.item) {
				pts = append(pts, p)
			}
		}
	}
	i := 0
	for _, e := range extra {
		k := pkey(e)
		j := i + sort.Search(len(t.pts)-i, func(n int) bool { return pkey(t.pts[i+n]) > k })
		live(t.pts[i:j])
		pts = append(pts, e)
		i = j
	}
	live(t.pts[i:])
	t.build(pts, true)
}

// bytes is the memory the tree holds.
func (t *ptree) bytes() int {
	n := cap(t.pts)*12 + cap(t.extra)*12
	for _, l := range t.levels {
		n += cap(l) * 16
	}
	return n
}

// walkEntry is a queued node (level >= 0: box idx of levels[level]) or
// item (level < 0: idx is the item) with its haversine-term lower bound.
type walkEntry struct {
	a     float64
	idx   uint32
	level int32
}

// walkHeap is a binary min-heap of walk entries by their lower bound (a
// product search's walk, walkCarriers; ptree.walk keeps its own inline).
type walkHeap []walkEntry

func (h *walkHeap) push(e walkEntry) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].a <= e.a {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
}

func (h *walkHeap) pop() walkEntry {
	s := *h
	e := s[0]
	last := s[len(s)-1]
	s = s[:len(s)-1]
	*h = s
	n := len(s)
	if n == 0 {
		return e
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1].a < s[c].a {
			c++
		}
		if last.a <= s[c].a {
			break
		}
		s[i] = s[c]
		i = c
	}
	s[i] = last
	return e
}

var walkPool = sync.Pool{New: func() any { q := make([]walkEntry, 0, 256); return &q }}

// walkQuery is what walk needs of a search (see Index.visit).
type walkQuery struct {
	latDeg, lonDeg float64 // the query point in degrees
	lat, lon       float64 // and in radians
	cos, sin       float64 // of its latitude
	maxA           float64 // haversine term beyond which nothing is wanted
	want           uint32  // flag bits every item must carry (see treeItem)
}

// walk calls emit with every live item carrying the wanted flags whose
// float32 point's haversine term is at most q.maxA, in increasing order
// of that term, until emit returns false. Best first: a binary heap of
// nodes and items by lower bound; entries beyond maxA are never queued.
func (t *ptree) walk(q *walkQuery, emit func(item uint32, a float64) bool) {
	hp := walkPool.Get().(*[]walkEntry)
	h := (*hp)[:0]
	defer func() {
		if cap(h) <= 1<<16 {
			*hp = h[:0]
			walkPool.Put(hp)
		}
	}()
	// The heap inline, not walkHeap's methods: pop does not inline, and
	// this walk pops hundreds of entries a search.
	push := func(e walkEntry) {
		h = append(h, e)
		i := len(h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if h[p].a <= e.a {
				break
			}
			h[i] = h[p]
			i = p
		}
		h[i] = e
	}
	item := func(p *pitem) {
		if p.item&q.want != q.want || isDead(p.item) {
			return
		}
		if a := pointA(q.lat, q.lon, q.cos, q.sin, p.lat, p.lon); a <= q.maxA {
			push(walkEntry{a, p.item, -1})
		}
	}
	box := func(b *pbox, idx uint32, level int32) {
		if a := boxLowerA(q.latDeg, q.lonDeg, q.cos, b.minLat, b.minLon, b.maxLat, b.maxLon); a <= q.maxA {
			push(walkEntry{a, idx, level})
		}
	}
	if top := len(t.levels) - 1; top >= 0 {
		box(&t.levels[top][0], 0, int32(top))
	}
	for i := range t.extra {
		item(&t.extra[i])
	}
	for len(h) > 0 {
		e := h[0]
		// Pop: move the last entry down from the root.
		last := h[len(h)-1]
		h = h[:len(h)-1]
		if n := len(h); n > 0 {
			i := 0
			for {
				c := 2*i + 1
				if c >= n {
					break
				}
				if c+1 < n && h[c+1].a < h[c].a {
					c++
				}
				if last.a <= h[c].a {
					break
				}
				h[i] = h[c]
				i = c
			}
			h[i] = last
		}
		switch {
		case e.level < 0:
			if !emit(e.idx, e.a) {
				return
			}
		case e.level == 0:
			lo := int(e.idx) * fan
			for j := lo; j < min(lo+fan, len(t.pts)); j++ {
				item(&t.pts[j])
			}
		default:
			level := e.level - 1
			boxes := t.levels[level]
			lo := int(e.idx) * fan
			for j := lo; j < min(lo+fan, len(boxes)); j++ {
				box(&boxes[j], uint32(j), level)
			}
		}
	}
}

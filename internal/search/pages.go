package search

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"slices"
	"time"

	"locator/internal/rules"
	"locator/internal/schedule"
	"locator/internal/slug"
)

// Read APIs for the server-rendered store pages (internal/storepages): one
// store by id, its nearest neighbours, the directory of states, cities and
// stores, and walks over it for the sitemaps. They read what search already
// holds, so a page costs no database query and changes on every replica
// with the search version. No HTML here.

// StoreDoc is one published store as the index holds it.
type StoreDoc struct {
	ID                  int64
	Doc                 []byte // the complete JSON object (stores.RenderDoc); see Get and Docs
	UpdatedAt           time.Time
	Latitude, Longitude float64
	Zone                *time.Location
	Schedule            *schedule.Schedule
	Rules               *rules.Set // the rulebook's rules of its place and kind (rules.go)
}

func (ix *Index) storeDoc(r *record, doc []byte) StoreDoc {
	var updated time.Time // zero: unknown (an entry built without it)
	if r.updated != 0 {
		updated = time.Unix(r.updated, 0).UTC()
	}
	return StoreDoc{ID: r.id, Doc: doc, UpdatedAt: updated,
		Latitude: r.lat, Longitude: r.lon, Zone: r.loc, Schedule: r.sched, Rules: ix.rulesOf(r)}
}

// Get returns published store id, its document copied (the caller may keep it).
func (ix *Index) Get(id int64) (StoreDoc, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	slot, ok := ix.slots[id]
	if !ok {
		return StoreDoc{}, false
	}
	r := &ix.recs[slot]
	doc := appendDoc(make([]byte, 0, len(r.doc)+len(plainDetail)+1), r)
	return ix.storeDoc(r, append(doc, '}')), true
}

// LiveDoc returns published store id as the API's store object at now (the
// document with its live fields, schedule.FinishDoc, as the database's
// stores.Repo.PublishedDoc gives it): the store card's answer while the
// database cannot be reached. A permanently closed store, which search
// does not hold, is not found here.
func (ix *Index) LiveDoc(id int64, now time.Time) ([]byte, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	slot, ok := ix.slots[id]
	if !ok {
		return nil, false
	}
	r := &ix.recs[slot]
	doc := appendDoc(make([]byte, 0, len(r.doc)+len(plainDetail)+1), r)
	return schedule.FinishDoc(nil, append(doc, '}'), r.sched, now, r.loc, r.offered()), true
}

// Docs calls fn with each of ids that is published, in order, under one
// read lock; the StoreDoc's Doc is the whole document without its closing
// brace (DocString reads it): the index's own bytes, or a copy made whole
// (flagPlainDetail), valid only during fn. Keep batches short (a few
// thousand): a writer waits for the lock meanwhile.
func (ix *Index) Docs(ids []int64, fn func(d StoreDoc)) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var whole []byte // a document whose detail part the index keeps once
	for _, id := range ids {
		if slot, ok := ix.slots[id]; ok {
			r := &ix.recs[slot]
			doc := r.doc
			if r.flags&flagPlainDetail != 0 {
				whole = appendDoc(whole[:0], r)
				doc = whole
			}
			fn(ix.storeDoc(r, doc))
		}
	}
}

// Nearby returns the n published stores nearest to store id (itself
// excluded) within MaxRadiusMile, nearest first.
func (ix *Index) Nearby(id int64, n int) []Hit {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	slot, ok := ix.slots[id]
	if !ok || n <= 0 {
		return nil
	}
	r := &ix.recs[slot]
	q := Query{Latitude: r.lat, Longitude: r.lon, RadiusMiles: MaxRadiusMile, Limit: n + 1}
	var hits []Hit
	ix.visit(&q, func(h *record, miles float64) bool {
		if h.id != id {
			hits = append(hits, Hit{ID: h.id, Miles: miles})
		}
		return len(hits) < n
	})
	return hits
}

// NearPoint lists the n stores nearest to a point, nearest first: the
// neighbours of a store the index does not hold (a permanently closed
// one's page).
func (ix *Index) NearPoint(lat, lon float64, n int) []Hit {
	if n <= 0 {
		return nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	q := Query{Latitude: lat, Longitude: lon, RadiusMiles: MaxRadiusMile, Limit: n}
	var hits []Hit
	ix.visit(&q, func(h *record, miles float64) bool {
		hits = append(hits, Hit{ID: h.id, Miles: miles})
		return len(hits) < n
	})
	return hits
}

// Gen changes whenever the index does.
func (ix *Index) Gen() uint64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.gen
}

// Directory is every published store by state and city, as the store
// pages' directories and sitemaps walk them: states by slug, their cities
// by slug, each city's stores by name slug then id. States and cities are
// grouped by slug (slug.Make of the store's state and city; "other" when
// empty), so "NY" and "ny" are one state. It is built from the index at
// one generation and never changes; Index.Directory caches one.
type Directory struct {
	Gen    uint64
	States []DirState
	Total  int
	// Per store, in the directory's order: its name's slug (back to back
	// in slugs, the i-th ending at slugEnd[i]) and last change (Unix
	// seconds, 0 unknown). Kept from the build, which computes the slugs to
	// sort anyway, so a sitemap of a million stores reads no store
	// document: ~30 B a store (docs/store-pages.md).
	slugs   []byte
	slugEnd []uint32
	updated []int64
	// built is when the build ended, cost how long it took (Directory).
	built time.Time
	cost  time.Duration
}

// DirState is one state of the directory.
type DirState struct {
	Slug, Name string // Name: the state as the first of its stores spells it
	Count      int
	Cities     []DirCity
	first      int // position of its first store in the directory's order
}

// DirCity is one city of a state.
type DirCity struct {
	Slug, Name string
	IDs        []int64
	first      int
}

// OtherSlug stands for an empty state or city.
const OtherSlug = "other"

// State finds a state by slug.
func (d *Directory) State(s string) (*DirState, bool) {
	i, ok := slices.BinarySearchFunc(d.States, s, func(a DirState, s string) int { return cmp.Compare(a.Slug, s) })
	if !ok {
		return nil, false
	}
	return &d.States[i], true
}

// City finds a city of the state by slug.
func (st *DirState) City(s string) (*DirCity, bool) {
	i, ok := slices.BinarySearchFunc(st.Cities, s, func(a DirCity, s string) int { return cmp.Compare(a.Slug, s) })
	if !ok {
		return nil, false
	}
	return &st.Cities[i], true
}

// Stores calls fn for the stores at positions [from, to) of the
// directory's order (states, cities, stores) with their state and city
// slugs, id, name slug (empty when the name has no Latin letter or digit;
// only valid during the call) and last change (zero when unknown). It
// reads only the directory, which never changes, and stops at fn's first
// error: a sitemap of a million stores streams without the index's lock.
func (d *Directory) Stores(from, to int, fn func(stateSlug, citySlug string, id int64, nameSlug []byte, updated time.Time) error) error {
	for si := range d.States {
		st := &d.States[si]
		if st.first+st.Count <= from || st.first >= to {
			continue
		}
		for ci := range st.Cities {
			c := &st.Cities[ci]
			lo, hi := max(from-c.first, 0), min(to-c.first, len(c.IDs))
			for j := lo; j < hi; j++ {
				i := c.first + j
				var begin uint32
				if i > 0 {
					begin = d.slugEnd[i-1]
				}
				var up time.Time
				if u := d.updated[i]; u != 0 {
					up = time.Unix(u, 0).UTC()
				}
				if err := fn(st.Slug, c.Slug, c.IDs[j], d.slugs[begin:d.slugEnd[i]], up); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// A directory that took SlowDirectory or more to build (a million
// stores: 2-3 s) is served for up to StaleDirectory after its build while
// the next one is built in the background. Variables for tests.
var (
	SlowDirectory  = 250 * time.Millisecond
	StaleDirectory = 30 * time.Second
)

// Directory returns the directory of the index's current generation,
// building it when the index changed since the last one, outside the
// index's lock but for a copy of the records' references. One build runs
// at a time. A slow one is not waited for while the last is recent:
// callers get the previous directory (at most StaleDirectory old) while
// the next is built in the background, started at most once per three
// build times. So at a million stores a stream of changes (every review
// moves the generation) costs at most about a quarter of a core, and no
// directory or sitemap request waits seconds unless nobody asked for one
// in StaleDirectory (docs/store-pages.md).
func (ix *Index) Directory() *Directory {
	gen := ix.Gen()
	d := ix.dir.Load()
	if d != nil && d.Gen == gen {
		return d
	}
	if d != nil && d.cost >= SlowDirectory && time.Since(d.built) < StaleDirectory {
		if time.Since(d.built) >= 3*d.cost && ix.dirMu.TryLock() {
			go func() {
				defer ix.dirMu.Unlock()
				ix.rebuildDirectory()
			}()
		}
		return d
	}
	ix.dirMu.Lock()
	defer ix.dirMu.Unlock()
	return ix.rebuildDirectory()
}

// rebuildDirectory builds and keeps the directory of the current
// generation unless the kept one already is; dirMu is held.
func (ix *Index) rebuildDirectory() *Directory {
	start := time.Now()
	ix.mu.RLock()
	gen := ix.gen
	if d := ix.dir.Load(); d != nil && d.Gen == gen {
		ix.mu.RUnlock()
		return d
	}
	type ref struct {
		id, updated int64
		doc         []byte
	}
	refs := make([]ref, 0, len(ix.slots))
	for i := range ix.recs {
		if r := &ix.recs[i]; r.live {
			refs = append(refs, ref{r.id, r.updated, r.doc})
		}
	}
	ix.mu.RUnlock()
	// Documents are never written over (the index only stops pointing at
	// them), so reading them after the lock is safe. States and cities are
	// a few thousand distinct values: each is slugged once (places), and
	// the names' slugs go back to back into one buffer, so a million
	// stores cost a few allocations, not millions.
	type place struct{ slug, name string }
	var places []place
	placeOf := map[string]int32{}
	intern := func(raw []byte) int32 {
		if i, ok := placeOf[string(raw)]; ok {
			return i
		}
		name := string(raw)
		i := int32(len(places))
		places = append(places, place{slug.Or(name, OtherSlug), name})
		placeOf[name] = i
		return i
	}
	type row struct {
		state, city int32
		name        [2]int32 // the name's slug in nameSlugs
		prefix      uint64   // its first 8 bytes, big-endian: most comparisons end here
		id, updated int64
	}
	rows := make([]row, len(refs))
	var nameSlugs, buf []byte
	for i, r := range refs {
		// RenderDoc writes name, then state, then city.
		buf, at := appendDocStringFrom(buf[:0], r.doc, "name", 0)
		start := len(nameSlugs)
		nameSlugs = slug.Append(nameSlugs, buf)
		buf, at = appendDocStringFrom(buf[:0], r.doc, "state", at)
		st := intern(buf)
		buf, _ = appendDocStringFrom(buf[:0], r.doc, "city", at)
		ct := intern(buf)
		var pre [8]byte
		copy(pre[:], nameSlugs[start:])
		rows[i] = row{st, ct, [2]int32{int32(start), int32(len(nameSlugs))}, binary.BigEndian.Uint64(pre[:]), r.id, r.updated}
	}
	// Places compare by the rank of their slug (spellings of one slug tie),
	// so the million comparisons of the sort are of integers until the names.
	order := make([]int32, len(places))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(places[a].slug, places[b].slug) })
	rank := make([]int32, len(places))
	for i, p := range order {
		if i > 0 && places[p].slug != places[order[i-1]].slug {
			rank[p] = rank[order[i-1]] + 1
		} else if i > 0 {
			rank[p] = rank[order[i-1]]
		}
	}
	// Early returns, not cmp.Or, which would evaluate every comparison.
	slices.SortFunc(rows, func(a, b row) int {
		if c := cmp.Compare(rank[a.state], rank[b.state]); c != 0 {
			return c
		}
		if c := cmp.Compare(rank[a.city], rank[b.city]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		if c := bytes.Compare(nameSlugs[a.name[0]:a.name[1]], nameSlugs[b.name[0]:b.name[1]]); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	d := &Directory{Gen: gen, Total: len(rows), slugs: make([]byte, 0, len(nameSlugs)),
		slugEnd: make([]uint32, len(rows)), updated: make([]int64, len(rows))}
	ids := make([]int64, len(rows))
	for i := range rows {
		r := &rows[i]
		ids[i] = r.id
		d.slugs = append(d.slugs, nameSlugs[r.name[0]:r.name[1]]...)
		d.slugEnd[i] = uint32(len(d.slugs))
		d.updated[i] = r.updated
		sp, cp := places[r.state], places[r.city]
		if n := len(d.States); n == 0 || d.States[n-1].Slug != sp.slug {
			d.States = append(d.States, DirState{Slug: sp.slug, Name: orSlug(sp.name, sp.slug), first: i})
		}
		st := &d.States[len(d.States)-1]
		st.Count++
		if n := len(st.Cities); n == 0 || st.Cities[n-1].Slug != cp.slug {
			st.Cities = append(st.Cities, DirCity{Slug: cp.slug, Name: orSlug(cp.name, cp.slug), first: i})
		}
		c := &st.Cities[len(st.Cities)-1]
		c.IDs = ids[c.first : i+1 : i+1]
	}
	d.built = time.Now()
	d.cost = d.built.Sub(start)
	ix.dir.Store(d)
	return d
}

func orSlug(name, s string) string {
	if name == "" {
		return s
	}
	return name
}

// DocString reads a top-level string field of a store document
// (stores.RenderDoc; with or without its closing brace) without decoding
// the rest: "" when absent or not a string.
func DocString(doc []byte, key string) string { return string(AppendDocString(nil, doc, key)) }

// AppendDocString appends the value of DocString(doc, key) to dst. It
// relies on the document being compact JSON written by encoding/json: a
// key "k" can only appear as `"k":` where it is a key, since quotes inside
// strings are escaped. The first such key is the top-level one for the
// fields RenderDoc writes before any nested object (name, state, city,
// address, postal_code; the country object has none of them).
func AppendDocString(dst, doc []byte, key string) []byte {
	dst, _ = appendDocStringFrom(dst, doc, key, 0)
	return dst
}

// appendDocStringFrom is AppendDocString looking for the key from offset
// from on (then from the start), and also returns where its value ends:
// fields RenderDoc writes in order are found without scanning the
// document again (the directory's build reads three of a million).
func appendDocStringFrom(dst, doc []byte, key string, from int) ([]byte, int) {
	var pat [64]byte
	p := append(append(append(pat[:0], '"'), key...), `":"`...)
	i := -1
	if from > 0 && from < len(doc) {
		if i = bytes.Index(doc[from:], p); i >= 0 {
			i += from
		}
	}
	if i < 0 {
		if i = bytes.Index(doc, p); i < 0 {
			return dst, 0
		}
	}
	start := i + len(p)
	rest := doc[start:]
	esc := false
	for j := 0; j < len(rest); j++ {
		switch rest[j] {
		case '\\':
			esc = true
			j++
		case '"':
			if !esc {
				return append(dst, rest[:j]...), start + j + 1
			}
			var s string
			if json.Unmarshal(doc[start-1:start+j+1], &s) != nil {
				return dst, 0
			}
			return append(dst, s...), start + j + 1
		}
	}
	return dst, 0
}

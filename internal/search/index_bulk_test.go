package search

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// PutAll defers the tree to the end; a store given twice in one call (its
// first slot freed and reused while deferred) must be found once, at its
// last position, and removals afterwards must work.
func TestPutAllDeferredTree(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	es := randomEntries(rng, 3000)
	moved := es[10]
	moved.Latitude, moved.Longitude = 40.0, -100.0
	es = append(es, moved, es[20]) // store 11 moved, store 21 given twice unchanged
	ix := NewIndex()
	ix.PutAll(es)
	if ix.Len() != 3000 || ix.tree.len() != 3000 {
		t.Fatalf("len %d, tree %d, want 3000", ix.Len(), ix.tree.len())
	}
	q := Query{Latitude: 40, Longitude: -100, RadiusMiles: 1, Limit: 5}
	if hits, _ := ix.Nearest(q); len(hits) != 1 || hits[0].ID != moved.ID {
		t.Fatalf("moved store: %+v", hits)
	}
	for _, e := range es[:1500] {
		ix.Remove(e.ID)
	}
	if ix.Len() != 1500 || ix.tree.len() != 1500 {
		t.Fatalf("after removals: len %d, tree %d", ix.Len(), ix.tree.len())
	}
}

// A bulk load into an empty index lays the records and documents out in
// Hilbert order; Put and Remove keep working afterwards.
func TestPutAllRepacksInCurveOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	es := randomEntries(rng, 5000)
	es = append(es, es[30]) // given twice: its first slot is reused while deferred
	ix := NewIndex()
	ix.PutAll(es)
	if len(ix.recs) != 5000 || len(ix.free) != 0 || ix.tree.len() != 5000 {
		t.Fatalf("recs %d, free %d, tree %d", len(ix.recs), len(ix.free), ix.tree.len())
	}
	byID := make(map[int64]stores.Entry, len(es))
	for _, e := range es {
		byID[e.ID] = e
	}
	var prevKey uint64
	var prevEnd uintptr
	for i := range ix.recs {
		r := &ix.recs[i]
		if !r.live || ix.slots[r.id] != uint32(i) {
			t.Fatalf("slot %d: live %v, id map %d", i, r.live, ix.slots[r.id])
		}
		if k := HilbertKey(r.lat, r.lon); k < prevKey {
			t.Fatalf("slot %d out of curve order", i)
		} else {
			prevKey = k
		}
		want := byID[r.id].Doc
		if string(r.doc)+"}" != string(want) {
			t.Fatalf("slot %d: doc %q, want %q", i, r.doc, want)
		}
		// Consecutive documents are adjacent (the arena is far larger
		// than these documents, so one chunk holds them all).
		start := uintptr(unsafe.Pointer(unsafe.SliceData(r.doc)))
		if i > 0 && start != prevEnd {
			t.Fatalf("slot %d: document not next to the one before", i)
		}
		prevEnd = start + uintptr(len(r.doc))
	}
	// Searches give what a brute-force scan gives, before and after changes.
	check := func() {
		t.Helper()
		for j := 0; j < 50; j++ {
			q := Query{Latitude: 25 + rng.Float64()*24, Longitude: -124 + rng.Float64()*57, RadiusMiles: 50, Limit: 20}
			hits, _ := ix.Nearest(q)
			var live []stores.Entry
			for _, e := range byID {
				live = append(live, e)
			}
			want := bruteHits(live, q)
			if len(hits) != len(want) {
				t.Fatalf("query %d: %d hits, want %d", j, len(hits), len(want))
			}
			for i := range hits {
				if hits[i].ID != want[i] {
					t.Fatalf("query %d hit %d: id %d, want %d", j, i, hits[i].ID, want[i])
				}
			}
		}
	}
	check()
	for _, e := range es[:1000] {
		ix.Remove(e.ID)
		delete(byID, e.ID)
	}
	upd := es[2000]
	upd.Latitude, upd.Longitude = 40.0, -100.0
	upd.Doc = []byte(`{"id":2001,"name":"moved"}`)
	ix.Put(upd)
	byID[upd.ID] = upd
	for _, e := range randomEntries(rng, 6000)[5000:] {
		ix.Put(e)
		byID[e.ID] = e
	}
	if ix.Len() != len(byID) || ix.tree.len() != len(byID) {
		t.Fatalf("len %d, tree %d, want %d", ix.Len(), ix.tree.len(), len(byID))
	}
	check()
	now := time.Date(2026, 11, 26, 17, 0, 0, 0, time.UTC)
	out := string(ix.AppendJSON(nil, Query{Latitude: 40, Longitude: -100, RadiusMiles: 1, Limit: 5, Now: now}))
	live := string(schedule.ParseSchedule(upd.Schedule).AppendLiveList(nil, now, stores.Zone(upd.TimeZone), schedule.OfferedOf(upd.Delivery, upd.Curbside, upd.OrderOnline)))
	if want := `{"physical_stores":[{"id":2001,"name":"moved","rule_ids":[],` + live + `,"distance":0}],"has_more":false,"rules":[]}`; out != want {
		t.Fatalf("moved store: %s", out)
	}
}

// bruteHits is the ids of the nearest q.Limit matches of es by exact distance
// (filters and open-now unused here).
func bruteHits(es []stores.Entry, q Query) []int64 {
	type hit struct {
		id int64
		d  float64
	}
	var hs []hit
	for _, e := range es {
		if d := DistanceMiles(q.Latitude, q.Longitude, e.Latitude, e.Longitude); d <= q.RadiusMiles {
			hs = append(hs, hit{e.ID, d})
		}
	}
	slices.SortFunc(hs, func(a, b hit) int {
		if c := cmp.Compare(a.d, b.d); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	var ids []int64
	for i := 0; i < len(hs) && i < q.Limit; i++ {
		ids = append(ids, hs[i].id)
	}
	return ids
}

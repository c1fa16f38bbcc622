package stores

import (
	"math/rand/v2"
	"testing"
)

// PutAll defers the tree to the end; a store given twice in one call (its
// first slot freed and reused while deferred) must be found once, at its
// last position, and removals afterwards must work.
func TestPutAllDeferredTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	es := randomEntries(rng, 3000)
	moved := es[10]
	moved.Latitude, moved.Longitude = 40.0, -100.0
	es = append(es, moved, es[20]) // store 11 moved, store 21 given twice unchanged
	ix := NewIndex()
	ix.PutAll(es)
	if ix.Len() != 3000 || ix.tree.Len() != 3000 {
		t.Fatalf("len %d, tree %d, want 3000", ix.Len(), ix.tree.Len())
	}
	q := Query{Latitude: 40, Longitude: -100, RadiusMiles: 1, Limit: 5}
	if hits, _ := ix.Nearest(q); len(hits) != 1 || hits[0].ID != moved.ID {
		t.Fatalf("moved store: %+v", hits)
	}
	for _, e := range es[:1500] {
		ix.Remove(e.ID)
	}
	if ix.Len() != 1500 || ix.tree.Len() != 1500 {
		t.Fatalf("after removals: len %d, tree %d", ix.Len(), ix.tree.Len())
	}
}

package search

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"locator/internal/inventory"
)

// The product side keeps each product's rows in the spatial order of the
// index's stores: when a store moves, leaves the index or enters it after
// the stock was loaded, its rows follow, and the search, the row look-up
// and a store's products still agree with a scan of every row.
func TestStockFollowsStoresThatMove(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	es := randomEntries(rng, 3000)
	ix := NewIndex()
	ix.PutAll(es[:2500]) // 500 stores enter later
	now := time.Now().UTC().Truncate(time.Second)
	// Product 5 is carried by 20 stores: its rows fit one leaf, without
	// boxes.
	const products = 5
	carries := func(store int64, product int64) bool {
		if product == 5 {
			return store%150 == 0
		}
		return (store*7+product*3)%5 < 2 || product == 1
	}
	err := ix.prod.Load(func(add func([]inventory.Entry)) error {
		var batch []inventory.Entry
		for _, e := range es {
			for p := int64(1); p <= products; p++ {
				if carries(e.ID, p) {
					batch = append(batch, inventory.Entry{StoreID: e.ID, ProductID: p, Availability: inventory.InStock,
						Quantity: e.ID % 40, Price: -1, SalePrice: -1, ReportedAt: now})
				}
			}
		}
		rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
		add(batch)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	in := map[int64]int{} // store id -> index in es, for the stores in the index
	for i := range es[:2500] {
		in[es[i].ID] = i
	}
	check := func(step string) {
		t.Helper()
		for p := int64(1); p <= products; p++ {
			for _, e := range es {
				row, ok := ix.prod.Row(p, e.ID)
				if ok != carries(e.ID, p) || ok && row.Quantity != e.ID%40 {
					t.Fatalf("%s: Row(%d, %d) = %+v, %v", step, p, e.ID, row, ok)
				}
			}
			// Carriers lists the product's stores in the index by id.
			var ids, want []int64
			for _, cr := range ix.Carriers(p, now) {
				ids = append(ids, cr.Store)
			}
			for id := range in {
				if carries(id, p) {
					want = append(want, id)
				}
			}
			slices.Sort(want)
			if !slices.Equal(ids, want) {
				t.Fatalf("%s: Carriers(%d) = %d stores, not the %d in the index by id", step, p, len(ids), len(want))
			}
			for range 20 {
				c := es[rng.IntN(len(es))]
				q := Query{Latitude: c.Latitude, Longitude: c.Longitude, RadiusMiles: 1 + rng.Float64()*60, Limit: 200, Product: p, Now: now}
				if err := q.Validate(); err != nil {
					t.Fatal(err)
				}
				var want []int64
				for id, i := range in {
					e := es[i]
					if carries(id, p) && DistanceMiles(q.Latitude, q.Longitude, e.Latitude, e.Longitude) <= q.RadiusMiles {
						want = append(want, id)
					}
				}
				slices.Sort(want)
				for _, brute := range []int{1 << 30, 0} {
					ix.bruteMax = brute
					hits, more := ix.ProductHits(q)
					got := hitIDs(hits)
					slices.Sort(got)
					if !more && !slices.Equal(got, want) || more && len(got) != q.Limit {
						t.Fatalf("%s: product %d near %v (bruteMax %d): %d stores, want %d", step, p, c.ID, brute, len(got), len(want))
					}
				}
			}
		}
		if st, ok := ix.StoreProducts(es[0].ID, now); ok != (in[es[0].ID] == 0) || len(st) != countCarried(es[0].ID, products, carries) && ok {
			t.Fatalf("%s: StoreProducts(%d) = %d products, %v", step, es[0].ID, len(st), ok)
		}
	}
	check("loaded")
	// Moves: a store crosses the country, others go away, the late ones
	// come in.
	for i := range 200 {
		e := es[i]
		e.Latitude, e.Longitude = 25+rng.Float64()*24, -124+rng.Float64()*57
		es[i] = e
		ix.Put(e)
	}
	check("moved")
	for i := 200; i < 400; i++ {
		ix.Remove(es[i].ID)
		delete(in, es[i].ID)
	}
	check("removed")
	ix.PutAll(es[2500:])
	for i := 2500; i < len(es); i++ {
		in[es[i].ID] = i
	}
	check("added")
}

func countCarried(store int64, products int64, carries func(int64, int64) bool) int {
	n := 0
	for p := int64(1); p <= products; p++ {
		if carries(store, p) {
			n++
		}
	}
	return n
}

package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/inventory"
)

// The product benchmark (docs/performance.md, "Searching by product"):
// 200,000 stores (randomEntries: four metro areas and the rest of the
// country), a catalogue of 2,000 products whose popularity is Zipf-like,
// each store carrying about 10 of them (2 million stock rows). The same
// 1,000 places are searched without a product and with one drawn by
// popularity, as shoppers would pick them.
const (
	benchStores   = 200_000
	benchProducts = 2_000
	benchPerStore = 10
)

var benchOnce = sync.OnceValues(func() (*Index, []int64) {
	rng := rand.New(rand.NewPCG(1, 2))
	ix := NewIndex()
	es := randomEntries(rng, benchStores)
	ix.PutAll(es)
	ps := make([]*catalog.Product, benchProducts)
	for i := range ps {
		ps[i] = &catalog.Product{ID: int64(i + 1), ProductID: fmt.Sprintf("b-%d", i), Brand: "Bench", Name: fmt.Sprintf("Bench %d", i),
			Kind: catalog.Kinds[i%len(catalog.Kinds)], Flavour: catalog.Flavours[i%len(catalog.Flavours)]}
	}
	ix.prod.SetCatalog(NewCatalog(ps))
	zipf := rand.NewZipf(rng, 1.1, 4, benchProducts-1)
	now := time.Now()
	err := ix.prod.Load(func(add func([]inventory.Entry)) error {
		var batch []inventory.Entry
		for _, e := range es {
			batch = batch[:0]
			seen := map[int64]bool{}
			for range benchPerStore {
				p := int64(zipf.Uint64()) + 1
				if seen[p] {
					continue
				}
				seen[p] = true
				batch = append(batch, inventory.Entry{StoreID: e.ID, ProductID: p, Availability: inventory.Availabilities[rng.IntN(4)],
					Quantity: int64(rng.IntN(60)), Price: int64(500 + rng.IntN(3000)), SalePrice: -1, Currency: "USD",
					ReportedAt: now.Add(-time.Duration(rng.Int64N(int64(10 * 24 * time.Hour))))})
			}
			// Load wants each product's stores in ascending order: es is
			// in id order, so per product they are.
			sortByProduct(batch)
			add(batch)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Products drawn as shoppers would pick them: by popularity.
	picks := make([]int64, 1000)
	for i := range picks {
		picks[i] = int64(zipf.Uint64()) + 1
	}
	return ix, picks
})

func sortByProduct(es []inventory.Entry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].ProductID < es[j-1].ProductID; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func benchQueries(b testing.TB, picks []int64, product, inStock bool) []Query {
	b.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	centres := [][2]float64{{40.71, -74.0}, {34.05, -118.24}, {41.88, -87.63}, {29.76, -95.37}}
	qs := make([]Query, 1000)
	now := time.Now()
	for i := range qs {
		c := centres[rng.IntN(len(centres))]
		q := Query{Latitude: c[0] + rng.NormFloat64()*0.3, Longitude: c[1] + rng.NormFloat64()*0.3, RadiusMiles: 30, Now: now}
		if product {
			q.Product, q.InStock = picks[i], inStock
		}
		if err := q.Validate(); err != nil {
			b.Fatal(err)
		}
		qs[i] = q
	}
	return qs
}

func benchSearch(b *testing.B, product, inStock bool) {
	if testing.Short() {
		b.Skip("-short")
	}
	ix, picks := benchOnce()
	qs := benchQueries(b, picks, product, inStock)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		var buf []byte
		i := 0
		for pb.Next() {
			buf = ix.AppendJSON(buf[:0], qs[i%len(qs)])
			i++
		}
	})
	// The CPU time of the process per search: on a machine shared with
	// other work it moves far less than the wall time ns/op reports.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// go test -run '^$' -bench 'Search(Unfiltered|Product)' ./internal/search/
func BenchmarkSearchUnfiltered(b *testing.B)     { benchSearch(b, false, false) }
func BenchmarkSearchProduct(b *testing.B)        { benchSearch(b, true, false) }
func BenchmarkSearchProductInStock(b *testing.B) { benchSearch(b, true, true) }

// BenchmarkStockBytes reports the memory of the benchmark's stock rows.
func BenchmarkStockBytes(b *testing.B) {
	if testing.Short() {
		b.Skip("-short")
	}
	ix, _ := benchOnce()
	runtime.GC()
	for range b.N {
		_ = ix.prod.Bytes()
	}
	b.ReportMetric(float64(ix.prod.Bytes())/float64(ix.prod.Rows()), "B/row")
	b.ReportMetric(float64(ix.prod.Rows()), "rows")
}

// BenchmarkStockSnapshotLoad is the stock side of a start from a search
// snapshot (stocksnap.go) on the benchmark's index: its parts encoded once
// in memory, then each op loads them into an empty product side, as a
// replica does once its stores are in.
//
//	go test -run '^$' -bench StockSnapshotLoad -cpuprofile cpu.out ./internal/search/
func BenchmarkStockSnapshotLoad(b *testing.B) {
	if testing.Short() {
		b.Skip("-short")
	}
	ix, _ := benchOnce()
	var parts [][]byte
	h := snapHeader{StockVersion: 1, StockFormat: stockSnapFormat}
	n, err := ix.prod.view(1).encode(func(_ int, data []byte) error {
		parts = append(parts, slices.Clone(data))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	h.StockParts, h.StockRows = n, ix.prod.Rows()
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	read := func(_ context.Context, buf func(int) []byte, fn func(int, []byte) error) error {
		for i, p := range parts {
			if err := fn(i, append(buf(len(p)), p...)); err != nil {
				return err
			}
		}
		return nil
	}
	// Which stores changed since the snapshot's search version: none; 5%
	// (when SnapshotStale writes a new one), none of them moved; unknown
	// (the stores were read from the rows: every product arranged again).
	none := newIDSet(nil)
	var ids []int64
	for id := int64(1); id <= benchStores; id += 20 {
		ids = append(ids, id)
	}
	some := newIDSet(ids)
	for _, c := range []struct {
		name    string
		changed *idSet
	}{{"unchanged", &none}, {"5pct-changed", &some}, {"unknown", nil}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for range b.N {
				p := newProducts(ix)
				if err := p.loadSnapshot(context.Background(), h, read, c.changed); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(size)/float64(h.StockRows), "snapB/row")
		})
	}
}

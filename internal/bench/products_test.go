package bench_test

import (
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/inventory"
)

// TestProductGate is the product series' correctness gate on 20,000
// clustered stores (SLB_SIZE for another size) with their stock: the first
// 300 product requests of the mix (a product by popularity, half of them
// in stock only) must equal the brute-force oracle, which ranks every
// store in the radius carrying the product by band, stock class and
// distance, judging the law from the rulebook. Under -race or -short it
// checks 100 requests on 5,000 stores, the same checks on a smaller
// gate (-race made the full one cost minutes); the full gate at 100,000
// stores runs in `slb inproc -products` (docs/performance.md).
func TestProductGate(t *testing.T) {
	stores, gate := 20_000, 300
	if raceEnabled || testing.Short() {
		stores, gate = 5_000, 1500
	}
	n, err := bench.SizeFromEnv(stores)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bench.Load(n, bench.Clustered)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 18, 0, 0, 0, time.UTC)
	rows, err := bench.LoadStock(l.Index, n, now)
	if err != nil {
		t.Fatal(err)
	}
	if rows < n*bench.StockPerStore*99/100 || rows > n*bench.StockPerStore {
		t.Fatalf("%d stock rows for %d stores", rows, n)
	}
	mix := bench.WithProducts(l.Mix)
	ps := bench.ProductOnly(mix)
	if share := len(ps) * 100 / bench.MixSize; share < bench.ProductShare-3 || share > bench.ProductShare+3 {
		t.Fatalf("%d%% of the mix searches a product, want %d%%", share, bench.ProductShare)
	}
	po := bench.NewProductOracle(l.Data, l.Entries, now)
	if err := bench.ProductGate(l.Index, po, mix, gate); err != nil {
		t.Fatal(err)
	}
	// The gate must see answers of every kind: in-stock-only searches,
	// stores ranked below others of a nearer band's class, empty answers.
	inStock, full, empty := 0, 0, 0
	for _, r := range ps[:gate] {
		q := r.Query
		q.Now = now
		hits, _ := po.Nearest(q)
		switch {
		case len(hits) == 0:
			empty++
		case len(hits) == q.Limit:
			full++
		}
		if q.InStock {
			inStock++
		}
	}
	if inStock < gate/3 || full < 10 || gate-empty < gate/4 || empty == 0 {
		t.Errorf("the gate's queries: %d in stock only, %d full answers, %d empty: too few of some kind", inStock, full, empty)
	}
	t.Logf("%d stores, %d product queries: %d in stock only, %d full answers, %d empty", n, gate, inStock, full, empty)
}

// StockOf is deterministic and holds what the series says.
func TestStockOf(t *testing.T) {
	now := time.Date(2026, 12, 3, 18, 0, 0, 0, time.UTC)
	counts := map[inventory.Availability]int{}
	top := 0
	for id := int64(1); id <= 2000; id++ {
		a, b := bench.StockOf(id, now), bench.StockOf(id, now)
		if len(a) != bench.StockPerStore || len(b) != len(a) {
			t.Fatalf("store %d: %d and %d rows", id, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] || a[i].ProductID < 1 || a[i].ProductID > bench.CatalogSize || i > 0 && a[i].ProductID <= a[i-1].ProductID {
				t.Fatalf("store %d row %d: %+v / %+v", id, i, a[i], b[i])
			}
			counts[a[i].Availability]++
			if a[i].ProductID == 1 {
				top++
			}
		}
	}
	if counts[inventory.InStock] < 7000 || counts[inventory.InStock] > 9000 || counts[inventory.OutOfStock] < 5000 {
		t.Errorf("availabilities %v", counts)
	}
	// Zipf-like: the first product is carried by a good share of the
	// stores, the catalogue's tail by few.
	if top < 200 {
		t.Errorf("product 1 is carried by %d of 2,000 stores", top)
	}
}

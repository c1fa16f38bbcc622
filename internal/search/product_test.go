package search

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/catalog/catalogtest"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// productFixture is a database with the catalogue fixture and three
// stores: two in New York (a flavour ban), one in Connecticut (none).
type productFixture struct {
	repo          *stores.Repo
	stock         *inventory.Repo
	cat           *catalog.Repo
	law           *productlaw.Repo
	nyc, nyc2, ct *stores.Store
	mango, pods   int64 // a flavoured disposable, a tobacco pod
}

func newProductFixture(t *testing.T, ctx context.Context, repo *stores.Repo) *productFixture {
	t.Helper()
	f := &productFixture{repo: repo}
	f.nyc = &stores.Store{StoreID: "st-nyc", Name: "Midtown Vapes", Latitude: 40.7500, Longitude: -73.9900, TimeZone: "America/New_York",
		State: "NY", City: "New York", PostalCode: "10001"}
	f.nyc2 = &stores.Store{StoreID: "st-nyc2", Name: "Chelsea Smoke", Latitude: 40.7450, Longitude: -73.9950, TimeZone: "America/New_York",
		State: "NY", City: "New York", PostalCode: "10011"}
	f.ct = &stores.Store{StoreID: "st-ct", Name: "Stamford Vapor", Latitude: 41.0534, Longitude: -73.5387, TimeZone: "America/New_York",
		State: "CT", City: "Stamford", PostalCode: "06901"}
	dbtest.Must(t, repo.SaveAll(ctx, []*stores.Store{f.nyc, f.nyc2, f.ct}), "save stores")
	f.cat = catalogtest.Imported(t, repo.DB())
	f.stock = inventory.NewRepo(repo, f.cat)
	f.law = productlaw.NewRepo(repo.DB())
	idx, err := f.cat.Index(ctx)
	dbtest.Must(t, err, "catalogue keys")
	f.mango, _, _ = idx.ByID("nx-mango-5")
	f.pods, _, _ = idx.ByID("kp-classic-5")
	return f
}

func (f *productFixture) replica(t *testing.T, ctx context.Context, mode SnapshotMode) (*Index, *Syncer) {
	t.Helper()
	ix := NewIndex()
	sy := NewSyncer(f.repo, ix, mode, quiet).WithProducts(f.stock, f.cat, f.law)
	dbtest.Must(t, sy.Load(ctx), "load")
	return ix, sy
}

// productQuery is a search around Midtown Manhattan for a product.
func productQuery(t *testing.T, product int64, inStock bool, now time.Time) Query {
	t.Helper()
	q := Query{Latitude: 40.75, Longitude: -73.99, RadiusMiles: 50, Product: product, InStock: inStock, Now: now}
	dbtest.Must(t, q.Validate(), "query")
	return q
}

func hitIDs(hs []Hit) []int64 {
	ids := make([]int64, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	return ids
}

type productAnswer struct {
	Stores []struct {
		ID      int64 `json:"id"`
		Product struct {
			ID           string   `json:"id"`
			Availability string   `json:"availability"`
			Quantity     *int64   `json:"quantity"`
			Price        *float64 `json:"price"`
			SalePrice    *float64 `json:"sale_price"`
			Currency     *string  `json:"currency_code"`
			UpdatedAt    string   `json:"updated_at"`
			Stale        bool     `json:"stale"`
			Lawful       bool     `json:"lawful"`
			Rule         *struct {
				ID       string `json:"id"`
				Citation string `json:"citation"`
			} `json:"rule"`
		} `json:"product"`
	} `json:"physical_stores"`
	HasMore bool `json:"has_more"`
}

func answerOf(t *testing.T, ix *Index, q Query) productAnswer {
	t.Helper()
	var a productAnswer
	body := ix.AppendJSON(nil, q)
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatalf("answer %s: %v", body, err)
	}
	return a
}

// Two replicas (one from the rows, one from a snapshot) load the stock and follow every change (an owner's Set and
// Remove, a feed) at their next poll, on both engines: a product search
// lists only the stores carrying the product, lawful in stock first within
// a band, with the law's verdict and the row's values.
func TestProductSearchFollowsStockOnTwoReplicas(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		f := newProductFixture(t, ctx, repo)
		now := time.Now().UTC().Truncate(time.Second)
		qty := int64(12)
		dbtest.Must(t, f.stock.Put(ctx, []inventory.Row{
			{StoreID: f.nyc.ID, ProductID: f.mango, Availability: inventory.InStock, Quantity: &qty,
				Price: &inventory.Price{Amount: 2199, Currency: "USD"}, SalePrice: &inventory.Price{Amount: 1899, Currency: "USD"}, ReportedAt: now},
			{StoreID: f.ct.ID, ProductID: f.mango, Availability: inventory.InStock, ReportedAt: now},
			{StoreID: f.nyc.ID, ProductID: f.pods, Availability: inventory.OutOfStock, ReportedAt: now},
			{StoreID: f.nyc2.ID, ProductID: f.pods, Availability: inventory.LimitedAvailability, ReportedAt: now.Add(-8 * 24 * time.Hour)},
			{StoreID: f.ct.ID, ProductID: f.pods, Availability: inventory.InStock, ReportedAt: now},
		}), "put stock")
		// A from the rows; B from the snapshot A writes.
		ixA, syA := f.replica(t, ctx, SnapshotAlways)
		if wrote, err := syA.WriteSnapshot(ctx); err != nil || !wrote {
			t.Fatalf("snapshot: %v, %v", wrote, err)
		}
		ixB, syB := f.replica(t, ctx, SnapshotAlways)
		if syA.from != "rows" || syB.from != "snapshot" {
			t.Fatalf("replicas loaded from %s and %s", syA.from, syB.from)
		}
		for _, ix := range []*Index{ixA, ixB} {
			if n := ix.Products().Rows(); n != 5 {
				t.Fatalf("loaded %d stock rows, want 5", n)
			}
			// Mango: the New York store is nearest, but the state's flavour
			// ban makes it unlawful; Connecticut's is lawful, farther.
			a := answerOf(t, ix, productQuery(t, f.mango, false, now))
			if len(a.Stores) != 2 || a.Stores[0].ID != f.nyc.ID || a.Stores[1].ID != f.ct.ID {
				t.Fatalf("mango: %+v", a)
			}
			p := a.Stores[0].Product
			if p.ID != "nx-mango-5" || p.Lawful || p.Rule == nil || p.Rule.Citation == "" || p.Availability != "in_stock" ||
				*p.Quantity != 12 || *p.Price != 21.99 || *p.SalePrice != 18.99 || *p.Currency != "usd" || p.Stale ||
				p.UpdatedAt != now.Format(time.RFC3339) {
				t.Errorf("mango in New York: %+v", p)
			}
			if p := a.Stores[1].Product; !p.Lawful || p.Rule != nil || p.Price != nil || p.Currency != nil || p.Quantity != nil {
				t.Errorf("mango in Connecticut: %+v", p)
			}
			if hits, _ := ix.ProductHits(productQuery(t, f.mango, true, now)); !slices.Equal(hitIDs(hits), []int64{f.ct.ID}) {
				t.Errorf("mango in stock: %v", hits)
			}
			// Pods, lawful everywhere: the two Manhattan stores share the
			// first band, where the stale limited row (unknown) comes before
			// the fresh out-of-stock one although it is farther.
			a = answerOf(t, ix, productQuery(t, f.pods, false, now))
			if len(a.Stores) != 3 || a.Stores[0].ID != f.nyc2.ID || a.Stores[1].ID != f.nyc.ID || a.Stores[2].ID != f.ct.ID ||
				!a.Stores[0].Product.Stale || a.Stores[1].Product.Stale {
				t.Errorf("pods: %+v", a)
			}
			if hits, _ := ix.ProductHits(productQuery(t, f.pods, true, now)); !slices.Equal(hitIDs(hits), []int64{f.ct.ID}) {
				t.Errorf("pods in stock: %v", hits)
			}
		}

		// An owner marks Connecticut's mango out of stock and Chelsea's pods
		// in stock; another removes the New York mango.
		dbtest.Must(t, f.stock.Set(ctx, f.ct.ID, f.mango, inventory.Row{Availability: inventory.OutOfStock}), "set")
		dbtest.Must(t, f.stock.Set(ctx, f.nyc2.ID, f.pods, inventory.Row{Availability: inventory.InStock}), "set")
		dbtest.Must(t, f.stock.Remove(ctx, f.nyc.ID, f.mango), "remove")
		for _, sy := range []*Syncer{syA, syB} {
			dbtest.Must(t, sy.Poll(ctx), "poll")
			v, err := f.stock.Version(ctx)
			dbtest.Must(t, err, "version")
			if sy.StockVersion() != v {
				t.Errorf("replica at stock version %d, database at %d", sy.StockVersion(), v)
			}
		}
		for _, ix := range []*Index{ixA, ixB} {
			if n := ix.Products().Rows(); n != 4 {
				t.Errorf("%d stock rows after the changes, want 4", n)
			}
			a := answerOf(t, ix, productQuery(t, f.mango, false, now))
			if len(a.Stores) != 1 || a.Stores[0].ID != f.ct.ID || a.Stores[0].Product.Availability != "out_of_stock" {
				t.Errorf("mango after the changes: %+v", a)
			}
			if hits, _ := ix.ProductHits(productQuery(t, f.mango, true, now)); len(hits) != 0 {
				t.Errorf("mango in stock after the changes: %v", hits)
			}
			if hits, _ := ix.ProductHits(productQuery(t, f.pods, true, now)); !slices.Equal(hitIDs(hits), []int64{f.nyc2.ID, f.ct.ID}) {
				t.Errorf("pods in stock after the changes: %v", hits)
			}
		}

		// A full feed for Connecticut drops its pods.
		_, err := f.stock.Import(ctx, strings.NewReader("store_code,id,availability\nst-ct,nx-mango-5,limited_availability\n"), "ct.csv", true)
		dbtest.Must(t, err, "feed")
		dbtest.Must(t, syB.Poll(ctx), "poll")
		if hits, _ := ixB.ProductHits(productQuery(t, f.pods, false, now)); !slices.Equal(hitIDs(hits), []int64{f.nyc2.ID, f.nyc.ID}) {
			t.Errorf("pods after Connecticut's full feed: %v", hits)
		}
		if hits, _ := ixB.ProductHits(productQuery(t, f.mango, true, now)); !slices.Equal(hitIDs(hits), []int64{f.ct.ID}) {
			t.Errorf("mango after Connecticut's full feed: %v", hits)
		}
		// A store that leaves the search leaves the product search too.
		dbtest.Must(t, repo.SetStatus(ctx, f.ct.ID, stores.Hidden), "hide")
		dbtest.Must(t, syB.Poll(ctx), "poll")
		if hits, _ := ixB.ProductHits(productQuery(t, f.mango, false, now)); len(hits) != 0 {
			t.Errorf("mango after hiding its store: %v", hits)
		}
		if _, ok := ixB.StoreProducts(f.ct.ID, now); ok {
			t.Error("a hidden store's products are listed")
		}
		got, ok := ixB.StoreProducts(f.nyc.ID, now)
		if !ok || len(got) != 1 || got[0].Product != f.pods || got[0].Row.Availability != inventory.OutOfStock || !got[0].Verdict.Lawful {
			t.Errorf("New York's products: %+v", got)
		}
	})
}

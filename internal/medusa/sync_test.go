package medusa

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/medusa/medusatest"
	"locator/internal/stores"
)

// env is one database with two stores, the catalogue, the stock and a
// syncer of a fake Medusa.
type env struct {
	d      *db.DB
	cat    *catalog.Repo
	stock  *inventory.Repo
	fake   *medusatest.Server
	sync   *Syncer
	locs   *Locations
	nyc    int64 // store at 350 5th Ave, New York, NY 10118
	boston int64
}

func newEnv(t *testing.T, d *db.DB) *env {
	t.Helper()
	ctx := context.Background()
	sr := stores.NewRepo(d)
	mk := func(name, addr, city, state, zip string, lat, lon float64) int64 {
		s := &stores.Store{Name: name, Address: addr, City: city, State: state, PostalCode: zip, CountryCode: "US",
			CountryName: "United States", Latitude: lat, Longitude: lon, TimeZone: "America/New_York", Status: stores.Published}
		if err := sr.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	e := &env{d: d, fake: medusatest.New(t)}
	e.nyc = mk("Empire Vapes", "350 Fifth Avenue", "New York", "NY", "10118", 40.7484, -73.9857)
	e.boston = mk("Back Bay Smoke Shop", "100 Boylston St", "Boston", "MA", "02116", 42.3522, -71.0661)
	e.cat = catalog.NewRepo(d)
	e.stock = inventory.NewRepo(sr, e.cat)
	c, err := NewClient(Settings{URL: e.fake.URL, Email: medusatest.Email, Password: medusatest.Password, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.sync = NewSyncer(c, d, e.cat, e.stock)
	e.locs = NewLocations(d)
	return e
}

func (e *env) run(t *testing.T) *Report {
	t.Helper()
	rep, err := e.sync.Run(context.Background())
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return rep
}

func (e *env) stockOf(t *testing.T, store int64) map[string]inventory.Row {
	t.Helper()
	rows, err := e.stock.ForStore(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]inventory.Row{}
	for _, r := range rows {
		m[r.Product] = r
	}
	return m
}

func TestSyncCatalogueAndMappedStock(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		rep := e.run(t)
		// Two published products with three variants, one of which has a
		// wrong check digit; the draft product's variant is skipped.
		if rep.Locations != 2 || rep.Variants != 3 || rep.Written != 2 || rep.Skipped != 1 || rep.Failed != 1 || rep.Mapped != 0 || rep.Stock != 0 {
			t.Fatalf("first run: %+v", rep)
		}
		if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].What, "variant_01BAD") || !strings.Contains(rep.Errors[0].Message, "check digit") {
			t.Fatalf("errors: %+v", rep.Errors)
		}
		p, err := e.cat.Get(ctx, "NB5K-MANGO")
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != "Nimbus Bar 5000 - Mango Ice" || p.Brand != "Nimbus" || p.Kind != catalog.Disposable || p.Flavour != catalog.Fruit ||
			p.GTIN != "00840000100016" || p.Handle != "nimbus-bar-5000" || p.NicotineText() != "50 mg/mL" || p.Image == "" {
			t.Fatalf("mango: %+v", p)
		}
		// A variant without a SKU is named by its own id; its UPC is its GTIN.
		p, err = e.cat.Get(ctx, "variant_01KESTREL")
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != "Kestrel Pods Classic Tobacco" || p.Flavour != catalog.Tobacco || p.Kind != catalog.Pods || p.GTIN != "04000001000012" {
			t.Fatalf("kestrel: %+v", p)
		}

		// Nothing is stocked until a location is mapped.
		views, err := e.locs.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(views) != 2 || views[0].Name != "Back Bay" || views[1].Name != "Empire Vapes Midtown" || views[1].Store != nil ||
			views[1].Address != "350 5th Ave" || views[1].PostalCode != "10118" || views[1].CountryCode != "US" {
			t.Fatalf("locations: %+v", views)
		}
		if _, err := e.locs.Map(ctx, "sloc_01NYC", e.nyc, "mod@example.com"); err != nil {
			t.Fatal(err)
		}
		before, err := e.stock.Version(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rep = e.run(t)
		if rep.Mapped != 1 || rep.Stock != 2 || rep.Written != 0 {
			t.Fatalf("second run: %+v", rep)
		}
		got := e.stockOf(t, e.nyc)
		mango, kestrel := got["NB5K-MANGO"], got["variant_01KESTREL"]
		if mango.Availability != inventory.InStock || *mango.Quantity != 12 || kestrel.Availability != inventory.LimitedAvailability || *kestrel.Quantity != 3 {
			t.Fatalf("stock: %+v", got)
		}
		if len(e.stockOf(t, e.boston)) != 0 {
			t.Fatal("an unmapped location's stock was written")
		}
		// The stock's change stamps moved: replicas see it at their next poll.
		if after, _ := e.stock.Version(ctx); after <= before {
			t.Fatalf("stock version %d -> %d", before, after)
		}
		changed, _, err := e.stock.ChangedStores(ctx, before)
		if err != nil || len(changed) != 1 || changed[0] != e.nyc {
			t.Fatalf("changed stores %v %v", changed, err)
		}
		rows, err := e.stock.ForStore(ctx, e.nyc)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Product == "NB5K-MANGO" && (r.Price == nil || r.Price.String() != "21.99 USD") {
				t.Fatalf("mango's price: %+v", r.Price)
			}
		}
	})
}

func TestAvailabilityRule(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want inventory.Availability
	}{{-2, inventory.OutOfStock}, {0, inventory.OutOfStock}, {1, inventory.LimitedAvailability}, {5, inventory.LimitedAvailability},
		{6, inventory.InStock}, {1000, inventory.InStock}} {
		if got := Availability(c.n); got != c.want {
			t.Errorf("Availability(%d) = %s, want %s", c.n, got, c.want)
		}
	}
}

func TestSyncIsIncremental(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		e.run(t)
		if _, err := e.locs.Map(ctx, "sloc_01NYC", e.nyc, "mod"); err != nil {
			t.Fatal(err)
		}
		first := e.run(t)
		if first.Cursor != "2026-11-30T10:00:00.000Z" {
			t.Fatalf("cursor after the first runs: %q", first.Cursor)
		}
		// Again with nothing changed: the calls start from the cursor less
		// the overlap, and nothing is written.
		e.fake.ClearCalls()
		rep := e.run(t)
		// (Kestrel, changed within the overlap, is read again, not written.)
		if rep.Variants != 1 || rep.Written != 0 || rep.Stock != 0 {
			t.Fatalf("a run with nothing new: %+v", rep)
		}
		checkSince(t, e.fake, "2026-11-30T09%3A59%3A00.000Z")
		// A variant's new title (its product's updated_at unchanged) and a
		// level's new quantity: exactly those are written.
		e.fake.Edit(func(products, _, levels []map[string]any) {
			v := products[0]["variants"].([]any)[0].(map[string]any)
			v["title"] = "Mango Ice Frost"
			v["updated_at"] = "2026-12-01T08:00:00.000Z"
			for _, l := range levels {
				if l["inventory_item_id"] == "iitem_01MANGO" && l["location_id"] == "sloc_01NYC" {
					l["available_quantity"] = 0
					l["stocked_quantity"] = 4
					l["reserved_quantity"] = 4
					l["updated_at"] = "2026-12-01T08:30:00.000Z"
				}
			}
		})
		rep = e.run(t)
		if rep.Variants != 3 || rep.Written != 1 || rep.Stock != 1 || rep.Cursor != "2026-12-01T08:00:00.000Z" {
			t.Fatalf("after a change: %+v", rep)
		}
		p, err := e.cat.Get(ctx, "NB5K-MANGO")
		if err != nil || p.Name != "Nimbus Bar 5000 - Mango Ice Frost" {
			t.Fatalf("renamed: %+v %v", p, err)
		}
		if got := e.stockOf(t, e.nyc)["NB5K-MANGO"]; got.Availability != inventory.OutOfStock || *got.Quantity != 0 {
			t.Fatalf("sold out: %+v", got)
		}
		// A day later the location is read whole again, so its rows are
		// reported again and never turn stale while Medusa is up.
		e.sync.Now = func() time.Time { return time.Now().Add(FullEvery + time.Minute) }
		rep = e.run(t)
		if rep.Stock != 2 {
			t.Fatalf("the daily full read: %+v", rep)
		}
	})
}

func TestSyncFailures(t *testing.T) {
	for _, mode := range []string{"hang", "500", "badjson"} {
		t.Run(mode, func(t *testing.T) {
			dbtest.Each(t, func(t *testing.T, d *db.DB) {
				ctx := context.Background()
				e := newEnv(t, d)
				e.fake.SetMode(mode)
				start := time.Now()
				ran, rep, err := e.sync.RunIfDue(ctx, 5*time.Minute)
				if !ran || err == nil {
					t.Fatalf("ran %v, err %v", ran, err)
				}
				// The client's timeout (2 s here) bounds a hanging server.
				if took := time.Since(start); took > 10*time.Second {
					t.Fatalf("a %s server held the run %v", mode, took)
				}
				switch mode {
				case "500":
					if !strings.Contains(err.Error(), "500") {
						t.Fatalf("error %v", err)
					}
				case "badjson":
					if !strings.Contains(err.Error(), "not the JSON expected") {
						t.Fatalf("error %v", err)
					}
				}
				if rep.Written != 0 {
					t.Fatalf("report %+v", rep)
				}
				st, err := e.sync.State(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if st.Failures != 1 || st.LastError == "" || st.NextAt == nil || st.NextAt.Before(time.Now().Add(MinBackoff-10*time.Second)) || st.Cursor != "" {
					t.Fatalf("state %+v", st)
				}
				// Not due again before the back-off, whatever the interval.
				if ran, _, err := e.sync.RunIfDue(ctx, time.Second); ran || err != nil {
					t.Fatalf("ran again at once: %v %v", ran, err)
				}
				// Medusa comes back: the next due run succeeds and clears the failures.
				e.fake.SetMode("")
				e.sync.Now = func() time.Time { return time.Now().Add(MinBackoff + time.Second) }
				ran, rep, err = e.sync.RunIfDue(ctx, 5*time.Minute)
				if !ran || err != nil || rep.Written != 2 {
					t.Fatalf("after recovery: %v %+v %v", ran, rep, err)
				}
				st, _ = e.sync.State(ctx)
				if st.Failures != 0 || st.LastError != "" || st.LastOKAt == nil {
					t.Fatalf("state after recovery %+v", st)
				}
			})
		})
	}
}

func TestBackoffDoubles(t *testing.T) {
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := Backoff(i + 1); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
}

func TestOneReplicaRunsAtOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		e.fake.SetMode("hang")
		done := make(chan bool)
		go func() {
			ran, _, _ := e.sync.RunIfDue(ctx, time.Minute)
			done <- ran
		}()
		// While the first replica's run hangs, the second's tick does nothing.
		deadline := time.Now().Add(5 * time.Second)
		for {
			var lease *time.Time
			var raw any
			if err := d.QueryRow(ctx, "SELECT lease_until FROM medusa_sync").Scan(&raw); err == nil && raw != nil {
				now := time.Now()
				lease = &now
			}
			if lease != nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		c, err := NewClient(Settings{URL: e.fake.URL, Email: medusatest.Email, Password: medusatest.Password, Timeout: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		other := NewSyncer(c, d, e.cat, e.stock)
		if ran, _, err := other.RunNow(ctx, time.Minute); ran || err != nil {
			t.Fatalf("a second replica ran beside the first: %v %v", ran, err)
		}
		if !<-done {
			t.Fatal("the first replica did not run")
		}
	})
}

func TestMappingAndProposals(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		if _, err := e.locs.Map(ctx, "sloc_01NYC", e.nyc, "mod"); err == nil || !strings.Contains(err.Error(), "run a sync first") {
			t.Fatalf("mapping an unknown location: %v", err)
		}
		e.run(t)
		// The same street address, written another way, comes first.
		ps, err := e.locs.Propose(ctx, "sloc_01NYC")
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 || ps[0].Store.ID != e.nyc || !ps[0].SameAddress {
			t.Fatalf("proposals: %+v", ps)
		}
		// With a geocoder, the Boston location proposes the store near its
		// postal code even though the addresses differ.
		e.locs.Geocode = func(zip, city, state, country string) (float64, float64, string, bool) {
			if zip == "02116" {
				return 42.3496, -71.0746, "postal_code", true
			}
			return 0, 0, "", false
		}
		ps, err = e.locs.Propose(ctx, "sloc_01BOS")
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 1 || ps[0].Store.ID != e.boston || ps[0].SameAddress || ps[0].DistanceKm == nil || *ps[0].DistanceKm > 2 {
			t.Fatalf("boston proposals: %+v", ps)
		}
		v, err := e.locs.Map(ctx, "sloc_01NYC", e.nyc, "mod@example.com")
		if err != nil || v.Store == nil || v.Store.Name != "Empire Vapes" || v.MappedBy != "mod@example.com" {
			t.Fatalf("mapped: %+v %v", v, err)
		}
		// One location per store.
		if _, err := e.locs.Map(ctx, "sloc_01BOS", e.nyc, "mod"); err == nil || !strings.Contains(err.Error(), "already mapped") {
			t.Fatalf("a second location on one store: %v", err)
		}
		if _, err := e.locs.Map(ctx, "sloc_01BOS", 999999, "mod"); err == nil || !strings.Contains(err.Error(), "no store") {
			t.Fatalf("an unknown store: %v", err)
		}
		// Unmapping stops its stock; mapping again reads it whole.
		e.run(t)
		if v, err = e.locs.Map(ctx, "sloc_01NYC", 0, "mod"); err != nil || v.Store != nil || v.StockAt != nil {
			t.Fatalf("unmapped: %+v %v", v, err)
		}
		if rep := e.run(t); rep.Mapped != 0 || rep.Stock != 0 {
			t.Fatalf("after unmapping: %+v", rep)
		}
	})
}

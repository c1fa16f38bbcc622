package seed_test

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/reviews"
	"locator/internal/seed"
	"locator/internal/storegen"
	"locator/internal/stores"
)

var (
	demoOnce sync.Once
	demo     storegen.Options
	demoErr  error
)

// demoOptions loads the embedded geodata once for all tests.
func demoOptions(t *testing.T, n int, seedValue uint64) storegen.Options {
	t.Helper()
	demoOnce.Do(func() { demo, demoErr = seed.Demo(1, 1) })
	if demoErr != nil {
		t.Fatalf("demo options: %v", demoErr)
	}
	o := demo
	o.Stores, o.Seed = n, seedValue
	return o
}

func generate(t *testing.T, o storegen.Options) ([]*stores.Store, [][]*reviews.Review) {
	t.Helper()
	ss, rs, err := storegen.Generate(o)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	return ss, rs
}

func TestSameSeedSameData(t *testing.T) {
	ss1, rs1 := generate(t, demoOptions(t, 2000, 7))
	ss2, rs2 := generate(t, demoOptions(t, 2000, 7))
	if !reflect.DeepEqual(ss1, ss2) || !reflect.DeepEqual(rs1, rs2) {
		t.Fatal("the same seed gave different data")
	}
	other, _ := generate(t, demoOptions(t, 2000, 8))
	if len(other) != len(ss1) {
		t.Fatalf("seed 8 gave %d stores, seed 7 %d", len(other), len(ss1))
	}
	moved := 0
	for i := range other {
		if other[i].StoreID != ss1[i].StoreID {
			t.Fatalf("store %d: store_id %q with seed 8, %q with seed 7", i, other[i].StoreID, ss1[i].StoreID)
		}
		if other[i].Latitude != ss1[i].Latitude {
			moved++
		}
	}
	if moved < len(other)*9/10 {
		t.Fatalf("another seed moved only %d of %d stores", moved, len(other))
	}
}

// The demo data looks like a real chain's: stores where people live,
// valid US addresses and zones, and the shares of phones, images,
// services, hours and reviews the generator intends.
func TestDemoDataIsRealistic(t *testing.T) {
	const n = 5000
	o := demoOptions(t, n, 1)
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	o.Now = now
	ss, rs := generate(t, o)
	if len(ss) != n || len(rs) != n {
		t.Fatalf("%d stores, %d review lists, want %d", len(ss), len(rs), n)
	}

	// Stores follow population: the largest city gets its share around
	// it (its stores take the postal city of where they land, so they are
	// counted within 40 km, three times its spread, of its centre, where
	// its neighbours' stores come on top).
	var total float64
	largest := o.Cities[0]
	for _, c := range o.Cities {
		total += float64(c.Population)
		if c.Population > largest.Population {
			largest = c
		}
	}
	want := n * float64(largest.Population) / total
	got := 0
	for _, s := range ss {
		if storegen.DistanceKm(s.Latitude, s.Longitude, largest.Lat, largest.Lon) <= 40 {
			got++
		}
	}
	if float64(got) < want*0.97 {
		t.Fatalf("%d stores within 40 km of %s, %s, want at least its %.1f by population", got, largest.Name, largest.State, want)
	}

	zip := regexp.MustCompile(`^\d{5}$`)
	count := map[string]int{}
	reviewsTotal := 0
	for i, s := range ss {
		if s.StoreID != fmt.Sprintf("st_%06d", i+1) {
			t.Fatalf("store %d has store_id %q", i, s.StoreID)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("store %s: %v", s.StoreID, err)
		}
		usZone := strings.HasPrefix(s.TimeZone, "America/") || strings.HasPrefix(s.TimeZone, "Pacific/")
		if s.Latitude < 17 || s.Latitude > 72 || s.Longitude < -180 || s.Longitude > -64 || len(s.State) != 2 ||
			!zip.MatchString(s.PostalCode) || !usZone {
			t.Fatalf("store %s is not a plausible US store: %+v", s.StoreID, s)
		}
		for flag, on := range map[string]bool{"phone": s.PhoneNumber != "", "image": s.Image != "", "delivery": s.Delivery,
			"order online": s.OrderOnline, "curbside": s.Curbside, "no hours": len(s.WorkingHours) == 0, "no reviews": len(rs[i]) == 0} {
			if on {
				count[flag]++
			}
		}
		var sum int64
		for _, r := range rs[i] {
			if r.Rating < 1 || r.Rating > 5 || r.Content == "" || !r.CreatedAt.Before(now) || r.CreatedAt.Before(now.AddDate(-1, 0, -1)) {
				t.Fatalf("store %s: implausible review %+v", s.StoreID, r)
			}
			sum += int64(r.Rating)
		}
		if s.ReviewCount != int64(len(rs[i])) || s.RatingSum != sum {
			t.Fatalf("store %s: review_count %d, rating_sum %d for %d reviews summing %d", s.StoreID, s.ReviewCount, s.RatingSum, len(rs[i]), sum)
		}
		reviewsTotal += len(rs[i])
	}
	// Intended shares (seed.go, hours.go), with room for chance.
	for flag, share := range map[string]float64{"phone": 0.92, "image": 0.65, "delivery": 0.40, "order online": 0.60,
		"curbside": 0.30, "no hours": 0.07, "no reviews": 0.26} {
		if got := float64(count[flag]) / n; got < share-0.04 || got > share+0.04 {
			t.Errorf("%s: %.3f of stores, want about %.2f", flag, got, share)
		}
	}
	if mean := float64(reviewsTotal) / n; mean < 4.4 || mean > 5.2 {
		t.Errorf("%.2f reviews a store, want about 4.8", mean)
	}
}

// Written to either engine, the data is all there and searchable; written
// a second time, the unique store ids refuse the first batch as a whole.
func TestWrite(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := demoOptions(t, 300, 1)
		sr := stores.NewRepo(d)
		rr := reviews.NewRepo(d, sr)
		res, err := seed.Write(ctx, sr, rr, o)
		dbtest.Must(t, err, "write")
		var nStores, nReviews, docs int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*), COUNT(CASE WHEN search_doc <> '' THEN 1 END) FROM stores").Scan(&nStores, &docs), "count stores")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM reviews").Scan(&nReviews), "count reviews")
		if res.Stores != 300 || nStores != 300 || docs != 300 || res.Reviews != nReviews || nReviews == 0 {
			t.Fatalf("wrote %+v; the database has %d stores (%d with a search document), %d reviews", res, nStores, docs, nReviews)
		}
		// Then the demo catalogue and its stock, through their owners.
		cat := catalog.NewRepo(d)
		nProducts, err := cat.Count(ctx)
		dbtest.Must(t, err, "count products")
		nStock, err := inventory.NewRepo(sr, cat).Count(ctx)
		dbtest.Must(t, err, "count stock")
		if res.Products != len(seed.DemoProducts(1)) || nProducts != res.Products || res.Stock == 0 || nStock != res.Stock {
			t.Fatalf("wrote %+v; the database has %d products, %d stock rows", res, nProducts, nStock)
		}
		p, err := cat.Get(ctx, seed.DemoProducts(1)[0].ProductID)
		dbtest.Must(t, err, "read a demo product")
		if g, err := cat.GetByGTIN(ctx, p.GTIN[1:]); err != nil || g.ProductID != p.ProductID {
			t.Fatalf("the product's EAN-13 finds %+v, %v", g, err)
		}

		again, err := seed.Write(ctx, sr, rr, demoOptions(t, 300, 2))
		if !db.UniqueViolation(err) || again.Stores != 0 {
			t.Fatalf("second write: %+v, %v; want nothing written and a unique violation", again, err)
		}
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM stores").Scan(&nStores), "count stores")
		if nStores != 300 {
			t.Fatalf("%d stores after the refused second write", nStores)
		}
	})
}

// A new user meets every status: holiday closures and short hours, stores
// closed for a while and a few closed for good, in the intended shares.
func TestDemoExceptions(t *testing.T) {
	const n = 5000
	o := demoOptions(t, n, 1)
	o.HolidaysFrom = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	ss, _ := generate(t, o)
	var thanksgiving, shortJuly4, temporary, untilNotice, permanent int
	for _, s := range ss {
		if err := s.Validate(); err != nil {
			t.Fatalf("store %s: %v", s.StoreID, err)
		}
		for _, h := range s.SpecialHours {
			if h.Date < "2026-11-01" || h.Date >= "2027-11-01" {
				t.Fatalf("store %s: special date %s outside the twelve months", s.StoreID, h.Date)
			}
			if h.Date == "2026-11-26" && h.Closed && h.Note == "Thanksgiving" {
				thanksgiving++
			}
			if h.Date == "2027-07-04" && h.Start == "10:00" {
				shortJuly4++
			}
		}
		if c := s.TemporarilyClosed; c != nil {
			temporary++
			if c.Until == "" {
				untilNotice++
			}
		}
		if s.PermanentlyClosed {
			permanent++
		}
	}
	within := func(name string, got, lo, hi int) {
		if got < lo || got > hi {
			t.Errorf("%s: %d of %d stores, want %d-%d", name, got, n, lo, hi)
		}
	}
	within("closed on Thanksgiving", thanksgiving, n*65/100, n*75/100) // 55% + 15%
	within("short hours on July 4", shortJuly4, n*50/100, n*60/100)
	within("temporarily closed", temporary, n*12/1000, n*28/1000)
	within("until further notice", untilNotice, 1, temporary/2)
	within("permanently closed", permanent, n*2/1000, n*10/1000)

	// Deterministic for a given date; another date moves the holidays.
	again, _ := generate(t, o)
	if !reflect.DeepEqual(again, ss) {
		t.Fatal("the same seed date gave different exceptions")
	}
	o.HolidaysFrom = time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	later, _ := generate(t, o)
	for _, s := range later {
		for _, h := range s.SpecialHours {
			if h.Date == "2026-11-26" {
				t.Fatal("a holiday before the seed date")
			}
		}
	}
}

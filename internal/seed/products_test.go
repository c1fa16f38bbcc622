package seed_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/golden"
	"locator/internal/inventory"
	"locator/internal/seed"
)

// demoNow is the seeding time of the tests' stock.
var demoNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// TestDemoProductsUnchanged compares the demo catalogue and the stock of
// the 2,000-store demo data (seed 1) with testdata/products.golden: every
// 10th product in clear, every product's digest, and the stock's count
// and digest, so that `locator seed --demo` gives the same products and
// shelves from release to release unless a change means to alter them.
// go test ./internal/seed -run TestDemoProductsUnchanged -update rewrites it.
func TestDemoProductsUnchanged(t *testing.T) {
	ps := seed.DemoProducts(1)
	ss, _ := generate(t, demoOptions(t, 2000, 1))
	stock := seed.MakeDemoStock(ss, ps, demoNow, 1)
	var b strings.Builder
	all := sha256.New()
	for i, p := range ps {
		d := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%t|%t|%s|%s|%s", p.ProductID, p.GTIN, p.Brand, p.Name, p.Kind, p.Flavour,
			p.NicotineText(), p.IsZeroNicApplicable, p.IsCBDApplicable, p.Image, p.Handle, p.FDAStatus)
		all.Write([]byte(d + "\n"))
		if i%10 == 0 {
			fmt.Fprintln(&b, d)
		}
	}
	fmt.Fprintf(&b, "all %d products\t%x\n", len(ps), all.Sum(nil))
	all.Reset()
	for _, s := range stock {
		w := s.Row
		fmt.Fprintf(all, "%s|%s|%s|%s|%s|%s|%s\n", ss[s.Store].StoreID, ps[s.Product].ProductID, w.Availability,
			optInt(w.Quantity), optPrice(w.Price), optPrice(w.SalePrice), w.ReportedAt.Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "stock of 2000 stores: %d rows\t%x\n", len(stock), all.Sum(nil))
	golden.Compare(t, "testdata/products.golden", []byte(b.String()))
}

func optInt(v *int64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}

func optPrice(p *inventory.Price) string {
	if p == nil {
		return "-"
	}
	return p.String()
}

// The demo catalogue has what the product pages and the law need to show:
// invented brands, every kind and flavour family, valid demo GTINs,
// strengths with their units, unique handles, a few FDA orders; each
// product passes the catalogue's own rules.
func TestDemoCatalogueTellsTheStory(t *testing.T) {
	ps := seed.DemoProducts(1)
	if len(ps) < 250 || len(ps) > 400 {
		t.Fatalf("%d products, want a few hundred", len(ps))
	}
	brands, kinds, flavours, units, fda := map[string]int{}, map[catalog.Kind]int{}, map[catalog.Flavour]int{}, map[catalog.Unit]int{}, map[catalog.FDAStatus]int{}
	ids, gtins, handles := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, p := range ps {
		c, err := catalog.Check(p)
		if err != nil {
			t.Fatalf("product %s breaks the catalogue's rules: %v", p.ProductID, err)
		}
		if c.GTIN != p.GTIN || c.Kind != p.Kind || c.NicotineText() != p.NicotineText() {
			t.Errorf("product %s reads back as %+v", p.ProductID, c)
		}
		if !strings.HasPrefix(p.GTIN, "0299") || len(p.GTIN) != 14 {
			t.Errorf("product %s: GTIN %s is not a demo GTIN-14 (0299...)", p.ProductID, p.GTIN)
		}
		if ids[p.ProductID] || gtins[p.GTIN] || handles[p.Handle] || p.Handle == "" {
			t.Errorf("product %s: id, GTIN or handle %q given twice or empty", p.ProductID, p.Handle)
		}
		ids[p.ProductID], gtins[p.GTIN], handles[p.Handle] = true, true, true
		brands[p.Brand]++
		kinds[p.Kind]++
		flavours[p.Flavour]++
		fda[p.FDAStatus]++
		if p.Nicotine != nil {
			units[p.NicotineUnit]++
		}
	}
	if len(brands) < 25 || len(brands) > 40 {
		t.Errorf("%d brands, want about 30", len(brands))
	}
	for _, k := range catalog.Kinds {
		if kinds[k] == 0 {
			t.Errorf("no product of kind %s", k)
		}
	}
	for _, f := range catalog.Flavours {
		if flavours[f] == 0 {
			t.Errorf("no product of flavour family %s", f)
		}
	}
	for _, u := range []catalog.Unit{catalog.MgPerML, catalog.Percent, catalog.MgPerPouch} {
		if units[u] == 0 {
			t.Errorf("no strength in %s", u)
		}
	}
	if fda[catalog.FDANone] < len(ps)*3/4 || fda[catalog.FDAAuthorised] == 0 || fda[catalog.FDADenied] == 0 || fda[catalog.FDAPending] == 0 {
		t.Errorf("FDA statuses %v: want mostly none and some of each other", fda)
	}
}

// The demo stores' shelves: 20 to 150 products a carrying store, every
// availability, prices in USD with some sales below the price, reports
// over the last 10 days (some stale), and flavoured products on the
// shelves of New York City, New Jersey and Massachusetts, where the
// rulebook forbids them (what the law's part of the demo shows).
func TestDemoStockTellsTheStory(t *testing.T) {
	ps := seed.DemoProducts(1)
	ss, _ := generate(t, demoOptions(t, 2000, 1))
	stock := seed.MakeDemoStock(ss, ps, demoNow, 1)
	perStore := map[int]int{}
	avail := map[inventory.Availability]int{}
	var stale, sales, noQty int
	flavouredIn := map[string]int{}
	for _, s := range stock {
		w := s.Row
		perStore[s.Store]++
		avail[w.Availability]++
		age := demoNow.Sub(w.ReportedAt)
		if age < 0 || age > 10*24*time.Hour+6*time.Hour {
			t.Fatalf("row reported %v before now", age)
		}
		if age > seed.StaleAfter {
			stale++
		}
		if w.Price == nil || w.Price.Currency != "USD" || w.Price.Amount <= 0 {
			t.Fatalf("row without a USD price: %+v", w)
		}
		if w.SalePrice != nil {
			sales++
			if w.SalePrice.Amount >= w.Price.Amount || w.SalePrice.Currency != "USD" {
				t.Fatalf("sale price %v not below %v", *w.SalePrice, *w.Price)
			}
		}
		if w.Quantity == nil {
			noQty++
		}
		st := ss[s.Store]
		if f := ps[s.Product].Flavour; f != catalog.Tobacco && f != catalog.Unflavoured && f != catalog.Menthol {
			switch {
			case st.State == "NJ" || st.State == "MA":
				flavouredIn[st.State]++
			case st.State == "NY" && (st.City == "New York" || st.City == "Brooklyn" || st.City == "Bronx" || st.City == "Staten Island"):
				flavouredIn["NYC"]++
			}
		}
	}
	for i, n := range perStore {
		if n < 20 || n > 150 {
			t.Errorf("store %s carries %d products, want 20 to 150", ss[i].StoreID, n)
		}
	}
	if len(perStore) < len(ss)/12 || len(perStore) > len(ss)/2 {
		t.Errorf("%d of %d stores carry products", len(perStore), len(ss))
	}
	for _, a := range inventory.Availabilities {
		if avail[a] == 0 {
			t.Errorf("no row %s", a)
		}
	}
	if avail[inventory.InStock] < len(stock)/2 {
		t.Errorf("availabilities %v: want mostly in stock", avail)
	}
	if stale < len(stock)/10 || stale > len(stock)/2 {
		t.Errorf("%d of %d rows stale, want some", stale, len(stock))
	}
	if sales < len(stock)/20 || noQty == 0 {
		t.Errorf("%d rows on sale, %d without a quantity, of %d", sales, noQty, len(stock))
	}
	for _, where := range []string{"NYC", "NJ", "MA"} {
		if flavouredIn[where] < 20 {
			t.Errorf("%d flavoured stock rows in %s, want many", flavouredIn[where], where)
		}
	}
}

package storepages

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog"
	"locator/internal/golden"
	"locator/internal/inventory"
	"locator/internal/search"
	"locator/internal/stores"
)

func f64(v float64) *float64 { return &v }

// fixtureProducts: a fruit disposable (forbidden in New York's stores), a
// tobacco pod (lawful everywhere) and an accessory without a handle.
func fixtureProducts() []*catalog.Product {
	up := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	return []*catalog.Product{
		{ID: 1, ProductID: "nx-mango-5", GTIN: "00840000100016", Brand: "Nimbus", Name: "Nimbus Bar 5000, Mango Ice", Kind: catalog.Disposable,
			Flavour: catalog.Fruit, Nicotine: f64(50), NicotineUnit: catalog.MgPerML, Image: "https://cdn.example.com/nimbus-mango.jpg",
			Handle: "nimbus-bar-5000-mango-ice", FDAStatus: catalog.FDANone, UpdatedAt: up},
		{ID: 2, ProductID: "kp-classic-5", GTIN: "04000001000012", Brand: "Kestrel", Name: "Kestrel Pods Classic Tobacco (4 pack)", Kind: catalog.Pods,
			Flavour: catalog.Tobacco, Nicotine: f64(5), NicotineUnit: catalog.Percent, Handle: "kestrel-pods-classic-tobacco", FDAStatus: catalog.FDAAuthorised, UpdatedAt: up},
		{ID: 3, ProductID: "coil-mesh-08", Brand: "Kestrel", Name: "Kestrel Mesh Coil 0.8 ohm (5 pack)", Kind: catalog.Accessory,
			Flavour: catalog.Unflavoured, FDAStatus: catalog.FDANone, UpdatedAt: up},
	}
}

// austin is a store in Texas, where no rule of the book forbids the
// fruit disposable.
func austin() *stores.Store {
	s := fixtureStores()[3]
	s.ID, s.StoreID, s.Name, s.City, s.State, s.PostalCode = 40, "st-austin", "Austin Vapes", "Austin", "TX", "78701"
	s.Latitude, s.Longitude, s.TimeZone = 30.2672, -97.7431, "America/Chicago"
	return s
}

// stockRow is a stock entry reported ago before fixedNow.
func stockRow(store, product int64, avail inventory.Availability, qty, price, sale int64, ago time.Duration) inventory.Entry {
	cur := ""
	if price >= 0 || sale >= 0 {
		cur = "USD"
	}
	return inventory.Entry{StoreID: store, ProductID: product, Availability: avail, Quantity: qty, Price: price, SalePrice: sale,
		Currency: cur, ReportedAt: fixedNow.Add(-ago).Truncate(time.Second)}
}

// productPages are the fixture stores and Austin with the fixture
// catalogue and stock: Manhattan carries all three, Austin the disposable.
func productPages(t testing.TB) (*Pages, *search.Index) {
	t.Helper()
	p, ix := newPages(t, append(fixtureStores(), austin()))
	ix.Products().SetCatalog(search.NewCatalog(fixtureProducts()))
	rows := []inventory.Entry{
		stockRow(40, 1, inventory.InStock, 12, 2199, 1899, 2*time.Hour+5*time.Minute),
		stockRow(3613, 1, inventory.InStock, 30, 2199, -1, time.Hour),
		stockRow(3613, 2, inventory.LimitedAvailability, 2, 949, -1, 25*time.Minute),
		stockRow(3613, 3, inventory.OutOfStock, 0, -1, -1, 10*24*time.Hour),
	}
	ix.Products().ApplyStores([]int64{40, 3613}, rows)
	return p, ix
}

// ldOf returns the page's JSON-LD blocks.
func ldOf(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range regexp.MustCompile(`<script type="application/ld\+json">([\s\S]*?)</script>`).FindAllStringSubmatch(body, -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("JSON-LD: %v\n%s", err, m[1])
		}
		out = append(out, v)
	}
	return out
}

// A store page lists what the store carries by kind, each line as the
// app's panel: availability, price (a sale with the price before),
// "updated ..." or "last reported ..." for a stale row, and "Not sold here
// by law" with the citation where the law forbids it (never "In stock"
// then). The JSON-LD has an Offer per lawful product with schema.org's
// ItemAvailability (none for the stale row's), and none for the forbidden one.
func TestStorePageListsProductsWithOffers(t *testing.T) {
	t.Parallel()
	p, _ := productPages(t)
	h := p.handler()
	rec := get(t, h, "/stores/ny/new-york/manhattan-vape-shop-3613")
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	golden.Compare(t, filepath.Join("testdata", "store-products.html.golden"), rec.Body.Bytes())
	for _, want := range []string{
		"<h3>Disposables (1)</h3>", "<h3>Pods and cartridges (1)</h3>", "<h3>Accessories (1)</h3>",
		`<a href="/products/nimbus-bar-5000-mango-ice">Nimbus Bar 5000, Mango Ice</a> <span class="muted">Nimbus · Disposable · 50 mg/mL</span><br>
<strong>Not sold here by law</strong> · <a href="https://www.nysenate.gov/legislation/laws/PBH/1399-MM-1" rel="noopener">NY Public Health Law 1399-mm-1</a></li>`,
		`<strong>Limited</strong> · $9.49 · <span class="muted">updated 25 min ago</span>`,
		`<a href="/products/coil-mesh-08">`, `<strong>Out of stock</strong> · <span class="muted">last reported 10 days ago</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(body, "$21.99") || strings.Contains(body, "In stock") {
		t.Error("a forbidden product shows its stock or price")
	}
	offers, _ := ldOf(t, body)[0]["makesOffer"].([]any)
	if len(offers) != 2 {
		t.Fatalf("offers: %v", offers)
	}
	pods, coil := offers[0].(map[string]any), offers[1].(map[string]any)
	item := pods["itemOffered"].(map[string]any)
	if pods["@type"] != "Offer" || pods["availability"] != "https://schema.org/LimitedAvailability" || pods["price"] != 9.49 || pods["priceCurrency"] != "USD" ||
		item["@type"] != "Product" || item["name"] != "Kestrel Pods Classic Tobacco (4 pack)" || item["gtin"] != "04000001000012" ||
		item["brand"].(map[string]any)["name"] != "Kestrel" || item["url"] != "https://locator.example/products/kestrel-pods-classic-tobacco" {
		t.Errorf("the pods' offer: %v", pods)
	}
	if _, ok := coil["availability"]; ok || coil["price"] != nil {
		t.Errorf("the stale row's offer claims an availability or a price: %v", coil)
	}

	// In Texas the disposable is lawful: in stock, on sale.
	body = get(t, h, "/stores/tx/austin/austin-vapes-40").Body.String()
	if want := `<strong>In stock</strong> · $18.99 <span class="muted">was <s>$21.99</s></span> · <span class="muted">updated 2 h ago</span>`; !strings.Contains(body, want) {
		t.Errorf("Austin lacks %q:\n%s", want, body)
	}
	offers, _ = ldOf(t, body)[0]["makesOffer"].([]any)
	if len(offers) != 1 || offers[0].(map[string]any)["availability"] != "https://schema.org/InStock" || offers[0].(map[string]any)["price"] != 18.99 ||
		offers[0].(map[string]any)["itemOffered"].(map[string]any)["image"] != "https://cdn.example.com/nimbus-mango.jpg" {
		t.Errorf("Austin's offers: %v", offers)
	}
	// A store carrying nothing has no products section and no offers.
	if body := get(t, h, "/stores/nj/hoboken/hoboken-vapes-4").Body.String(); strings.Contains(body, "<h2>Products</h2>") || strings.Contains(body, "makesOffer") {
		t.Error("a store without stock lists products")
	}
}

// A stock change reaches the cached page at once (the index's product
// generation is part of the cache's clock), and the "updated ..." text
// moves with time without any change.
func TestStorePageFollowsStock(t *testing.T) {
	t.Parallel()
	p, ix := productPages(t)
	h := p.handler()
	path := "/stores/tx/austin/austin-vapes-40"
	first := get(t, h, path)
	etag := first.Header().Get("ETag")
	if rec := get(t, h, path, "If-None-Match", etag); rec.Code != http.StatusNotModified {
		t.Fatalf("revalidation: %d", rec.Code)
	}
	ix.Products().ApplyStores([]int64{40}, []inventory.Entry{stockRow(40, 1, inventory.OutOfStock, 0, 2199, -1, 0)})
	rec := get(t, h, path, "If-None-Match", etag)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<strong>Out of stock</strong> · $21.99 · <span class="muted">updated just now</span>`) {
		t.Fatalf("after the change: %d\n%s", rec.Code, rec.Body)
	}
	if lm, _ := http.ParseTime(rec.Header().Get("Last-Modified")); !lm.Equal(fixedNow.Truncate(time.Second)) {
		t.Errorf("Last-Modified %s, want the report's %s", rec.Header().Get("Last-Modified"), fixedNow)
	}
	ix.Products().ApplyStores([]int64{40}, nil)
	if body := get(t, h, path).Body.String(); strings.Contains(body, "<h2>Products</h2>") {
		t.Error("a removed row still shows")
	}

	// Time alone: the same stock reads "updated 1 min ago" a minute later.
	now := fixedNow
	p.opt.Now = func() time.Time { return now }
	ix.Products().ApplyStores([]int64{40}, []inventory.Entry{stockRow(40, 2, inventory.InStock, -1, -1, -1, 0)})
	if body := get(t, h, path).Body.String(); !strings.Contains(body, "updated just now") {
		t.Fatal("not just now")
	}
	now = fixedNow.Add(61 * time.Second)
	if body := get(t, h, path).Body.String(); !strings.Contains(body, "updated 1 min ago") {
		t.Errorf("a minute later the cached page still reads:\n%s", body)
	}
}

func TestReportedText(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		age          time.Duration
		text         string
		since, until time.Duration // from at
	}{
		{0, "updated just now", 0, time.Minute},
		{-time.Hour, "updated just now", 0, time.Minute}, // reported in the future: now
		{90 * time.Second, "updated 1 min ago", time.Minute, 2 * time.Minute},
		{59*time.Minute + 59*time.Second, "updated 59 min ago", 59 * time.Minute, time.Hour},
		{47*time.Hour + 30*time.Minute, "updated 47 h ago", 47 * time.Hour, 48 * time.Hour},
		{48 * time.Hour, "updated 2 days ago", 48 * time.Hour, 72 * time.Hour},
		{6*24*time.Hour + time.Hour, "updated 6 days ago", 6 * 24 * time.Hour, 7 * 24 * time.Hour},
		{7 * 24 * time.Hour, "updated 7 days ago", 7 * 24 * time.Hour, 7*24*time.Hour + time.Nanosecond},
		{7*24*time.Hour + time.Second, "last reported 7 days ago", 7*24*time.Hour + time.Nanosecond, 8 * 24 * time.Hour},
		{9*24*time.Hour + time.Hour, "last reported 9 days ago", 9 * 24 * time.Hour, 10 * 24 * time.Hour},
	} {
		text, since, until := reportedText(at, at.Add(c.age))
		if text != c.text || !since.Equal(at.Add(c.since)) || !until.Equal(at.Add(c.until)) {
			t.Errorf("age %s: %q [%s, %s), want %q [%s, %s)", c.age, text, since.Sub(at), until.Sub(at), c.text, c.since, c.until)
		}
	}
}

// A product page shows the product, the places whose law forbids it in
// stores (with citations), and the stores carrying it by state, linked;
// its JSON-LD is a Product with an AggregateOffer of the lawful offers.
// It is reached by handle; an id or GTIN redirects to it; a product
// without a handle has its id as address; anything else is the 404 page.
func TestProductPage(t *testing.T) {
	t.Parallel()
	p, _ := productPages(t)
	h := p.handler()
	rec := get(t, h, "/products/nimbus-bar-5000-mango-ice")
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	golden.Compare(t, filepath.Join("testdata", "product.html.golden"), rec.Body.Bytes())
	for _, want := range []string{
		"<h1>Nimbus Bar 5000, Mango Ice</h1>", "<td>Fruit</td>", "<td>50 mg/mL</td>", "<td>00840000100016</td>", "No marketing order known",
		`<strong>New York State</strong>: Flavoured vapes aren&#39;t sold in stores in New York<br><span class="muted"><a href="https://www.nysenate.gov/legislation/laws/PBH/1399-MM-1" rel="noopener">NY Public Health Law 1399-mm-1</a>`,
		"<strong>California</strong>", "<strong>Massachusetts</strong>", "<strong>New Jersey</strong>",
		"Carried by 2 stores; the law lets 1 of them sell it.",
		`<h3><a href="/stores/ny">New York</a> (1)</h3>`, `<a href="/stores/ny/new-york/manhattan-vape-shop-3613">Manhattan Vape Shop</a>`,
		`<h3><a href="/stores/tx">Texas</a> (1)</h3>`, `<strong>In stock</strong> · $18.99`,
		`<link rel="canonical" href="https://locator.example/products/nimbus-bar-5000-mango-ice">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	ld := ldOf(t, body)
	if len(ld) != 2 || ld[0]["@type"] != "Product" || ld[0]["gtin"] != "00840000100016" || ld[0]["image"] != "https://cdn.example.com/nimbus-mango.jpg" ||
		ld[1]["@type"] != "BreadcrumbList" {
		t.Fatalf("JSON-LD: %v", ld)
	}
	if agg := ld[0]["offers"].(map[string]any); agg["@type"] != "AggregateOffer" || agg["offerCount"] != 1.0 || agg["lowPrice"] != 18.99 || agg["highPrice"] != 18.99 {
		t.Errorf("offers: %v", agg)
	}

	// The tobacco pod: no restriction anywhere.
	body = get(t, h, "/products/kestrel-pods-classic-tobacco").Body.String()
	if !strings.Contains(body, "name no place that forbids it") || !strings.Contains(body, "Marketing granted order (authorised)") {
		t.Errorf("the pod's page:\n%s", body)
	}
	for path, to := range map[string]string{
		"/products/nx-mango-5":                 "/products/nimbus-bar-5000-mango-ice",
		"/products/840000100016":               "/products/nimbus-bar-5000-mango-ice",
		"/products/nimbus-bar-5000-mango-ice/": "/products/nimbus-bar-5000-mango-ice",
	} {
		if rec := get(t, h, path); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != to {
			t.Errorf("%s: %d to %q, want 301 to %s", path, rec.Code, rec.Header().Get("Location"), to)
		}
	}
	rec = get(t, h, "/products/coil-mesh-08")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Carried by 1 store;") {
		t.Errorf("the coil's page: %d", rec.Code)
	}
	// Without a lawful priced offer a Product block would be an invalid
	// item for search engines: the page has only its breadcrumb.
	if ld := ldOf(t, rec.Body.String()); len(ld) != 1 || ld[0]["@type"] != "BreadcrumbList" {
		t.Errorf("the coil's JSON-LD: %v", ld)
	}
	for _, path := range []string{"/products/", "/products/no-such", "/products/a/b", "/products/" + strings.Repeat("x", 300), "/products/%ff", "/products/..%2f"} {
		if rec := get(t, h, path); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "Page not found") {
			t.Errorf("%s: %d", path, rec.Code)
		}
	}
}

// The sitemap index names the product sitemaps, which list every product
// page once with its last edit; past the last one is 404.
func TestProductSitemaps(t *testing.T) {
	p, _ := productPages(t)
	h := p.handler()
	index := get(t, h, "/sitemap.xml").Body.String()
	if !strings.Contains(index, "<loc>https://locator.example/sitemaps/products-1.xml</loc>") || strings.Contains(index, "products-2") {
		t.Fatalf("index:\n%s", index)
	}
	body := get(t, h, "/sitemaps/products-1.xml").Body.String()
	for _, want := range []string{
		"<url><loc>https://locator.example/products/nimbus-bar-5000-mango-ice</loc><lastmod>2026-02-01T09:00:00Z</lastmod></url>",
		"<loc>https://locator.example/products/kestrel-pods-classic-tobacco</loc>", "<loc>https://locator.example/products/coil-mesh-08</loc>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("products-1.xml lacks %q:\n%s", want, body)
		}
	}
	if n := strings.Count(body, "<url>"); n != 3 {
		t.Errorf("%d URLs, want 3", n)
	}
	if rec := get(t, h, "/sitemaps/products-2.xml"); rec.Code != http.StatusNotFound {
		t.Errorf("products-2.xml: %d", rec.Code)
	}
	// No catalogue: no product sitemap.
	empty, _ := newPages(t, fixtureStores())
	if index := get(t, empty.handler(), "/sitemap.xml").Body.String(); strings.Contains(index, "products-") {
		t.Errorf("an empty catalogue's index names product sitemaps:\n%s", index)
	}
}

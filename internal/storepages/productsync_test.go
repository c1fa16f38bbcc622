package storepages

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"locator/internal/catalog/catalogtest"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/search"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// The pages from the database on both engines: the catalogue file and
// stock written through inventory.Repo reach the store pages, the
// product page and the sitemap after the syncer's load, and an owner's
// change (inventory.Repo.Set, which stamps the store) after one poll.
func TestProductPagesFollowTheDatabase(t *testing.T) {
	t.Parallel()
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		mk := func(name, city, state, zip string, lat, lon float64) *stores.Store {
			s := storestest.CloudNine()
			s.Name, s.StoreID, s.City, s.State, s.PostalCode, s.CountryCode = name, "st-"+zip, city, state, zip, "US"
			s.Latitude, s.Longitude = lat, lon
			dbtest.Must(t, repo.Create(ctx, s), "create %s", name)
			return s
		}
		ny := mk("Midtown Vapes", "New York", "NY", "10001", 40.75, -73.99)
		tx := mk("Austin Vapes", "Austin", "TX", "78701", 30.27, -97.74)
		cat := catalogtest.Imported(t, d)
		stock := inventory.NewRepo(repo, cat)
		idx, err := cat.Index(ctx)
		dbtest.Must(t, err, "catalogue index")
		mango, _, _ := idx.ByID("nx-mango-5")
		reported := time.Now().Add(-3 * time.Hour).UTC().Truncate(time.Second)
		for _, s := range []*stores.Store{ny, tx} {
			dbtest.Must(t, stock.Set(ctx, s.ID, mango, inventory.Row{Availability: inventory.InStock, Price: &inventory.Price{Amount: 2199, Currency: "USD"}, ReportedAt: reported}), "stock")
		}
		ix := search.NewIndex()
		sy := search.NewSyncer(repo, ix, search.SnapshotOff, quiet).WithProducts(stock, cat, productlaw.NewRepo(d))
		dbtest.Must(t, sy.Load(ctx), "load")
		h := New(ix, Options{PublicURL: "https://locator.example", Log: quiet}).handler()

		nyPage := get(t, h, Path(ny.State, ny.City, ny.Name, ny.ID)).Body.String()
		if !strings.Contains(nyPage, "<strong>Not sold here by law</strong> · <a href=\"https://www.nysenate.gov/legislation/laws/PBH/1399-MM-1\"") ||
			strings.Contains(nyPage, "makesOffer") {
			t.Errorf("New York's page:\n%s", nyPage)
		}
		txPath := Path(tx.State, tx.City, tx.Name, tx.ID)
		txPage := get(t, h, txPath).Body.String()
		if !strings.Contains(txPage, "<strong>In stock</strong> · $21.99 · <span class=\"muted\">updated 3 h ago</span>") ||
			!strings.Contains(txPage, `"makesOffer":[{"@type":"Offer","price":21.99,"priceCurrency":"USD","availability":"https://schema.org/InStock"`) {
			t.Errorf("Austin's page:\n%s", txPage)
		}
		product := get(t, h, "/products/nimbus-bar-5000-mango-ice")
		if product.Code != http.StatusOK || !strings.Contains(product.Body.String(), "Carried by 2 stores; the law lets 1 of them sell it.") ||
			!strings.Contains(product.Body.String(), `<a href="`+txPath+`">Austin Vapes</a>`) {
			t.Errorf("the product page: %d\n%s", product.Code, product.Body)
		}
		seen, _ := readSitemaps(t, h)
		if seen["https://locator.example/products/nimbus-bar-5000-mango-ice"] != 1 || seen["https://locator.example/products/kestrel-mesh-coil-08"] != 1 {
			t.Errorf("the sitemaps lack product pages: %v", seen)
		}

		// An owner marks it out of stock: one poll later the page says so.
		dbtest.Must(t, stock.Set(ctx, tx.ID, mango, inventory.Row{Availability: inventory.OutOfStock}), "out of stock")
		dbtest.Must(t, sy.Poll(ctx), "poll")
		if txPage := get(t, h, txPath).Body.String(); !strings.Contains(txPage, "<strong>Out of stock</strong> · <span class=\"muted\">updated just now</span>") ||
			!strings.Contains(txPage, "https://schema.org/OutOfStock") {
			t.Errorf("after the change, Austin's page:\n%s", txPage)
		}
	})
}

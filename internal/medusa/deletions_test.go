package medusa

import (
	"context"
	"strings"
	"testing"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/medusa/medusatest"
)

// TestSyncMirrorsDeletions deletes a stock location, a variant and a
// product in Medusa: the sync's stock rows of each leave the stores, a
// catalogue product no stock names any more leaves the catalogue, one an
// owner still stocks stays, and the owner's row is never touched.
func TestSyncMirrorsDeletions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		e.run(t)
		for loc, store := range map[string]int64{"sloc_01NYC": e.nyc, "sloc_01BOS": e.boston} {
			if _, err := e.locs.Map(ctx, loc, store, "mod"); err != nil {
				t.Fatal(err)
			}
		}
		if rep := e.run(t); rep.Stock != 3 || rep.Withdrawn != 0 || rep.LocationsGone != 0 {
			t.Fatalf("mapped run: %+v", rep)
		}
		// An owner in Boston stocks Kestrel themselves.
		kestrel, err := e.cat.Get(ctx, "variant_01KESTREL")
		dbtest.Must(t, err, "kestrel")
		nine := int64(9)
		dbtest.Must(t, e.stock.Set(ctx, e.boston, kestrel.ID, inventory.Row{Availability: inventory.InStock, Quantity: &nine}), "owner's row")

		// The Boston location is deleted in Medusa: flagged, still mapped,
		// its stock rows gone, the owner's row kept.
		e.fake.DeleteLocation("sloc_01BOS")
		rep := e.run(t)
		if rep.LocationsGone != 1 || rep.StockRemoved != 1 || rep.Mapped != 1 || rep.Withdrawn != 0 {
			t.Fatalf("location deleted: %+v", rep)
		}
		boston := e.stockOf(t, e.boston)
		if len(boston) != 1 || boston["variant_01KESTREL"].Quantity == nil || *boston["variant_01KESTREL"].Quantity != 9 {
			t.Fatalf("Boston's stock after its location went: %+v", boston)
		}
		views, err := e.locs.List(ctx)
		dbtest.Must(t, err, "locations")
		for _, v := range views {
			if gone := v.GoneAt != nil; gone != (v.ID == "sloc_01BOS") || v.Store == nil {
				t.Fatalf("location %s: gone %v, store %+v", v.ID, v.GoneAt, v.Store)
			}
		}
		if rep := e.run(t); rep.LocationsGone != 0 || rep.StockRemoved != 0 {
			t.Fatalf("a gone location counted twice: %+v", rep)
		}

		// A variant deleted: its rows leave New York, and the catalogue
		// product, which no stock names any more, leaves the catalogue.
		before, err := e.stock.Version(ctx)
		dbtest.Must(t, err, "version")
		e.fake.DeleteVariant("variant_01MANGO", "2026-12-01T09:00:00.000Z")
		rep = e.run(t)
		if rep.Withdrawn != 1 || rep.StockRemoved != 1 || rep.ProductsRemoved != 1 || rep.Cursor != "2026-12-01T09:00:00.000Z" {
			t.Fatalf("variant deleted: %+v", rep)
		}
		if _, err := e.cat.Get(ctx, "NB5K-MANGO"); !catalog.IsNotFound(err) {
			t.Fatalf("the deleted variant's product is still in the catalogue: %v", err)
		}
		nyc := e.stockOf(t, e.nyc)
		if _, ok := nyc["NB5K-MANGO"]; ok || len(nyc) != 1 {
			t.Fatalf("New York's stock: %+v", nyc)
		}
		changed, _, err := e.stock.ChangedStores(ctx, before)
		if err != nil || len(changed) != 1 || changed[0] != e.nyc {
			t.Fatalf("stamped stores %v %v", changed, err)
		}

		// A product deleted (its variants with it): its row leaves New
		// York; the Boston owner still stocks it, so it stays in the
		// catalogue and the owner's row stays as written.
		e.fake.DeleteProduct("prod_01KESTREL", "2026-12-01T10:00:00.000Z")
		rep = e.run(t)
		if rep.Withdrawn != 1 || rep.StockRemoved != 1 || rep.ProductsRemoved != 0 || rep.Stock != 0 {
			t.Fatalf("product deleted: %+v", rep)
		}
		if len(e.stockOf(t, e.nyc)) != 0 {
			t.Fatalf("New York's stock: %+v", e.stockOf(t, e.nyc))
		}
		if r := e.stockOf(t, e.boston)["variant_01KESTREL"]; r.Quantity == nil || *r.Quantity != 9 || r.Availability != inventory.InStock {
			t.Fatalf("the owner's row: %+v", r)
		}
		if _, err := e.cat.Get(ctx, "variant_01KESTREL"); err != nil {
			t.Fatalf("a product an owner stocks left the catalogue: %v", err)
		}
		st, err := e.sync.State(ctx)
		dbtest.Must(t, err, "state")
		if st.LastWithdrawn != 1 || st.LastStockRemoved != 1 || st.LastProductsRemoved != 0 || st.LastLocationsGone != 0 {
			t.Fatalf("state: %+v", st)
		}
		// Deletions are read from the cursor less the overlap, with_deleted.
		e.fake.ClearCalls()
		if rep := e.run(t); rep.Withdrawn != 0 || rep.StockRemoved != 0 || rep.ProductsRemoved != 0 {
			t.Fatalf("deletions applied twice: %+v", rep)
		}
		checkSince(t, e.fake, "2026-12-01T09%3A59%3A00.000Z")
	})
}

// checkSince checks the calls of a run: the products and variants changed,
// the products with a variant deleted and the products deleted, each
// since the cursor less the overlap (since, as the query writes it).
func checkSince(t *testing.T, fake *medusatest.Server, since string) {
	t.Helper()
	want := map[string][]string{
		"/admin/products": {"updated_at%5B%24gt%5D=" + since, "variants%5Bdeleted_at%5D%5B%24gt%5D=" + since + "&with_deleted=true",
			"deleted_at%5B%24gt%5D=" + since},
		"/admin/product-variants": {"updated_at%5B%24gt%5D=" + since},
	}
	for path, filters := range want {
		calls := fake.CallsTo(path)
		if len(calls) != len(filters) {
			t.Fatalf("%s calls: %v", path, calls)
		}
		for i, f := range filters {
			if !strings.Contains(calls[i], f) {
				t.Fatalf("%s call %d: %s, want %s", path, i, calls[i], f)
			}
		}
	}
	if !strings.HasPrefix(fake.CallsTo("/admin/products")[2], "/admin/products?deleted_at%5B%24gt%5D=") ||
		!strings.Contains(fake.CallsTo("/admin/products")[2], "with_deleted=true") {
		t.Fatalf("deleted products: %v", fake.CallsTo("/admin/products"))
	}
}

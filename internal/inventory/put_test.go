package inventory

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Put writes rows made in code with their own report times, more than a
// batch of them, replaces a store's row of the same product, and writes
// nothing when a row breaks the feed's rules.
func TestPut(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, a, _ := fixture(t, d)
		idx, err := r.catalog.Index(ctx)
		dbtest.Must(t, err, "index")
		mango, _, _ := idx.ByID("nx-mango-5")
		classic, _, _ := idx.ByID("kp-classic-5")
		old := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
		qty := int64(3)
		rows := []Row{
			{StoreID: a.ID, ProductID: mango, Availability: InStock, Quantity: &qty, Price: &Price{2199, "USD"}, SalePrice: &Price{1899, "USD"}, ReportedAt: old},
			{StoreID: a.ID, ProductID: classic, Availability: OnDisplayToOrder, PickupMethod: "reserve", PickupSLA: "next_day", ReportedAt: old.Add(time.Hour)},
		}
		dbtest.Must(t, r.Put(ctx, rows), "put")
		got, err := r.ForStore(ctx, a.ID)
		dbtest.Must(t, err, "read")
		if len(got) != 2 || got[1].Product != "nx-mango-5" || got[1].SalePrice.String() != "18.99 USD" || *got[1].Quantity != 3 ||
			!got[1].ReportedAt.Equal(old) || got[0].Price != nil || got[0].PickupSLA != "next_day" || !got[0].ReportedAt.Equal(old.Add(time.Hour)) {
			t.Fatalf("stock: %+v", got)
		}
		// Writing again replaces; many rows go in batches.
		rows[0].Availability, rows[0].Quantity = OutOfStock, nil
		dbtest.Must(t, r.Put(ctx, rows[:1]), "put again")
		if got, _ := r.ForStore(ctx, a.ID); got[1].Availability != OutOfStock || got[1].Quantity != nil {
			t.Fatalf("replaced: %+v", got[1])
		}
		for _, bad := range []struct {
			row Row
			msg string
		}{
			{Row{Availability: "sold", ReportedAt: old}, "availability"},
			{Row{Availability: InStock, Quantity: ptr(int64(-1)), ReportedAt: old}, "quantity"},
			{Row{Availability: InStock, Price: &Price{100, "USD"}, SalePrice: &Price{200, "USD"}, ReportedAt: old}, "more than price"},
			{Row{Availability: InStock, Price: &Price{100, "USD"}, SalePrice: &Price{50, "EUR"}, ReportedAt: old}, "sale_price is in EUR"},
			{Row{Availability: InStock, Price: &Price{100, "usd"}, ReportedAt: old}, "currency code"},
			{Row{Availability: InStock, PickupMethod: "drone", ReportedAt: old}, "pickup_method"},
			{Row{Availability: InStock}, "reported_at"},
		} {
			w := bad.row
			w.StoreID, w.ProductID = a.ID, classic
			err := r.Put(ctx, []Row{{StoreID: a.ID, ProductID: mango, Availability: InStock, ReportedAt: old}, w})
			if apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), bad.msg) || !strings.Contains(err.Error(), "stock row 2") {
				t.Errorf("%+v: %v, want %q", bad.row, err, bad.msg)
			}
		}
		if got, _ := r.ForStore(ctx, a.ID); got[1].Availability != OutOfStock {
			t.Fatalf("a refused Put wrote: %+v", got[1])
		}
	})
}

// More rows than a batch, on both engines: 600 products in two stores.
func TestPutBatches(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, a, b := fixture(t, d)
		var ps []*catalog.Product
		for i := range 600 {
			ps = append(ps, &catalog.Product{ProductID: fmt.Sprintf("p-%d", i), Brand: "Acme", Name: fmt.Sprintf("Acme %d", i),
				Kind: catalog.Accessory, Flavour: catalog.Unflavoured, FDAStatus: catalog.FDANone})
		}
		dbtest.Must(t, r.catalog.Put(ctx, ps), "put products")
		idx, err := r.catalog.Index(ctx)
		dbtest.Must(t, err, "index")
		now := time.Now()
		var rows []Row
		for _, p := range ps {
			id, _, _ := idx.ByID(p.ProductID)
			for _, s := range []int64{a.ID, b.ID} {
				rows = append(rows, Row{StoreID: s, ProductID: id, Availability: LimitedAvailability, Quantity: ptr(int64(1)), ReportedAt: now})
			}
		}
		dbtest.Must(t, r.Put(ctx, rows), "put")
		n, err := r.Count(ctx)
		if err != nil || n != len(rows) || len(rows) <= batchRows {
			t.Fatalf("%d rows of %d, %v", n, len(rows), err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

package inventory

import (
	"context"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// RemoveImported removes only the rows a named source's batches last
// wrote, of one store or one product, and stamps their stores; a row an
// owner wrote since, or another source's, stays. IfUnstocked runs its
// function only for a product no store stocks.
func TestRemoveImported(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, a, b := fixture(t, d)
		const src, other = "medusa http://medusa.example location sloc_01VERYLONGLOCATIONIDFORTHELOG", "point-of-sale key 7"
		rows := func(store int64, ids ...string) []FeedRow {
			var out []FeedRow
			for _, id := range ids {
				out = append(out, FeedRow{Store: store, ID: id, Availability: "in_stock", Quantity: "4"})
			}
			return out
		}
		for _, batch := range []struct {
			rows   []FeedRow
			source string
		}{
			{rows(a.ID, "nx-mango-5", "kp-classic-5"), src},
			{rows(b.ID, "nx-mango-5"), src},
			{rows(b.ID, "kp-classic-5"), other},
		} {
			rep, err := r.ImportRows(ctx, batch.rows, batch.source, nil)
			if err != nil || rep.Failed != 0 {
				t.Fatalf("import: %+v %v", rep, err)
			}
		}
		idx, err := r.catalog.Index(ctx)
		dbtest.Must(t, err, "index")
		mango, _, _ := idx.ByID("nx-mango-5")
		classic, _, _ := idx.ByID("kp-classic-5")
		// The owner of a writes classic themselves: no longer the source's.
		dbtest.Must(t, r.Set(ctx, a.ID, classic, Row{Availability: LimitedAvailability}), "owner's row")
		before, err := r.Version(ctx)
		dbtest.Must(t, err, "version")

		n, err := r.RemoveImported(ctx, []string{src}, 0, mango)
		if err != nil || n != 2 {
			t.Fatalf("mango of the source: %d %v", n, err)
		}
		changed, _, err := r.ChangedStores(ctx, before)
		if err != nil || len(changed) != 2 {
			t.Fatalf("stamped %v %v", changed, err)
		}
		if n, err := r.RemoveImported(ctx, []string{src}, a.ID, 0); err != nil || n != 0 {
			t.Fatalf("the owner's row of a: %d %v", n, err)
		}
		if n, err := r.RemoveImported(ctx, []string{src, "unknown"}, b.ID, 0); err != nil || n != 0 {
			t.Fatalf("the other source's row of b: %d %v", n, err)
		}
		if got := stockOf(t, r, a.ID); got != "kp-classic-5|limited_availability|-|-|-||\n" {
			t.Fatalf("a: %q", got)
		}
		if got := stockOf(t, r, b.ID); got != "kp-classic-5|in_stock|4|-|-||\n" {
			t.Fatalf("b: %q", got)
		}

		ran, err := r.IfUnstocked(ctx, classic, func(*db.Tx) error { t.Fatal("ran for a stocked product"); return nil })
		if ran || err != nil {
			t.Fatalf("stocked: %v %v", ran, err)
		}
		ran, err = r.IfUnstocked(ctx, mango, func(*db.Tx) error { return nil })
		if !ran || err != nil {
			t.Fatalf("unstocked: %v %v", ran, err)
		}
	})
}

package inventory

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// changed reads the stock version and the stores changed after since.
func changed(t *testing.T, r *Repo, since int64) (int64, []int64) {
	t.Helper()
	v, err := r.Version(context.Background())
	dbtest.Must(t, err, "version")
	stores, top, err := r.ChangedStores(context.Background(), since)
	dbtest.Must(t, err, "changed stores")
	if top != v {
		t.Fatalf("changes up to %d, version %d", top, v)
	}
	return v, stores
}

// Every write stamps the stores it touched, each in its own transaction:
// Set (insert and replace), Remove, Put, an incremental and a full feed. A
// refused Set, a Remove of nothing and a refused file stamp nothing.
func TestWritesStampTheirStores(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, a, b := fixture(t, d)
		idx, err := r.catalog.Index(ctx)
		dbtest.Must(t, err, "index")
		mango, _, _ := idx.ByID("nx-mango-5")
		classic, _, _ := idx.ByID("kp-classic-5")
		v0, none := changed(t, r, 0)
		if v0 != 0 || len(none) != 0 {
			t.Fatalf("a new database: version %d, changes %v", v0, none)
		}

		at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		r.Now = func() time.Time { return at }
		qty := int64(4)
		dbtest.Must(t, r.Set(ctx, a.ID, mango, Row{Availability: InStock, Quantity: &qty, Price: &Price{2199, "USD"}}), "set")
		v1, got := changed(t, r, v0)
		if v1 != v0+1 || !slices.Equal(got, []int64{a.ID}) {
			t.Fatalf("after Set: version %d, changes %v", v1, got)
		}
		rows, err := r.ForStore(ctx, a.ID)
		dbtest.Must(t, err, "read")
		if len(rows) != 1 || rows[0].ProductID != mango || *rows[0].Quantity != 4 || !rows[0].ReportedAt.Equal(at) || rows[0].Price.String() != "21.99 USD" {
			t.Fatalf("after Set: %+v", rows)
		}
		// Set again replaces the row (the same key, new values).
		dbtest.Must(t, r.Set(ctx, a.ID, mango, Row{Availability: OutOfStock, ReportedAt: at.Add(time.Hour)}), "set again")
		if rows, _ := r.ForStore(ctx, a.ID); len(rows) != 1 || rows[0].Availability != OutOfStock || rows[0].Quantity != nil || rows[0].Price != nil {
			t.Fatalf("after a second Set: %+v", rows)
		}
		v2, got := changed(t, r, v1)
		if v2 != v1+1 || !slices.Equal(got, []int64{a.ID}) {
			t.Fatalf("after a second Set: version %d, changes %v", v2, got)
		}

		// Refused: a bad value, an unknown store or product. Nothing written, nothing stamped.
		if err := r.Set(ctx, b.ID, mango, Row{Availability: "sold"}); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "availability") {
			t.Errorf("bad availability: %v", err)
		}
		if err := r.Set(ctx, b.ID+1000, mango, Row{Availability: InStock}); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("unknown store: %v", err)
		}
		if err := r.Set(ctx, b.ID, mango+1000, Row{Availability: InStock}); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("unknown product: %v", err)
		}
		if v, got := changed(t, r, v2); v != v2 || len(got) != 0 {
			t.Fatalf("refused writes stamped: version %d, changes %v", v, got)
		}
		if rows, _ := r.ForStore(ctx, b.ID); len(rows) != 0 {
			t.Fatalf("refused writes wrote: %+v", rows)
		}

		// Remove: the row goes, the store is stamped; removing it again does nothing.
		dbtest.Must(t, r.Remove(ctx, a.ID, mango), "remove")
		if rows, _ := r.ForStore(ctx, a.ID); len(rows) != 0 {
			t.Fatalf("after Remove: %+v", rows)
		}
		v3, got := changed(t, r, v2)
		if v3 != v2+1 || !slices.Equal(got, []int64{a.ID}) {
			t.Fatalf("after Remove: version %d, changes %v", v3, got)
		}
		dbtest.Must(t, r.Remove(ctx, a.ID, mango), "remove again")
		if v, _ := changed(t, r, v3); v != v3 {
			t.Fatalf("a Remove of nothing bumped the version to %d", v)
		}

		// Put: one version for all its stores.
		dbtest.Must(t, r.Put(ctx, []Row{
			{StoreID: b.ID, ProductID: classic, Availability: InStock, ReportedAt: at},
			{StoreID: a.ID, ProductID: classic, Availability: InStock, ReportedAt: at},
			{StoreID: b.ID, ProductID: mango, Availability: InStock, ReportedAt: at},
		}), "put")
		v4, got := changed(t, r, v3)
		if v4 != v3+1 || !slices.Equal(got, []int64{a.ID, b.ID}) {
			t.Fatalf("after Put: version %d, changes %v", v4, got)
		}
		// Only the later change of a store is listed, once.
		dbtest.Must(t, r.Set(ctx, b.ID, classic, Row{Availability: LimitedAvailability}), "set b")
		if _, got := changed(t, r, v3); !slices.Equal(got, []int64{a.ID, b.ID}) {
			t.Fatalf("changes since %d: %v, want a then b", v3, got)
		}
		v5, _ := changed(t, r, 0)

		// Feeds: the incremental and the full one stamp the stores they name;
		// a file refused whole stamps nothing.
		if _, err := importFile(t, r, "feed-bad-header.csv", false); err == nil {
			t.Fatal("bad header imported")
		}
		if v, _ := changed(t, r, v5); v != v5 {
			t.Fatalf("a refused file bumped the version to %d", v)
		}
		_, err = importFile(t, r, "feed.csv", false)
		dbtest.Must(t, err, "import")
		v6, got := changed(t, r, v5)
		if v6 != v5+1 || !slices.Equal(got, []int64{a.ID, b.ID}) {
			t.Fatalf("after a feed: version %d, changes %v", v6, got)
		}
		_, err = importFile(t, r, "feed-full.tsv", true)
		dbtest.Must(t, err, "replace")
		if v7, got := changed(t, r, v6); v7 != v6+1 || !slices.Equal(got, []int64{a.ID}) {
			t.Fatalf("after a full feed of store a: version %d, changes %v", v7, got)
		}
	})
}

// Many stores in one write are stamped in batches, each store once.
func TestStampInBatches(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, a, b := fixture(t, d)
		err := d.InTx(ctx, func(tx *db.Tx) error { return stampBy(ctx, tx, []int64{b.ID, a.ID, b.ID, a.ID, b.ID}, 1) })
		dbtest.Must(t, err, "stamp")
		if v, got := changed(t, r, 0); v != 1 || !slices.Equal(got, []int64{a.ID, b.ID}) {
			t.Fatalf("version %d, changes %v", v, got)
		}
	})
}

// keyOf is the catalogue key of product id.
func keyOf(t *testing.T, r *Repo, id string) int64 {
	t.Helper()
	idx, err := r.catalog.Index(context.Background())
	dbtest.Must(t, err, "index")
	k, _, _ := idx.ByID(id)
	return k
}

// SetThen and RemoveThen hand their callback the row as it was, inside
// the change's transaction: the callback's error undoes the change (and
// stamps nothing); RemoveThen of no row does not call it.
func TestThenRunsInTheChangesTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		r, a, _ := fixture(t, d)
		mango := keyOf(t, r, "nx-mango-5")
		var seen []string
		note := func(ctx context.Context, tx *db.Tx, before *Row) error {
			if before == nil {
				seen = append(seen, "none")
			} else {
				seen = append(seen, string(before.Availability))
			}
			return nil
		}
		dbtest.Must(t, r.SetThen(ctx, a.ID, mango, Row{Availability: InStock}, note), "set")
		v, _ := changed(t, r, 0)
		refuse := func(ctx context.Context, tx *db.Tx, before *Row) error { return apperr.Invalidf("no") }
		if err := r.SetThen(ctx, a.ID, mango, Row{Availability: OutOfStock}, refuse); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("refused set: %v", err)
		}
		if err := r.RemoveThen(ctx, a.ID, mango, refuse); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("refused remove: %v", err)
		}
		if rows, _ := r.ForStore(ctx, a.ID); len(rows) != 1 || rows[0].Availability != InStock {
			t.Fatalf("a refused change was written: %+v", rows)
		}
		if v2, got := changed(t, r, v); v2 != v || len(got) != 0 {
			t.Fatalf("a refused change stamped: version %d -> %d, %v", v, v2, got)
		}
		dbtest.Must(t, r.SetThen(ctx, a.ID, mango, Row{Availability: LimitedAvailability}, note), "set again")
		dbtest.Must(t, r.RemoveThen(ctx, a.ID, mango, note), "remove")
		dbtest.Must(t, r.RemoveThen(ctx, a.ID, mango, note), "remove nothing")
		if got := strings.Join(seen, " "); got != "none in_stock limited_availability" {
			t.Errorf("callbacks saw %q", got)
		}
	})
}

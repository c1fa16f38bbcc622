package seed_test

import (
	"context"
	"errors"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/reviews"
	"locator/internal/seed"
	"locator/internal/stores"
)

// An interrupted first start (a kill between two batches; a kill inside
// one rolls that batch back, which is the same) leaves whole batches only:
// Check says so, and Resume writes exactly what is missing, so the data
// set ends as a write that was never interrupted.
func TestInterruptedDemoWriteIsResumed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const n = 300
		sr := stores.NewRepo(d)
		rr := reviews.NewRepo(d, sr)
		_, revs := generate(t, demoOptions(t, n, 1))
		wantReviews := 0
		for _, r := range revs {
			wantReviews += len(r)
		}

		killed := errors.New("killed")
		restore := seed.SetBatches(100, func(stores int) error {
			if stores == 100 {
				return killed
			}
			return nil
		})
		res, err := seed.Write(ctx, sr, rr, demoOptions(t, n, 1))
		restore()
		if !errors.Is(err, killed) || res.Stores != 100 {
			t.Fatalf("interrupted write: %+v %v", res, err)
		}
		st, err := seed.Check(ctx, sr, n)
		dbtest.Must(t, err, "check")
		if !st.Interrupted || st.Complete || st.Stores != 100 {
			t.Fatalf("after the interruption: %+v", st)
		}

		defer seed.SetBatches(100, nil)()
		res, err = seed.Resume(ctx, sr, rr, demoOptions(t, n, 1))
		dbtest.Must(t, err, "resume")
		var nStores, nReviews, docs int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*), COUNT(CASE WHEN search_doc <> '' THEN 1 END) FROM stores").Scan(&nStores, &docs), "count stores")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM reviews").Scan(&nReviews), "count reviews")
		if res.Stores != n-100 || nStores != n || docs != n || nReviews != wantReviews {
			t.Fatalf("resumed %+v: %d stores (%d documents), %d reviews; want %d and %d", res, nStores, docs, nReviews, n, wantReviews)
		}
		// Every store has its reviews counted in its rating.
		var unrated int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM stores s WHERE review_count <> (SELECT COUNT(*) FROM reviews r WHERE r.store_id = s.id AND r.status = 'Approved')").Scan(&unrated), "ratings")
		if unrated != 0 {
			t.Fatalf("%d stores whose review count is not their reviews'", unrated)
		}
		st, err = seed.Check(ctx, sr, n)
		dbtest.Must(t, err, "check")
		if !st.Complete || st.Interrupted || st.Stores != n {
			t.Fatalf("after resuming: %+v", st)
		}
		if res.Products == 0 || res.Stock == 0 {
			t.Fatalf("resumed %+v: no products or stock", res)
		}
		// Resuming a complete data set writes nothing.
		if res, err := seed.Resume(ctx, sr, rr, demoOptions(t, n, 1)); err != nil || res.Stores != 0 || res.Products != 0 || res.Stock != 0 {
			t.Fatalf("resume of a complete data set: %+v %v", res, err)
		}
	})
}

// A first start stopped after the last store and before the products (or a
// database seeded before there were products) is finished by
// FinishProducts, which ProductsWritten then finds done.
func TestFinishProducts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const n = 200
		sr := stores.NewRepo(d)
		killed := errors.New("killed")
		restore := seed.SetBatches(100, func(stores int) error {
			if stores == n {
				return killed
			}
			return nil
		})
		_, err := seed.Write(ctx, sr, reviews.NewRepo(d, sr), demoOptions(t, n, 1))
		restore()
		if !errors.Is(err, killed) {
			t.Fatalf("interrupted write: %v", err)
		}
		st, err := seed.Check(ctx, sr, n)
		dbtest.Must(t, err, "check")
		done, err := seed.ProductsWritten(ctx, sr, 1)
		dbtest.Must(t, err, "products written")
		if !st.Complete || done {
			t.Fatalf("after the stores: %+v, products written %t", st, done)
		}
		res, err := seed.FinishProducts(ctx, sr, demoOptions(t, n, 1))
		dbtest.Must(t, err, "finish products")
		done, err = seed.ProductsWritten(ctx, sr, 1)
		dbtest.Must(t, err, "products written")
		if !done || res.Products != len(seed.DemoProducts(1)) || res.Stock == 0 {
			t.Fatalf("finished %+v, products written %t", res, done)
		}
	})
}

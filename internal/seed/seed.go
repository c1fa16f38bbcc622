// Package seed writes the offline demo data set (`locator seed --demo`):
// the stores and reviews internal/storegen makes, around the US cities of
// the embedded gazetteer, with their real postal codes and time zones; then
// a catalogue of invented products and the stores' stock of them
// (products.go).
package seed

import (
	"context"
	"fmt"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/reviews"
	"locator/internal/storegen"
	"locator/internal/stores"
)

// Result counts what was written.
type Result struct {
	Stores, Reviews int
	ProductResult   // the demo catalogue and stock (WriteProducts), after the stores
}

// batchSize is how many stores (with their reviews) one transaction of
// Write writes.
var batchSize = 2000

// afterBatch, when set (tests), runs after each committed batch; an error
// stops Write there, as a kill between two batches would.
var afterBatch func(stores int) error

// Write generates the data and stores it in batches, each batch one
// transaction (its stores and their reviews), so an interrupted write
// leaves whole batches only, which Resume completes.
func Write(ctx context.Context, sr *stores.Repo, rr *reviews.Repo, o storegen.Options) (Result, error) {
	return write(ctx, sr, rr, o, false)
}

// Resume writes what an interrupted Write of the same options left out: a
// batch whose last store is in the database is whole (one transaction) and
// skipped. Another writer finishing the same batches at once makes it fail
// with a unique violation, having written nothing more.
func Resume(ctx context.Context, sr *stores.Repo, rr *reviews.Repo, o storegen.Options) (Result, error) {
	return write(ctx, sr, rr, o, true)
}

func write(ctx context.Context, sr *stores.Repo, rr *reviews.Repo, o storegen.Options, resume bool) (Result, error) {
	ss, revs, err := storegen.Generate(o)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for i := 0; i < len(ss); i += batchSize {
		j := min(i+batchSize, len(ss))
		if resume {
			id, err := sr.IDByStoreID(ctx, ss[j-1].StoreID)
			done := id != 0
			if err != nil {
				return res, fmt.Errorf("seed: look for store %s: %w", ss[j-1].StoreID, err)
			}
			if done {
				continue
			}
		}
		var rs []*reviews.Review
		err := sr.DB().InTx(ctx, func(tx *db.Tx) error {
			rs = rs[:0]
			err := sr.Write(ctx, tx, func(w *stores.Writer) error {
				for _, s := range ss[i:j] {
					if err := w.Save(ctx, s); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("seed stores %d-%d: %w", i+1, j, err)
			}
			for k := i; k < j; k++ {
				for _, r := range revs[k] {
					r.StoreID = ss[k].ID
					rs = append(rs, r)
				}
			}
			if err := rr.AddAllIn(ctx, tx, rs); err != nil {
				return fmt.Errorf("seed reviews of stores %d-%d: %w", i+1, j, err)
			}
			return nil
		})
		if err != nil {
			for _, s := range ss[i:j] {
				s.ID = 0 // rolled back: a retry inserts them again
			}
			return res, err
		}
		res.Stores += j - i
		res.Reviews += len(rs)
		if afterBatch != nil {
			if err := afterBatch(res.Stores); err != nil {
				return res, err
			}
		}
	}
	if resume {
		done, err := ProductsWritten(ctx, sr, o.Seed)
		if err != nil || done {
			return res, err
		}
	}
	res.ProductResult, err = WriteProducts(ctx, sr, ss, time.Now(), o.Seed)
	return res, err
}

// DemoState says how much of the demo data set of n stores the database
// holds: Complete when its last store is there, Interrupted when its
// first is and its last is not (a first start stopped while seeding; Resume
// finishes it). Stores counts the stores present.
type DemoState struct {
	Stores                int
	Complete, Interrupted bool
}

// Demo store ids are "st_000001" to "st_<n>" (internal/storegen).
func demoStoreID(k int) string { return fmt.Sprintf("st_%06d", k) }

// Check looks for the demo data set of n stores in the database.
func Check(ctx context.Context, sr *stores.Repo, n int) (DemoState, error) {
	var st DemoState
	first, err := sr.IDByStoreID(ctx, demoStoreID(1))
	if err != nil || first == 0 {
		return st, err
	}
	last, err := sr.IDByStoreID(ctx, demoStoreID(n))
	if err != nil {
		return st, err
	}
	if st.Stores, err = sr.Count(ctx); err != nil {
		return st, err
	}
	st.Complete, st.Interrupted = last != 0, last == 0
	return st, nil
}

// ProductsWritten tells whether the demo catalogue (its last product) and
// some stock are in the database: a resumed write then leaves them be.
func ProductsWritten(ctx context.Context, sr *stores.Repo, seedValue uint64) (bool, error) {
	ps := DemoProducts(seedValue)
	cat := catalog.NewRepo(sr.DB())
	if _, err := cat.Get(ctx, ps[len(ps)-1].ProductID); catalog.IsNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	n, err := inventory.NewRepo(sr, cat).Count(ctx)
	return n > 0, err
}

// FinishProducts writes the demo catalogue and stock into a database that
// holds the whole demo data set of o's stores but not them (a first start
// stopped between the two steps, or a database seeded before there were
// products: see ProductsWritten).
func FinishProducts(ctx context.Context, sr *stores.Repo, o storegen.Options) (ProductResult, error) {
	ss, _, err := storegen.Generate(o)
	if err != nil {
		return ProductResult{}, err
	}
	return WriteProducts(ctx, sr, ss, time.Now(), o.Seed)
}

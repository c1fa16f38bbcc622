// Package seed writes the offline demo data set (`locator seed --demo`):
// the stores and reviews internal/storegen makes, around the US cities of
// the embedded gazetteer, with their real postal codes and time zones.
package seed

import (
	"context"
	"fmt"

	"locator/internal/db"
	"locator/internal/reviews"
	"locator/internal/storegen"
	"locator/internal/stores"
)

// Result counts what was written.
type Result struct {
	Stores, Reviews int
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
	return res, nil
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

// Package seed writes the offline demo data set (`locator seed --demo`):
// the stores and reviews internal/storegen makes, around the US cities of
// the embedded gazetteer, with their real postal codes and time zones.
package seed

import (
	"context"
	"fmt"

	"locator/internal/reviews"
	"locator/internal/storegen"
	"locator/internal/stores"
)

// Result counts what was written.
type Result struct {
	Stores, Reviews int
}

// Write generates the data and stores it in batches (each batch one
// transaction: stores, then their reviews).
func Write(ctx context.Context, sr *stores.Repo, rr *reviews.Repo, o storegen.Options) (Result, error) {
	ss, revs, err := storegen.Generate(o)
	if err != nil {
		return Result{}, err
	}
	var res Result
	const batch = 2000
	for i := 0; i < len(ss); i += batch {
		j := min(i+batch, len(ss))
		if err := sr.SaveAll(ctx, ss[i:j]); err != nil {
			return res, fmt.Errorf("seed stores %d-%d: %w", i+1, j, err)
		}
		res.Stores += j - i
		var rs []*reviews.Review
		for k := i; k < j; k++ {
			for _, r := range revs[k] {
				r.StoreID = ss[k].ID
				rs = append(rs, r)
			}
		}
		if err := rr.AddAll(ctx, rs); err != nil {
			return res, fmt.Errorf("seed reviews of stores %d-%d: %w", i+1, j, err)
		}
		res.Reviews += len(rs)
	}
	return res, nil
}

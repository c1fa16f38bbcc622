package db_test

import (
	"context"
	"slices"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// A list of ids is one parameter on both engines: in a subquery, after
// other parameters, empty, and longer than either engine's parameter limit.
func TestIDList(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ids := func(n int, list []int64) []int64 {
			rows, err := d.Query(ctx, "SELECT value FROM ("+db.IDList(d, 2)+") AS l WHERE value > $1 ORDER BY value DESC", n, db.IDs(list))
			got, err := db.Collect(rows, err, "ids", func(sc db.Scanner) (*int64, error) {
				var id int64
				return &id, sc.Scan(&id)
			})
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := ids(1, []int64{3, 1, 2, 9}); !slices.Equal(got, []int64{9, 3, 2}) {
			t.Errorf("ids: %v", got)
		}
		if got := ids(0, nil); len(got) != 0 {
			t.Errorf("no ids: %v", got)
		}
		many := make([]int64, 70000)
		for i := range many {
			many[i] = int64(i)
		}
		if got := ids(69997, many); !slices.Equal(got, []int64{69999, 69998}) {
			t.Errorf("70000 ids: %v", got)
		}
	})
}

package licences_test

import (
	"context"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/licences"
	"locator/internal/stores"
)

// A doubtful match shows the moderator the store it would belong to: its
// name, address and postal code as the stores feature keeps them.
func TestQueueShowsTheMatchedStore(t *testing.T) {
	eachNYC(t, func(t *testing.T, ctx context.Context, d *db.DB, g *licences.Registry, repo *stores.Repo, ids map[string]int64) {
		q, err := g.Queue(ctx)
		dbtest.Must(t, err, "queue")
		if len(q) != 1 {
			t.Fatalf("queue: %+v", q)
		}
		st, err := repo.Get(ctx, q[0].StoreID)
		dbtest.Must(t, err, "store")
		if st.Name != "Harbor Deli" || q[0].StoreName != st.Name || q[0].StoreAddress != st.Address || q[0].StoreZip != st.PostalCode || st.Address == "" {
			t.Errorf("queue item %+v, store %q %q %q", q[0], st.Name, st.Address, st.PostalCode)
		}
	})
}

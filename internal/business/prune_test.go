package business_test

import (
	"context"
	"testing"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/stores/storestest"
)

// An unproven account past identity.UnprovenTTL that holds a store (made
// before proof of mailbox existed) stays until its owner proves it; one
// without a store goes.
func TestPruneKeepsUnprovenAccountsWithAStore(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w, ctx := newWorld(t, d), context.Background()
		_, st := storestest.Created(t, d, storestest.CloudNine())
		for _, email := range []string{"holder@example.com", "idle@example.com"} {
			dbtest.Must(t, w.biz.SignUp(ctx, business.SignUpInput{StoreName: "Old", Email: email, Password: attackerPass}), "sign up %s", email)
		}
		_, err := d.Exec(ctx, "UPDATE business_accounts SET created_at = $1", w.biz.Now().UTC().Add(-identity.UnprovenTTL-1))
		dbtest.Must(t, err, "age")
		_, err = d.Exec(ctx, `INSERT INTO business_stores (business_id, store_id, created_at, created_by)
			SELECT id, $1, created_at, 'test' FROM business_accounts WHERE email = 'holder@example.com'`, st.ID)
		dbtest.Must(t, err, "link")
		dbtest.Must(t, w.biz.Prune(ctx), "prune")
		left := dbtest.Texts(t, d, "", "SELECT email FROM business_accounts ORDER BY email")
		if len(left) != 1 || left[0] != "holder@example.com" {
			t.Fatalf("accounts left: %v, want the holder's only", left)
		}
	})
}

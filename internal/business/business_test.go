package business_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/secret"
	"locator/internal/stores"
)

// setup: one store linked to one business account, signed in.
func setup(t *testing.T, d *db.DB) (*business.Service, *business.Account, int64) {
	t.Helper()
	ctx := context.Background()
	sr := stores.NewRepo(d)
	st := &stores.Store{Name: "Corner Vapes", Latitude: 40.7, Longitude: -74, TimeZone: "America/New_York", Address: "1 Main St"}
	dbtest.Must(t, sr.Create(ctx, st), "store")
	svc := business.New(d, sr, "http://locator.test", nil, nil, identity.Options{})
	svc.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1}
	hash, err := svc.Hasher.Hash(ctx, "tulip-lamp-7")
	dbtest.Must(t, err, "hash")
	var id int64
	dbtest.Must(t, d.QueryRow(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at, email_verified_at)
		VALUES ('owner@example.com', 'Corner Vapes', '1', $1, $2, $2) RETURNING id`, hash, time.Now().UTC()).Scan(&id), "account")
	_, err = d.Exec(ctx, "INSERT INTO business_stores (business_id, store_id, created_at, created_by) VALUES ($1, $2, $3, 'test')", id, st.ID, time.Now().UTC())
	dbtest.Must(t, err, "link")
	a, _, err := svc.SignIn(ctx, "owner@example.com", "tulip-lamp-7", "")
	dbtest.Must(t, err, "sign in")
	return svc, a, st.ID
}

// eachOwner runs fn on each engine with setup's owner: one store linked to
// one signed-in business account.
func eachOwner(t *testing.T, fn func(t *testing.T, ctx context.Context, d *db.DB, svc *business.Service, a *business.Account, id int64)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		svc, a, id := setup(t, d)
		fn(t, context.Background(), d, svc, a, id)
	})
}

// Concurrent patches of different fields, as from two browser tabs or two
// replicas, never overwrite each other: each reads the store after the
// search-version lock that orders store writers.
func TestConcurrentPatchesKeepEveryChange(t *testing.T) {
	dbtest.EachPair(t, func(t *testing.T, a, b *db.DB) {
		ctx := context.Background()
		svcA, acct, id := setup(t, a)
		svcB := business.New(b, stores.NewRepo(b), "", nil, nil, identity.Options{})
		const n = 8
		var wg sync.WaitGroup
		errs := make(chan error, 2*n)
		for i := 0; i < n; i++ {
			phone, hours := fmt.Sprintf("+1 555 01%02d", i), fmt.Sprintf("Open %d", i)
			wg.Go(func() {
				_, err := svcA.Update(ctx, acct, id, business.Patch{PhoneNumber: &phone})
				errs <- err
			})
			wg.Go(func() {
				_, err := svcB.Update(ctx, acct, id, business.Patch{Hours: &hours})
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			dbtest.Must(t, err, "update")
		}
		st, err := stores.NewRepo(a).Get(ctx, id)
		dbtest.Must(t, err, "get")
		if st.PhoneNumber == "" || st.Hours == "" {
			t.Fatalf("a change was lost: phone %q, hours %q", st.PhoneNumber, st.Hours)
		}
		// Each audit entry's old value is what the write before it left: no
		// two writes of a field saw the same old value.
		rows, err := a.Query(ctx, "SELECT details FROM audit_log WHERE action = 'store.update' AND store_id = $1", id)
		dbtest.Must(t, err, "audit")
		defer rows.Close()
		olds := map[string]map[any]bool{"phone_number": {}, "hours": {}}
		entries := 0
		for rows.Next() {
			var details string
			dbtest.Must(t, rows.Scan(&details), "scan")
			var d struct {
				Changes map[string]struct{ Old, New any } `json:"changes"`
			}
			dbtest.Must(t, json.Unmarshal([]byte(details), &d), "details")
			for field, c := range d.Changes {
				if olds[field][c.Old] {
					t.Fatalf("two writes of %s saw %v: a lost update", field, c.Old)
				}
				olds[field][c.Old] = true
			}
			entries++
		}
		if entries != 2*n {
			t.Fatalf("%d audit entries, want %d", entries, 2*n)
		}
	})
}

func TestPruneEndsExpiredSessionsOnly(t *testing.T) {
	t.Parallel()
	eachOwner(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *business.Service, live *business.Account, _ int64) {
		svc.Now = func() time.Time { return time.Now().Add(-8 * 24 * time.Hour) }
		_, oldToken, err := svc.SignIn(ctx, "owner@example.com", "tulip-lamp-7", "")
		dbtest.Must(t, err, "old sign in")
		svc.Now = time.Now
		if _, err := svc.Authenticate(ctx, oldToken); err == nil {
			t.Fatal("an expired session authenticates")
		}
		dbtest.Must(t, svc.Prune(ctx), "prune")
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM business_sessions").Scan(&n), "count")
		if n != 1 {
			t.Fatalf("%d sessions after prune, want the live one", n)
		}
		if _, err := svc.ListStores(ctx, live); err != nil {
			t.Fatal(err)
		}
	})
}

package reports_test

import (
	"context"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity/identitytest"
	"locator/internal/reports"
	"locator/internal/stores"
)

// A moderator's change after a report (here: the store hidden) is mailed
// to every owner of the store, not only to the latest linked one (which a
// look-alike claim may have added beside the first).
func TestResolveMailsEveryOwner(t *testing.T) {
	t.Parallel()
	eachSetup(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *reports.Service, _ *stores.Repo, a, _ *stores.Store) {
		now := time.Now().UTC()
		for i, email := range []string{"first@example.com", "co-owner@example.com"} {
			at := now.Add(time.Duration(i) * time.Hour)
			id := identitytest.Business(t, d, email, at)
			_, err := d.Exec(ctx, "INSERT INTO business_stores (business_id, store_id, created_at, created_by) VALUES ($1, $2, $3, 'test')", id, a.ID, at)
			dbtest.Must(t, err, "link")
		}
		r, err := svc.Submit(ctx, reports.Input{StoreID: a.ID, Reason: "wrong_phone", ClientIP: "10.0.0.1"})
		dbtest.Must(t, err, "report")
		dec, err := svc.Resolve(ctx, "mod@example.com", r.StoreID, reports.Hide, nil, "")
		dbtest.Must(t, err, "hide")
		got := dbtest.Texts(t, d, "", "SELECT to_addr FROM outbox ORDER BY to_addr")
		if !dec.Notified || len(got) != 2 || got[0] != "co-owner@example.com" || got[1] != "first@example.com" {
			t.Fatalf("mailed %q (notified %v)", got, dec.Notified)
		}
	})
}

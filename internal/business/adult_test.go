package business_test

import (
	"context"
	"strings"
	"testing"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// An owner marks the store adult-only (docs/rules.md): published at once,
// in the document, and audited; a patch of it alone is a change.
func TestOwnerSetsAdultOnly(t *testing.T) {
	t.Parallel()
	eachOwner(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *business.Service, a *business.Account, id int64) {
		yes := true
		res, err := svc.Update(ctx, a, id, business.Patch{AdultOnly: &yes})
		dbtest.Must(t, err, "adult only")
		if !res.Store.AdultOnly || len(res.Published) != 1 || res.Published[0] != "adult_only" {
			t.Fatalf("after the patch: %v %v", res.Store.AdultOnly, res.Published)
		}
		doc, err := stores.NewRepo(d).PublishedDoc(ctx, id)
		dbtest.Must(t, err, "doc")
		if !strings.Contains(string(doc), `"adult_only":true`) {
			t.Fatalf("the document: %s", doc)
		}
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.update' AND store_id = $1 AND details LIKE '%adult_only%'", id).Scan(&n), "audit")
		if n != 1 {
			t.Fatalf("%d audit entries name adult_only", n)
		}
	})
}

package business_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Every owner of a store is mailed each published change, whoever made it:
// a co-owner's direct edit, the other owner's, and a moderator approving a
// co-owner's change request; the one who made the change is not mailed
// about it, and a patch or a verification that changes nothing mails nobody.
// The owner who acted is named by the day of its link, not by its address
// (text its holder chose).
func TestEveryOwnerToldOfEveryChange(t *testing.T) {
	t.Parallel()
	eachOwner(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *business.Service, owner *business.Account, id int64) {
		hash, err := svc.Hasher.Hash(ctx, "harp-seal-9-co")
		dbtest.Must(t, err, "hash")
		var coID int64
		later := time.Now().UTC().Add(time.Minute)
		dbtest.Must(t, d.QueryRow(ctx, `INSERT INTO business_accounts (email, store_name, phone_number, password_hash, created_at, email_verified_at)
			VALUES ('co@example.com', 'Corner Vapes', '1', $1, $2, $2) RETURNING id`, hash, later).Scan(&coID), "co-owner")
		_, err = d.Exec(ctx, "INSERT INTO business_stores (business_id, store_id, created_at, created_by) VALUES ($1, $2, $3, 'test')", coID, id, later)
		dbtest.Must(t, err, "link the co-owner")
		co, _, err := svc.SignIn(ctx, "co@example.com", "harp-seal-9-co", "")
		dbtest.Must(t, err, "co-owner signs in")

		changed := func(to string) []string {
			return dbtest.Texts(t, d, "", "SELECT text_body FROM outbox WHERE to_addr = $1 AND subject = 'Your store was changed' ORDER BY id", to)
		}
		phone, site := "+1 212 555 0199", "https://corner-vapes.example"
		_, err = svc.Update(ctx, co, id, business.Patch{PhoneNumber: &phone, Website: &site})
		dbtest.Must(t, err, "co-owner publishes phone and website")
		got := changed("owner@example.com")
		coLinked := "the owner of the store linked on " + later.Format("Jan 2, 2006 at 15:04 UTC")
		if len(got) != 1 || !strings.Contains(got[0], "changed by "+coLinked+".") || strings.Contains(got[0], "@") ||
			!strings.Contains(got[0], "- Phone: +1 212 555 0199\n- Website: https://corner-vapes.example\n") ||
			!strings.Contains(got[0], "\nhttp://locator.test/business\n") {
			t.Fatalf("owner's mails after the co-owner's edit: %q", got)
		}
		if got := changed("co@example.com"); len(got) != 0 {
			t.Fatalf("the co-owner is mailed about its own edit: %q", got)
		}
		// The same values again, and a verification: nothing published, nothing mailed.
		_, err = svc.Update(ctx, co, id, business.Patch{PhoneNumber: &phone})
		dbtest.Must(t, err, "same phone")
		_, err = svc.Verify(ctx, co, id)
		dbtest.Must(t, err, "verify")
		if got := changed("owner@example.com"); len(got) != 1 {
			t.Fatalf("a patch that changes nothing mailed: %q", got)
		}
		// The first owner's edit is told to the co-owner.
		hours := "Daily 9-9"
		_, err = svc.Update(ctx, owner, id, business.Patch{Hours: &hours})
		dbtest.Must(t, err, "owner's edit")
		if got := changed("co@example.com"); len(got) != 1 || !strings.Contains(got[0], "changed by the owner of the store linked on ") ||
			strings.Contains(got[0], coLinked) || strings.Contains(got[0], "@") || !strings.Contains(got[0], "- Hours: Daily 9-9\n") {
			t.Fatalf("co-owner's mails: %q", got)
		}
		// A moderator publishes the co-owner's new name: the owner is told.
		name := "Corner Vapes & More"
		res, err := svc.Update(ctx, co, id, business.Patch{Details: business.Details{Name: &name}})
		dbtest.Must(t, err, "name change request")
		if got := changed("owner@example.com"); len(got) != 1 {
			t.Fatalf("a pending request mailed as published: %q", got)
		}
		_, err = svc.ApproveChange(ctx, res.ChangeRequest.ID, "moderator:1:mod@example.com")
		dbtest.Must(t, err, "approve")
		got = changed("owner@example.com")
		if len(got) != 2 || !strings.Contains(got[1], "changed by a moderator, at the request of "+coLinked+".") || !strings.Contains(got[1], "- Name: Corner Vapes & More\n") {
			t.Fatalf("owner's mails after the approval: %q", got)
		}
		if got := changed("co@example.com"); len(got) != 1 {
			t.Fatalf("the requester is mailed the change besides the decision: %q", got)
		}
	})
}

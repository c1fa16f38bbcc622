package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Takeover path D over HTTP: a look-alike claim on a store that has an
// owner. The moderator sees the owner and a field-by-field comparison, the
// owner is asked for consent at the decision, an approval with no field
// picked leaves the public store as it was, and the owner, then a
// moderator, remove the accounts from the store; every step is audited
// under the account that acted.
func TestLookalikeClaimOverHTTP(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		before, err := s.srv.Stores.Get(ctx, s.ownStore)
		dbtest.Must(t, err, "store")
		anon := newBizClient(t, s.srv)
		// Path D needs no one else's mailbox: the attacker proves their own.
		createProven(anon, s.srv, d, "mallory@example.com", "mallory-pass-1")
		form := copyClaimForm()
		form["email"], form["phone"] = "mallory@example.com", "+1 512 555 0666"
		rec, out := anon.call("POST", "/api/store/claim", form)
		if rec.Code != 201 {
			t.Fatalf("look-alike claim: %d %v", rec.Code, out)
		}
		claimID := int64(out["claim"].(map[string]any)["id"].(float64))
		var subject string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT subject FROM outbox WHERE to_addr = 'owner@example.com' ORDER BY id DESC LIMIT 1").Scan(&subject), "owner mail")
		if subject == "Someone claimed a store you own" || strings.HasPrefix(subject, "Claims on your stores") {
			t.Fatalf("owner's mail at submission: %q (it waits for the day's digest)", subject)
		}

		dbtest.Must(t, s.cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := newBizClient(t, s.srv)
		if rec, _ := mod.call("POST", "/api/admin/auth", map[string]string{"email": "mod@example.com", "password": "moderator-pass"}); rec.Code != 200 {
			t.Fatalf("moderator sign in: %d", rec.Code)
		}
		path := fmt.Sprintf("/api/admin/claims/%d", claimID)
		rec, out = mod.call("GET", path, nil)
		e, _ := out["existing_store"].(map[string]any)
		if rec.Code != 200 || e == nil || int64(e["id"].(float64)) != s.ownStore ||
			!strings.HasPrefix(e["owners_summary"].(string), "This store has 1 verified owner since ") || len(e["fields"].([]any)) != 9 {
			t.Fatalf("claim as the moderator sees it: %d %v", rec.Code, out)
		}
		for _, f := range e["fields"].([]any) {
			f := f.(map[string]any)
			if f["field"] == "phone_number" && (f["same"] != false || f["current"] != before.PhoneNumber || f["claimed"] != "+1 512 555 0666") {
				t.Fatalf("phone row: %v", f)
			}
		}
		for _, bad := range []string{`{"fields":["colour"]}`, `{"fields":"name"}`, `{"latitude":30.2}`} {
			if rec, _ := mod.call("POST", path+"/approve", bad); rec.Code != 400 {
				t.Fatalf("approve %s: %d", bad, rec.Code)
			}
		}
		if rec, out := mod.call("POST", path+"/approve", `{"fields":[]}`); rec.Code != 200 || out["status"] != "approved" {
			t.Fatalf("approve with no field: %d %v", rec.Code, out)
		}
		after, err := s.srv.Stores.Get(ctx, s.ownStore)
		dbtest.Must(t, err, "store")
		if after.PhoneNumber != before.PhoneNumber || after.Latitude != before.Latitude || after.Longitude != before.Longitude ||
			after.Name != before.Name || after.Hours != before.Hours || fmt.Sprint(after.VerifiedAt) != fmt.Sprint(before.VerifiedAt) {
			t.Fatalf("approval with no field picked changed the store:\n%+v\n%+v", before, after)
		}
		dbtest.Must(t, d.QueryRow(ctx, "SELECT subject FROM outbox WHERE to_addr = 'owner@example.com' ORDER BY id DESC LIMIT 1").Scan(&subject), "owner mail")
		if subject != "A claim on your store was approved: do you accept a co-owner?" {
			t.Fatalf("owner's mail at the decision: %q", subject)
		}

		// The newcomer waits for the owner's consent (consent_test.go);
		// once the owner accepts, both accounts can change the store, and
		// the owner sees the newcomer and removes it.
		mallory := newBizClient(t, s.srv)
		s.signIn(mallory, "mallory@example.com", "mallory-pass-1")
		storePath := fmt.Sprintf("/api/business/stores/%d", s.ownStore)
		if rec, out := mallory.call("PATCH", storePath, map[string]string{"phone_number": "+1 512 555 0666"}); rec.Code != 403 {
			t.Fatalf("the pending co-owner publishes: %d %v", rec.Code, out)
		}
		if rec, out := s.owner.call("POST", fmt.Sprintf("%s/pending-owners/%d", storePath, claimID), `{"decision":"accept"}`); rec.Code != 200 ||
			len(out["store"].(map[string]any)["owners"].([]any)) != 2 {
			t.Fatalf("the owner accepts: %d %v", rec.Code, out)
		}
		rec, out = s.owner.call("GET", storePath, nil)
		owners := out["store"].(map[string]any)["owners"].([]any)
		if rec.Code != 200 || len(owners) != 2 {
			t.Fatalf("owners as the owner sees them: %d %v", rec.Code, out)
		}
		first, second := owners[0].(map[string]any), owners[1].(map[string]any)
		if first["email"] != "owner@example.com" || first["you"] != true || first["removable"] != false ||
			second["email"] != "mallory@example.com" || second["you"] != false || second["removable"] != true {
			t.Fatalf("owners: %v", owners)
		}
		ownerID, malloryID := int64(first["id"].(float64)), int64(second["id"].(float64))
		if rec, _ := mallory.call("DELETE", fmt.Sprintf("%s/owners/%d", storePath, ownerID), nil); rec.Code != 403 {
			t.Fatalf("the newcomer removes the owner: %d", rec.Code)
		}
		if rec, _ := s.other.call("DELETE", fmt.Sprintf("%s/owners/%d", storePath, malloryID), nil); rec.Code != 404 {
			t.Fatalf("an account of another store removes an owner: %d", rec.Code)
		}
		if rec, _ := s.owner.call("DELETE", storePath+"/owners/x", nil); rec.Code != 400 {
			t.Fatalf("bad owner id: %d", rec.Code)
		}
		rec, out = s.owner.call("DELETE", fmt.Sprintf("%s/owners/%d", storePath, malloryID), nil)
		if rec.Code != 200 || len(out["store"].(map[string]any)["owners"].([]any)) != 1 {
			t.Fatalf("owner removes the newcomer: %d %v", rec.Code, out)
		}
		if rec, _ := mallory.call("GET", storePath, nil); rec.Code != 404 {
			t.Fatalf("the removed account still reaches the store: %d", rec.Code)
		}

		// A moderator lists and removes any owner.
		ownersPath := fmt.Sprintf("/api/admin/stores/%d/owners", s.ownStore)
		if rec, out := mod.call("GET", ownersPath, nil); rec.Code != 200 || len(out["owners"].([]any)) != 1 {
			t.Fatalf("moderator's owners list: %d %v", rec.Code, out)
		}
		if rec, _ := mod.call("GET", "/api/admin/stores/999999/owners", nil); rec.Code != 404 {
			t.Fatalf("owners of an unknown store: %d", rec.Code)
		}
		if rec, _ := s.owner.call("GET", ownersPath, nil); rec.Code != 401 {
			t.Fatalf("owners list without a moderator session: %d", rec.Code)
		}
		if rec, out := mod.call("DELETE", fmt.Sprintf("%s/%d", ownersPath, ownerID), nil); rec.Code != 200 || !strings.Contains(out["message"].(string), "owner@example.com") {
			t.Fatalf("moderator removes the owner: %d %v", rec.Code, out)
		}
		if rec, _ := mod.call("DELETE", fmt.Sprintf("%s/%d", ownersPath, ownerID), nil); rec.Code != 404 {
			t.Fatalf("remove twice: %d", rec.Code)
		}

		got := dbtest.Texts(t, d, " ", "SELECT action, actor FROM audit_log WHERE store_id = $1 AND action IN ('claim.approve', 'store.link', 'store.unlink') ORDER BY id", s.ownStore)
		if len(got) != 6 || got[0] != "store.link cli:test" || got[1] != "claim.approve cli:test" ||
			!strings.HasPrefix(got[2], "claim.approve moderator:") || got[3] != fmt.Sprintf("store.link business:%d:owner@example.com", ownerID) ||
			got[4] != fmt.Sprintf("store.unlink business:%d:owner@example.com", ownerID) || !strings.HasSuffix(got[5], ":mod@example.com") || !strings.HasPrefix(got[5], "store.unlink moderator:") {
			t.Fatalf("audit: %q", got)
		}
	})
}

package httpapi_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

var consentToken = regexp.MustCompile(`/business/consent\?token=([A-Za-z0-9_-]+)`)

// pendingOverHTTP signs up and proves mallory, submits her look-alike
// claim on the owner's store and has a moderator approve it: mallory is a
// pending co-owner. It returns the claim id, the moderator's client,
// mallory's and the consent token mailed to the owner.
func pendingOverHTTP(t *testing.T, d *db.DB, s *bizSetup) (int64, *bizClient, *bizClient, string) {
	t.Helper()
	ctx := context.Background()
	anon := newBizClient(t, s.srv)
	createProven(anon, s.srv, d, "mallory@example.com", "mallory-pass-1")
	form := copyClaimForm()
	form["email"] = "mallory@example.com"
	rec, out := anon.call("POST", "/api/store/claim", form)
	if rec.Code != 201 {
		t.Fatalf("look-alike claim: %d %v", rec.Code, out)
	}
	claimID := int64(out["claim"].(map[string]any)["id"].(float64))
	dbtest.Must(t, s.cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
	mod := newBizClient(t, s.srv)
	if rec, _ := mod.call("POST", "/api/admin/auth", map[string]string{"email": "mod@example.com", "password": "moderator-pass"}); rec.Code != 200 {
		t.Fatalf("moderator sign in: %d", rec.Code)
	}
	if rec, out := mod.call("POST", fmt.Sprintf("/api/admin/claims/%d/approve", claimID), `{}`); rec.Code != 200 || out["consent"] != "pending" {
		t.Fatalf("approve: %d %v", rec.Code, out)
	}
	var body string
	dbtest.Must(t, d.QueryRow(ctx, `SELECT text_body FROM outbox WHERE to_addr = 'owner@example.com' AND subject LIKE 'A claim on your store was approved%'
		ORDER BY id DESC LIMIT 1`).Scan(&body), "consent mail")
	m := consentToken.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no consent link in %q", body)
	}
	mallory := newBizClient(t, s.srv)
	s.signIn(mallory, "mallory@example.com", "mallory-pass-1")
	return claimID, mod, mallory, m[1]
}

// The mailed link over HTTP: reading it decides nothing, a bad token or
// decision is a 400 with a message, the decision uses the link up.
func TestConsentLinkOverHTTP(t *testing.T) {
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		claimID, _, mallory, token := pendingOverHTTP(t, d, s)
		anon := newBizClient(t, s.srv)
		for _, bad := range []struct{ path, body string }{
			{"/api/business/consent/request", `{}`},
			{"/api/business/consent/request", `{"token":"nope"}`},
			{"/api/business/consent/request", `{"token":5}`},
			{"/api/business/consent/request", `[]`},
			{"/api/business/consent/request", `not json`},
			{"/api/business/consent", `{"token":"` + token + `"}`},
			{"/api/business/consent", `{"token":"` + token + `","decision":"yes"}`},
			{"/api/business/consent", `{"token":"nope","decision":"accept"}`},
			{"/api/business/consent", `{"token":"` + strings.Repeat("x", 5000) + `","decision":"accept"}`},
		} {
			rec, out := anon.call("POST", bad.path, bad.body)
			if rec.Code != 400 || out["message"] == "" || out["message"] == nil {
				t.Fatalf("%s %s: %d %v", bad.path, bad.body, rec.Code, out)
			}
		}
		rec, out := anon.call("POST", "/api/business/consent/request", map[string]string{"token": token})
		req, _ := out["request"].(map[string]any)
		if rec.Code != 200 || req["email"] != "mallory@example.com" || int64(req["claim_id"].(float64)) != claimID || req["store_name"] != "Lone Star Vapes" {
			t.Fatalf("request: %d %v", rec.Code, out)
		}
		storePath := fmt.Sprintf("/api/business/stores/%d", s.ownStore)
		if rec, _ := mallory.call("GET", storePath, nil); rec.Code != 403 {
			t.Fatalf("the pending co-owner after the link was read: %d", rec.Code)
		}
		if rec, out := mallory.call("GET", "/api/business/waiting", nil); rec.Code != 200 || len(out["waiting"].([]any)) != 1 {
			t.Fatalf("waiting: %d %v", rec.Code, out)
		}
		rec, out = anon.call("POST", "/api/business/consent", map[string]string{"token": token, "decision": "decline"})
		if rec.Code != 200 || out["message"] != "mallory@example.com will not be able to change the store." {
			t.Fatalf("decline: %d %v", rec.Code, out)
		}
		if rec, out := anon.call("POST", "/api/business/consent", map[string]string{"token": token, "decision": "accept"}); rec.Code != 400 {
			t.Fatalf("the link twice: %d %v", rec.Code, out)
		}
		if rec, _ := mallory.call("GET", storePath, nil); rec.Code != 404 {
			t.Fatalf("the declined claimant: %d", rec.Code)
		}
		if rec, out := mallory.call("GET", "/api/business/waiting", nil); rec.Code != 200 || len(out["waiting"].([]any)) != 0 {
			t.Fatalf("waiting after the decline: %d %v", rec.Code, out)
		}
	})
}

// The dashboard's and the moderator's decisions over HTTP: bad ids and
// decisions are 400s, another account's store a 404, a decided claim a 409.
func TestConsentDecisionsOverHTTP(t *testing.T) {
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		claimID, mod, mallory, _ := pendingOverHTTP(t, d, s)
		storePath := fmt.Sprintf("/api/business/stores/%d", s.ownStore)
		decide := fmt.Sprintf("%s/pending-owners/%d", storePath, claimID)
		for _, bad := range []struct{ path, body string }{
			{decide, `{}`},
			{decide, `{"decision":"ACCEPT"}`},
			{decide, `{"decision":true}`},
			{decide, `nope`},
			{storePath + "/pending-owners/x", `{"decision":"accept"}`},
			{storePath + "/pending-owners/0", `{"decision":"accept"}`},
			{storePath + "/pending-owners/+1", `{"decision":"accept"}`},
			{"/api/business/stores/x/pending-owners/1", `{"decision":"accept"}`},
		} {
			if rec, out := s.owner.call("POST", bad.path, bad.body); rec.Code != 400 || out["message"] == nil {
				t.Fatalf("%s %s: %d %v", bad.path, bad.body, rec.Code, out)
			}
		}
		// Another store's owner, and the pending co-owner itself.
		if rec, _ := s.other.call("POST", decide, `{"decision":"accept"}`); rec.Code != 404 {
			t.Fatalf("another account accepts: %d", rec.Code)
		}
		if rec, _ := mallory.call("POST", decide, `{"decision":"accept"}`); rec.Code != 403 {
			t.Fatalf("the pending co-owner accepts itself: %d", rec.Code)
		}
		if rec, _ := s.owner.call("POST", fmt.Sprintf("%s/pending-owners/%d", storePath, claimID+100), `{"decision":"accept"}`); rec.Code != 404 {
			t.Fatalf("an unknown claim: %d", rec.Code)
		}
		if rec, _ := newBizClient(t, s.srv).call("POST", decide, `{"decision":"accept"}`); rec.Code != 401 {
			t.Fatalf("signed out: %d", rec.Code)
		}
		rec, out := s.owner.call("GET", storePath, nil)
		pending, _ := out["store"].(map[string]any)["pending_owners"].([]any)
		if rec.Code != 200 || len(pending) != 1 || pending[0].(map[string]any)["email"] != "mallory@example.com" {
			t.Fatalf("the owner's view: %d %v", rec.Code, out)
		}
		// The moderator.
		consentPath := fmt.Sprintf("/api/admin/claims/%d/consent", claimID)
		for _, bad := range []struct{ path, body string }{
			{consentPath, `{}`}, {consentPath, `{"decision":"maybe"}`}, {consentPath, `[]`},
			{"/api/admin/claims/x/consent", `{"decision":"accept"}`},
		} {
			if rec, out := mod.call("POST", bad.path, bad.body); rec.Code != 400 || out["message"] == nil {
				t.Fatalf("moderator %s %s: %d %v", bad.path, bad.body, rec.Code, out)
			}
		}
		if rec, _ := mod.call("POST", "/api/admin/claims/99999/consent", `{"decision":"accept"}`); rec.Code != 404 {
			t.Fatalf("unknown claim: %d", rec.Code)
		}
		if rec, _ := s.owner.call("POST", consentPath, `{"decision":"accept"}`); rec.Code != 401 {
			t.Fatalf("an owner on the admin API: %d", rec.Code)
		}
		if rec, out := mod.call("POST", consentPath, `{"decision":"accept"}`); rec.Code != 200 || out["consent"] != "accepted" {
			t.Fatalf("moderator accepts: %d %v", rec.Code, out)
		}
		if rec, out := mod.call("POST", consentPath, `{"decision":"decline"}`); rec.Code != 409 || out["message"] == nil {
			t.Fatalf("decide twice: %d %v", rec.Code, out)
		}
		if rec, _ := s.owner.call("POST", decide, `{"decision":"decline"}`); rec.Code != 404 {
			t.Fatalf("the owner after the moderator: %d", rec.Code)
		}
		if rec, out := mallory.call("PATCH", storePath, map[string]string{"phone_number": "+1 512 555 0777"}); rec.Code != 200 {
			t.Fatalf("the accepted co-owner publishes: %d %v", rec.Code, out)
		}
	})
}

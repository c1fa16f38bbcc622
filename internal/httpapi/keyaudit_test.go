package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/partners"
)

// Creating and revoking a point-of-sale key are in the audit log, with the
// account, the key's id, name and shown prefix, never the key itself; a
// second revocation, another account's attempt and a refused creation
// write nothing.
func TestAPIKeysAreAudited(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		posSetup(t, d, s, 0)
		rec, out := s.owner.call("POST", "/api/business/api-keys", map[string]string{"name": "Front till"})
		if rec.Code != 201 {
			t.Fatalf("create key: %d %s", rec.Code, rec.Body)
		}
		secret := out["secret"].(string)
		key := out["key"].(map[string]any)
		id, prefix := int64(key["id"].(float64)), key["prefix"].(string)
		if rec, _ := s.owner.call("POST", "/api/business/api-keys", map[string]string{"name": ""}); rec.Code != 400 {
			t.Fatalf("nameless key: %d", rec.Code)
		}
		if rec, _ := s.other.call("DELETE", fmt.Sprintf("/api/business/api-keys/%d", id), nil); rec.Code != 404 {
			t.Fatalf("other revokes: %d", rec.Code)
		}
		for range 2 {
			if rec, _ := s.owner.call("DELETE", fmt.Sprintf("/api/business/api-keys/%d", id), nil); rec.Code != 200 {
				t.Fatalf("revoke: %d %s", rec.Code, rec.Body)
			}
		}
		rows, err := d.Query(context.Background(), "SELECT actor, action, COALESCE(store_id, 0), details FROM audit_log WHERE action LIKE 'api_key.%' ORDER BY id")
		got, err := db.Collect(rows, err, "audit", func(r db.Scanner) (*string, error) {
			var actor, action, details string
			var store int64
			err := r.Scan(&actor, &action, &store, &details)
			line := fmt.Sprintf("%s %s %d %s", actor, action, store, details)
			return &line, err
		})
		dbtest.Must(t, err, "audit log")
		var owner string
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT business_id || ':' || email FROM business_accounts b JOIN api_keys k ON k.business_id = b.id WHERE k.id = $1", id).Scan(&owner), "owner")
		details := fmt.Sprintf(`{"key_id":%d,"name":"Front till","prefix":%q}`, id, prefix)
		want := []string{"business:" + owner + " api_key.create 0 " + details, "business:" + owner + " api_key.revoke 0 " + details}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("audit entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if strings.Contains(strings.Join(got, ""), secret[len(prefix):]) {
			t.Error("the audit log holds the key")
		}
	})
}

// A partner's read keys and webhooks are in the audit log with the
// moderator, on both engines: a key's creation and revocation (its id,
// name and shown prefix, never the key), a webhook's registration and
// removal (its id, URL and events, never its signing secret); a second
// revocation or removal, and refused calls, write nothing.
func TestPartnerKeysAndWebhooksAreAudited(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		mod := partnerAdmin(t, d, f)
		p, err := f.srv.Partners.Create(ctx, partners.Input{Name: "Nimbus", Kind: "brand"})
		dbtest.Must(t, err, "partner")

		rec, out := mod.call("POST", "/api/admin/partners/"+p.ID+"/keys", map[string]string{"name": "Store finder"})
		if rec.Code != 201 {
			t.Fatalf("create key: %d %s", rec.Code, rec.Body)
		}
		secret := out["secret"].(string)
		key := out["key"].(map[string]any)
		keyID, prefix := int64(key["id"].(float64)), key["prefix"].(string)
		rec, out = mod.call("POST", "/api/admin/partners/"+p.ID+"/webhooks", map[string]any{"url": "https://127.0.0.1:9/hook", "events": []string{"stock.changed", "review.published"}})
		if rec.Code != 201 {
			t.Fatalf("register webhook: %d %s", rec.Code, rec.Body)
		}
		hookSecret := out["secret"].(string)
		hookID := int64(out["webhook"].(map[string]any)["id"].(float64))
		mod.runEach([]step{
			{name: "a nameless key", method: "POST", target: "/api/admin/partners/" + p.ID + "/keys", body: map[string]string{"name": ""}, status: 400},
			{name: "a private receiver", method: "POST", target: "/api/admin/partners/" + p.ID + "/webhooks", body: map[string]any{"url": "https://10.0.0.1/x", "events": []string{"store.created"}}, status: 400},
			{name: "revoke", method: "DELETE", target: fmt.Sprintf("/api/admin/partners/%s/keys/%d", p.ID, keyID), status: 200},
			{name: "revoke again", method: "DELETE", target: fmt.Sprintf("/api/admin/partners/%s/keys/%d", p.ID, keyID), status: 200},
			{name: "remove", method: "DELETE", target: fmt.Sprintf("/api/admin/partners/%s/webhooks/%d", p.ID, hookID), status: 204},
			{name: "remove again", method: "DELETE", target: fmt.Sprintf("/api/admin/partners/%s/webhooks/%d", p.ID, hookID), status: 204},
			{name: "an unknown webhook", method: "DELETE", target: fmt.Sprintf("/api/admin/partners/%s/webhooks/%d", p.ID, hookID+1), status: 404},
		})

		rows, err := d.Query(ctx, "SELECT actor, action, details FROM audit_log WHERE action LIKE 'partner_key.%' OR action LIKE 'webhook.%' ORDER BY id")
		got, err := db.Collect(rows, err, "audit", func(r db.Scanner) (*string, error) {
			var actor, action, details string
			err := r.Scan(&actor, &action, &details)
			line := fmt.Sprintf("%s %s %s", actor, action, details)
			return &line, err
		})
		dbtest.Must(t, err, "audit log")
		var modID int64
		dbtest.Must(t, d.QueryRow(ctx, "SELECT id FROM moderators WHERE email = $1", "mod@example.com").Scan(&modID), "moderator id")
		actor := fmt.Sprintf("moderator:%d:mod@example.com", modID)
		keyDetails := fmt.Sprintf(`{"key_id":%d,"name":"Store finder","partner":%q,"prefix":%q}`, keyID, p.ID, prefix)
		hookDetails := fmt.Sprintf(`{"events":["review.published","stock.changed"],"partner":%q,"url":"https://127.0.0.1:9/hook","webhook_id":%d}`, p.ID, hookID)
		want := []string{
			actor + " partner_key.create " + keyDetails,
			actor + " webhook.register " + hookDetails,
			actor + " partner_key.revoke " + keyDetails,
			actor + " webhook.remove " + hookDetails,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("audit entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		all := strings.Join(got, "")
		if strings.Contains(all, secret[len(prefix):]) || strings.Contains(all, hookSecret) {
			t.Error("the audit log holds a key or a webhook secret")
		}
	})
}

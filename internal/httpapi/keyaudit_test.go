package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
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

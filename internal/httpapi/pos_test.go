package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"locator/internal/apikeys"
	"locator/internal/catalog/catalogtest"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/stores"
)

// posSetup is the business setup with the catalogue fixture, the stock
// and the keys served; the owner owns ownStore, the other account nearID.
func posSetup(t *testing.T, d *db.DB, s *bizSetup, perMinute int) *inventory.Repo {
	t.Helper()
	cat := catalogtest.Imported(t, d)
	inv := inventory.NewRepo(stores.NewRepo(d), cat)
	s.srv.Catalog, s.srv.Inventory, s.srv.APIKeys = cat, inv, apikeys.New(d, nil, perMinute)
	return inv
}

// pos sends a batch with a bearer key (none when key is "") and checks the
// answer against the contract.
func pos(t *testing.T, h http.Handler, key string, body any) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	var b []byte
	if s, ok := body.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(body)
	}
	req := httptest.NewRequest("POST", "/api/pos/v1/stock", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	checkContract(t, req, b, rec, false)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func stockLines(t *testing.T, inv *inventory.Repo, store int64) string {
	t.Helper()
	rows, err := inv.ForStore(context.Background(), store)
	dbtest.Must(t, err, "stock")
	var b strings.Builder
	for _, w := range rows {
		q := "-"
		if w.Quantity != nil {
			q = fmt.Sprint(*w.Quantity)
		}
		fmt.Fprintf(&b, "%s %s %s;", w.Product, w.Availability, q)
	}
	return b.String()
}

// An owner makes a key in /business and a till writes its stores' stock
// with it: the feed's rules per row, another business's store refused,
// the good rows written; the key revoked, the next call is 401.
func TestPOSKeyWritesOnlyItsStores(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		inv := posSetup(t, d, s, 0)
		rec, out := s.owner.call("POST", "/api/business/api-keys", map[string]string{"name": "Front till"})
		if rec.Code != 201 {
			t.Fatalf("create key: %d %s", rec.Code, rec.Body)
		}
		secret := out["secret"].(string)
		keyID := out["key"].(map[string]any)["id"].(float64)
		rec, _ = s.owner.call("GET", "/api/business/api-keys", nil)
		if rec.Code != 200 || strings.Contains(rec.Body.String(), secret) || !strings.Contains(rec.Body.String(), `"Front till"`) {
			t.Fatalf("list: %d %s", rec.Code, rec.Body)
		}
		// The other account sees none of it and cannot revoke it.
		if rec, _ := s.other.call("GET", "/api/business/api-keys", nil); rec.Code != 200 || strings.Contains(rec.Body.String(), "Front till") {
			t.Fatalf("other's list: %d %s", rec.Code, rec.Body)
		}
		if rec, _ := s.other.call("DELETE", fmt.Sprintf("/api/business/api-keys/%d", int64(keyID)), nil); rec.Code != 404 {
			t.Fatalf("other revokes: %d %s", rec.Code, rec.Body)
		}
		// The other account's own key cannot touch the owner's store.
		rec, out = s.other.call("POST", "/api/business/api-keys", map[string]string{"name": "theirs"})
		if rec.Code != 201 {
			t.Fatalf("other's key: %d", rec.Code)
		}
		otherKey := out["secret"].(string)
		own, near := fmt.Sprint(s.ownStore), fmt.Sprint(s.nearID)
		rec, out = pos(t, s.srv, otherKey, map[string]any{"rows": []map[string]any{
			{"store_code": own, "id": "nx-mango-5", "availability": "in_stock"},
		}})
		if rec.Code != 200 || out["written"] != 0.0 || !strings.Contains(rec.Body.String(), "is not one of your stores") {
			t.Fatalf("other's key on the owner's store: %d %s", rec.Code, rec.Body)
		}

		rec, out = pos(t, s.srv, secret, map[string]any{"rows": []map[string]any{
			{"store_code": own, "id": "nx-mango-5", "availability": "in_stock", "quantity": 12, "price": "21.99 USD", "sale_price": "18.99 USD", "pickup_method": "buy", "pickup_sla": "same_day"},
			{"store_code": own, "gtin": 4000001000012, "availability": "limited_availability", "quantity": "2"},
			{"store_code": near, "id": "pouch-cool-6", "availability": "in_stock"},
			{"store_code": own, "id": "pouch-cool-6", "availability": "in_stock", "quantity": -3},
			{"store_code": own, "gtin": "840000100017", "availability": "in_stock"},
			{"store_code": own, "id": "ht-amber", "availability": "in_stock", "price": "12.99 dollars"},
			{"store_code": "sto_nowhere", "id": "ht-amber", "availability": "in_stock"},
		}})
		if rec.Code != 200 || out["written"] != 2.0 || out["failed"] != 5.0 {
			t.Fatalf("batch: %d %s", rec.Code, rec.Body)
		}
		var got []string
		for _, e := range out["errors"].([]any) {
			m := e.(map[string]any)
			got = append(got, fmt.Sprintf("%v: %v", m["row"], m["message"]))
		}
		want := []string{"3: store_code \"" + near + "\" is not one of your stores", "4: quantity -3 is negative",
			"5: GTIN \"840000100017\" has the check digit 7", "6: price \"12.99 dollars\" does not parse", "7: store_code \"sto_nowhere\" is no store of ours"}
		for i := range want {
			if i >= len(got) || !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				break
			}
		}
		if got, want := stockLines(t, inv, s.ownStore), "kp-classic-5 limited_availability 2;nx-mango-5 in_stock 12;"; got != want {
			t.Errorf("own store's stock %q, want %q", got, want)
		}
		if got := stockLines(t, inv, s.nearID); got != "" {
			t.Errorf("the other business's store got stock: %q", got)
		}
		// Revoked: 401 at once, the stock as it was.
		if rec, _ := s.owner.call("DELETE", fmt.Sprintf("/api/business/api-keys/%d", int64(keyID)), nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"revoked_at":"`) {
			t.Fatalf("revoke: %d %s", rec.Code, rec.Body)
		}
		rec, _ = pos(t, s.srv, secret, map[string]any{"rows": []map[string]any{{"store_code": own, "id": "nx-mango-5", "availability": "out_of_stock"}}})
		if rec.Code != 401 || !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("revoked key: %d %s", rec.Code, rec.Body)
		}
		if got := stockLines(t, inv, s.ownStore); !strings.Contains(got, "nx-mango-5 in_stock 12") {
			t.Errorf("a revoked key changed the stock: %q", got)
		}
	})
}

// A key's calls past its rate are 429 with Retry-After; bad batches are
// 4xx with a message and write nothing.
func TestPOSRateAndBadBatches(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		inv := posSetup(t, d, s, 14)
		_, out := s.owner.call("POST", "/api/business/api-keys", map[string]string{"name": "till"})
		key := out["secret"].(string)
		own := fmt.Sprint(s.ownStore)
		good := map[string]any{"store_code": own, "id": "nx-mango-5", "availability": "in_stock"}
		big := make([]map[string]any, 1001)
		for i := range big {
			big[i] = good
		}
		for _, c := range []struct {
			name, key string
			body      any
			status    int
		}{
			{"no key", "", map[string]any{"rows": []any{good}}, 401},
			{"a key of the wrong shape", "abc", map[string]any{"rows": []any{good}}, 401},
			{"an unknown key", apikeys.KeyPrefix + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", map[string]any{"rows": []any{good}}, 401},
			{"1,001 rows", key, map[string]any{"rows": big}, 413},
			{"no rows", key, map[string]any{"rows": []any{}}, 400},
			{"rows missing", key, map[string]any{}, 400},
			{"not JSON", key, "rows=1", 400},
			{"an array", key, `[{"store_code":"1"}]`, 400},
			{"rows not an array", key, map[string]any{"rows": "x"}, 400},
			{"a bool quantity", key, map[string]any{"rows": []any{map[string]any{"store_code": own, "id": "nx-mango-5", "availability": "in_stock", "quantity": true}}}, 400},
			{"NUL", key, `{"rows":[{"store_code":"` + own + `","id":"nx-mango-5\u0000","availability":"in_stock"}]}`, 400},
			{"over 1 MB", key, `{"rows":[{"store_code":"` + strings.Repeat("1", 1<<20) + `"}]}`, 413},
		} {
			rec, out := pos(t, s.srv, c.key, c.body)
			if rec.Code != c.status || out["message"] == nil || out["message"] == "" {
				t.Errorf("%s: %d %.200s, want %d with a message", c.name, rec.Code, rec.Body, c.status)
			}
		}
		if got := stockLines(t, inv, s.ownStore); got != "" {
			t.Errorf("bad batches wrote stock: %q", got)
		}
		// 9 keyed calls so far; the 14th is the last the minute allows.
		for i := 10; i <= 14; i++ {
			if rec, _ := pos(t, s.srv, key, map[string]any{"rows": []any{good}}); rec.Code != 200 {
				t.Fatalf("call %d: %d %s", i, rec.Code, rec.Body)
			}
		}
		rec, _ := pos(t, s.srv, key, map[string]any{"rows": []any{good}})
		if rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("call 15: %d %s, want 429 with Retry-After", rec.Code, rec.Body)
		}
		// Eleven keys: the eleventh is refused.
		for i := 2; i <= apikeys.MaxActive; i++ {
			if rec, _ := s.owner.call("POST", "/api/business/api-keys", map[string]string{"name": fmt.Sprint("till ", i)}); rec.Code != 201 {
				t.Fatalf("key %d: %d", i, rec.Code)
			}
		}
		for _, c := range []struct {
			body   any
			status int
		}{{map[string]string{"name": "eleventh"}, 409}, {map[string]string{"name": "  "}, 400}, {map[string]any{"name": 5}, 400}} {
			if rec, out := s.owner.call("POST", "/api/business/api-keys", c.body); rec.Code != c.status || out["message"] == "" {
				t.Errorf("create %v: %d %s, want %d", c.body, rec.Code, rec.Body, c.status)
			}
		}
		if rec, _ := s.owner.call("DELETE", "/api/business/api-keys/999999", nil); rec.Code != 404 {
			t.Errorf("revoke an unknown key: %d", rec.Code)
		}
	})
}

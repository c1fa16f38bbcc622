package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"locator/internal/apikeys"
	"locator/internal/catalog/catalogtest"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/inventory"
	"locator/internal/partners"
	"locator/internal/productlaw"
	"locator/internal/stores"
	"locator/internal/webhooks"
)

// partnerCall sends a GET of the partner API with an Authorization header.
func partnerCall(t *testing.T, f *fixture, authorization, target string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	checkContract(t, req, nil, rec, rec.Code < 400)
	return rec
}

// A moderator makes a partner's read key (shown once) and revokes it; the
// key reads the store search and a store, and the stock of the partner's
// own products only (403 for another's); a revoked key, a point-of-sale
// key, no key and a disabled partner's key are 401.
func TestPartnerReadKeys(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		cat := catalogtest.Imported(t, d)
		f.srv.Catalog = cat
		f.srv.Partners = partners.New(d, clock.System())
		f.srv.APIKeys = apikeys.New(d, nil, 0)
		idx, err := cat.Index(ctx)
		dbtest.Must(t, err, "catalogue keys")
		mango, _, _ := idx.ByID("nx-mango-5")
		stock := inventory.NewRepo(stores.NewRepo(d), cat)
		dbtest.Must(t, stock.Put(ctx, []inventory.Row{{StoreID: f.nearID, ProductID: mango, Availability: inventory.InStock, ReportedAt: time.Now().UTC()}}), "stock")
		f.sy.WithProducts(stock, cat, productlaw.NewRepo(d))
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		dbtest.Must(t, newClaims(d, nil, nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		nimbus, err := f.srv.Partners.Create(ctx, partners.Input{Name: "Nimbus", Kind: "brand", Brands: []string{"nimbus"}})
		dbtest.Must(t, err, "partner")
		other, err := f.srv.Partners.Create(ctx, partners.Input{Name: "Till Co", Kind: "pos"})
		dbtest.Must(t, err, "other partner")

		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		newKey := func(p partners.Partner) (int64, string) {
			rec, _ := mod.call("POST", "/api/admin/partners/"+p.ID+"/keys", map[string]string{"name": "Store finder"})
			var out struct {
				Key    apikeys.Key `json:"key"`
				Secret string      `json:"secret"`
			}
			if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &out) != nil || !strings.HasPrefix(out.Secret, apikeys.PartnerKeyPrefix) {
				t.Fatalf("create key: %d %s", rec.Code, rec.Body)
			}
			return out.Key.ID, "Bearer " + out.Secret
		}
		keyID, key := newKey(nimbus)
		_, otherKey := newKey(other)
		mod.run([]step{
			{name: "the list shows no secret", method: "GET", target: "/api/admin/partners/" + nimbus.ID + "/keys", status: 200, reply: func(t *testing.T, body []byte) {
				if strings.Contains(string(body), key[len("Bearer "):]) || !strings.Contains(string(body), `"name":"Store finder"`) {
					t.Errorf("list: %s", body)
				}
			}},
			{name: "another partner's key is not this one's", method: "DELETE", target: "/api/admin/partners/" + other.ID + "/keys/" + strconvI(keyID), status: 404},
			{name: "an unknown partner", method: "GET", target: "/api/admin/partners/pt_nope/keys", status: 404},
		})

		near := "/api/partner/v1/stores?latitude=40.7130&longitude=-74.0060&radius=30"
		for _, c := range []struct {
			name, auth, target string
			status             int
		}{
			{"the search", key, near, 200},
			{"a store", key, "/api/partner/v1/stores/" + strconvI(f.nearID), 200},
			{"its own product", key, near + "&product=nx-mango-5", 200},
			{"its own product by GTIN", key, near + "&product=840000100016", 200},
			{"another's product", key, near + "&product=kp-classic-5", 403},
			{"another partner's key on a product of this one", otherKey, near + "&product=nx-mango-5", 403},
			{"an unknown product", key, near + "&product=nope", 404},
			{"no key", "", near, 401},
			{"a point-of-sale key", "Bearer " + apikeys.KeyPrefix + strings.Repeat("a", 43), near, 401},
			{"a wrong key", key + "x", near, 401},
		} {
			rec := partnerCall(t, f, c.auth, c.target)
			if rec.Code != c.status || (c.status >= 400 && !strings.Contains(rec.Body.String(), `"message"`)) {
				t.Errorf("%s: %d %s, want %d", c.name, rec.Code, truncate(rec.Body.String()), c.status)
			}
			if c.status == 401 && rec.Header().Get("WWW-Authenticate") == "" {
				t.Errorf("%s: 401 without WWW-Authenticate", c.name)
			}
		}
		if rec := partnerCall(t, f, key, near+"&product=nx-mango-5"); !strings.Contains(rec.Body.String(), `"product":{`) {
			t.Errorf("the product's stock is not in the answer: %s", truncate(rec.Body.String()))
		}

		mod.run([]step{{name: "revoke", method: "DELETE", target: "/api/admin/partners/" + nimbus.ID + "/keys/" + strconvI(keyID), status: 200}})
		if rec := partnerCall(t, f, key, near); rec.Code != 401 {
			t.Errorf("a revoked key: %d", rec.Code)
		}
		dbtest.Must(t, f.srv.Partners.Disable(ctx, other.ID), "disable")
		if rec := partnerCall(t, f, otherKey, near); rec.Code != 401 {
			t.Errorf("a disabled partner's key: %d", rec.Code)
		}
		mod.run([]step{{name: "no key for a disabled partner", method: "POST", target: "/api/admin/partners/" + other.ID + "/keys", body: map[string]string{"name": "x"}, status: 409}})
	})
}

// partnerAdmin gives the server partners, their keys and webhooks (a
// guard that lets loopback through, for tests only: the URLs below are
// addresses, no resolver is asked), and answers a signed-in moderator.
func partnerAdmin(t *testing.T, d *db.DB, f *fixture) *client {
	t.Helper()
	f.srv.Partners = partners.New(d, clock.System())
	f.srv.APIKeys = apikeys.New(d, nil, 0)
	f.srv.Webhooks = webhooks.New(d, clock.System(), webhooks.Guard{AllowLoopback: true})
	dbtest.Must(t, newClaims(d, nil, nil).Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
	mod := &client{t: t, h: f.srv}
	modSignIn(t, f.srv, mod)
	return mod
}

// A moderator registers a partner's webhook (the secret answered once,
// never listed), sees it with its deliveries, and removes it; a URL on a
// private or loopback address, plain http and an unknown event are 400s.
func TestAdminWebhooksAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		mod := partnerAdmin(t, d, f)
		p, err := f.srv.Partners.Create(context.Background(), partners.Input{Name: "Acme", Kind: "chain"})
		dbtest.Must(t, err, "partner")
		base := "/api/admin/partners/" + p.ID + "/webhooks"
		mod.runEach([]step{
			{name: "plain http", method: "POST", target: base, body: map[string]any{"url": "http://127.0.0.1:9/x", "events": []string{"store.created"}}, status: 400},
			{name: "a private address", method: "POST", target: base, body: map[string]any{"url": "https://10.0.0.1/x", "events": []string{"store.created"}}, status: 400},
			{name: "the metadata address", method: "POST", target: base, body: map[string]any{"url": "https://169.254.169.254/x", "events": []string{"store.created"}}, status: 400},
			{name: "an unknown event", method: "POST", target: base, body: map[string]any{"url": "https://127.0.0.1:9/x", "events": []string{"store.exploded"}}, status: 400},
			{name: "an unknown partner", method: "GET", target: "/api/admin/partners/pt_nope/webhooks", status: 404},
		})
		rec, _ := mod.call("POST", base, map[string]any{"url": "https://127.0.0.1:9/x", "events": []string{"store.updated", "stock.changed"}})
		var out struct {
			Webhook struct{ ID int64 } `json:"webhook"`
			Secret  string             `json:"secret"`
		}
		if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &out) != nil || !strings.HasPrefix(out.Secret, webhooks.SecretPrefix) {
			t.Fatalf("register: %d %s", rec.Code, rec.Body)
		}
		mod.run([]step{
			{name: "the list", method: "GET", target: base, status: 200, reply: func(t *testing.T, body []byte) {
				if strings.Contains(string(body), out.Secret) || !strings.Contains(string(body), `"events":["stock.changed","store.updated"]`) {
					t.Errorf("list: %s", body)
				}
			}},
			{name: "remove", method: "DELETE", target: base + "/" + strconvI(out.Webhook.ID), status: 204},
			{name: "another's", method: "DELETE", target: base + "/999", status: 404},
		})
	})
}

package httpapi_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/secret"
	"locator/internal/stores"
)

type austinGeocoder struct{}

func (austinGeocoder) Geocode(postal, city, state, country string) (float64, float64, string, bool) {
	if postal == "78701" {
		return 30.2711, -97.7437, "postal_code", true
	}
	return 0, 0, "", false
}

func newClaims(d *db.DB, sr *stores.Repo, log *slog.Logger) *claims.Service {
	s := claims.New(d, sr, austinGeocoder{}, func(float64, float64) string { return "America/Chicago" }, log)
	s.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1}
	return s
}

var claimForm = map[string]string{
	"business_name": "Lone Star Vapes", "email": "owner@example.com", "phone": "+15125550100", "country": "United States",
	"state": "TX", "address1": "100 Congress Ave", "city": "Austin", "postal_code": "78701", "website": "https://lonestar.example",
	"working_hours": "Mon-Sat 10am-8pm", "category": "Vape shop",
}

func TestClaimAndModerationAPI(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		owner := &client{t: t, h: f.srv}
		rec, out := owner.call("POST", "/api/store/claim", claimForm)
		if rec.Code != 201 || out["claim"].(map[string]any)["status"] != "pending" {
			t.Fatalf("claim: %d %v", rec.Code, out)
		}
		claimID := int64(out["claim"].(map[string]any)["id"].(float64))
		if rec, out = owner.call("POST", "/api/store/claim", claimForm); rec.Code != 200 || int64(out["claim"].(map[string]any)["id"].(float64)) != claimID {
			t.Fatalf("retried claim: %d %v", rec.Code, out)
		}
		bad := map[string]string{}
		for k, v := range claimForm {
			bad[k] = v
		}
		bad["email"] = "no-at-sign"
		if rec, out = owner.call("POST", "/api/store/claim", bad); rec.Code != 400 || out["message"] == "" {
			t.Fatalf("bad email: %d %v", rec.Code, out)
		}
		bad["email"], bad["business_name"] = "x@y.co", strings.Repeat("x", 300)
		if rec, _ = owner.call("POST", "/api/store/claim", bad); rec.Code != 400 {
			t.Fatalf("oversized name: %d", rec.Code)
		}
		user := map[string]string{"store_name": "Lone Star Vapes", "email": "owner@example.com", "password": "owner-pass-1", "phone_number": "+15125550100", "referred_by": "locator-claim-form"}
		if rec, _ = owner.call("POST", "/api/store/create-user", user); rec.Code != 201 {
			t.Fatalf("create user: %d", rec.Code)
		}
		if rec, out = owner.call("POST", "/api/store/create-user", user); rec.Code != 409 || out["message"] == "" {
			t.Fatalf("create user twice: %d %v", rec.Code, out)
		}

		// Anonymous callers and members are refused by the admin API.
		if rec, _ = owner.call("GET", "/api/admin/claims", nil); rec.Code != 401 {
			t.Fatalf("anonymous admin: %d", rec.Code)
		}
		member := &client{t: t, h: f.srv}
		member.call("POST", "/api/store/customers", map[string]string{"first_name": "M", "last_name": "M", "phone": "1", "email": "member@example.com", "password": "tulip-lamp-7"})
		member.call("POST", "/api/store/auth", map[string]string{"email": "member@example.com", "password": "tulip-lamp-7"})
		if rec, _ = member.call("GET", "/api/admin/claims", nil); rec.Code != 401 {
			t.Fatalf("member on the admin API: %d", rec.Code)
		}
		if rec, _ = member.call("POST", "/api/admin/auth", map[string]string{"email": "member@example.com", "password": "tulip-lamp-7"}); rec.Code != 401 {
			t.Fatalf("member credentials on the admin sign-in: %d", rec.Code)
		}

		cs := newClaims(d, stores.NewRepo(d), nil)
		dbtest.Must(t, cs.AddModerator(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		rec, out = mod.call("GET", "/api/admin/claims", nil)
		list := out["claims"].([]any)
		if rec.Code != 200 || len(list) != 1 {
			t.Fatalf("pending claims: %d %v", rec.Code, out)
		}
		first := list[0].(map[string]any)
		if first["suggested_location"] == nil || first["working_hours_parsed"] != true {
			t.Fatalf("claim details: %v", first)
		}
		if rec, _ = mod.call("POST", "/api/admin/claims/"+itoa(claimID)+"/reject", map[string]string{"reason": ""}); rec.Code != 400 {
			t.Fatalf("reject without reason: %d", rec.Code)
		}
		if rec, out = mod.call("POST", "/api/admin/claims/"+itoa(claimID)+"/approve", map[string]any{}); rec.Code != 200 || out["status"] != "approved" || out["store_id"] == nil {
			t.Fatalf("approve: %d %v", rec.Code, out)
		}
		if rec, _ = mod.call("POST", "/api/admin/claims/"+itoa(claimID)+"/approve", map[string]any{}); rec.Code != 409 {
			t.Fatalf("approve twice: %d", rec.Code)
		}
		if rec, _ = mod.call("GET", "/api/admin/claims/999999", nil); rec.Code != 404 {
			t.Fatalf("unknown claim: %d", rec.Code)
		}
		_, out = mod.call("GET", "/api/admin/claims?status=approved", nil)
		if len(out["claims"].([]any)) != 1 {
			t.Fatalf("approved list: %v", out)
		}
		if rec, _ = mod.call("GET", "/api/admin/claims?status=bogus", nil); rec.Code != 400 {
			t.Fatalf("bogus status: %d", rec.Code)
		}
		if rec, _ = mod.call("DELETE", "/api/admin/auth", nil); rec.Code != 200 {
			t.Fatalf("admin sign out: %d", rec.Code)
		}
	})
}

func modSignIn(t *testing.T, h http.Handler, c *client) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", "/api/admin/auth", strings.NewReader(`{"email":"mod@example.com","password":"moderator-pass"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	checkContract(t, req, []byte(`{"email":"mod@example.com","password":"moderator-pass"}`), rec, true)
	if rec.Code != 200 {
		t.Fatalf("moderator sign in: %d %s", rec.Code, rec.Body)
	}
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "locator_admin" {
			c.cookie = ck
		}
	}
	if c.cookie == nil || c.cookie.SameSite != http.SameSiteStrictMode || !c.cookie.HttpOnly {
		t.Fatalf("admin cookie: %+v", c.cookie)
	}
	return rec
}

func TestConcurrentCreateUserOverHTTP(t *testing.T) {
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			req := jsonRequest("POST", "/api/store/create-user", `{"store_name":"S","email":"same@example.com","password":"pw-123456","phone_number":"1","referred_by":"x"}`)
			req.RemoteAddr = "10.0." + itoa(int64(i)) + ".1:1234" // 50 clients, no per-IP limit
			codes <- serve(t, f.srv, req).Code
		}(i)
	}
	wg.Wait()
	close(codes)
	created := 0
	for c := range codes {
		switch c {
		case 201:
			created++
		case 409:
		default:
			t.Errorf("status %d", c)
		}
	}
	var n int
	dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM business_accounts").Scan(&n), "count")
	if created != 1 || n != 1 {
		t.Fatalf("%d created, %d rows", created, n)
	}
}

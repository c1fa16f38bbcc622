package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"locator/internal/db/dbtest"
)

// hintCookie is the answer's Set-Cookie of the named hint, or nil.
func hintCookie(rec *httptest.ResponseRecorder, name string) *http.Cookie {
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// The session hint cookies: readable by the page (not HttpOnly), "1" from
// sign-in to sign-out, and cleared by a /me that answers 401.
func TestSessionHint(t *testing.T) {
	t.Parallel()
	f := newFixture(t, dbtest.SQLite(t))
	c := &client{t: t, h: f.srv}
	c.run([]step{{name: "sign up", method: "POST", target: "/api/store/customers", status: 201,
		body: map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "ann@example.com", "password": "tulip-lamp-7"}}})
	rec, _ := c.call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "tulip-lamp-7"})
	if h := hintCookie(rec, "locator_session_hint"); rec.Code != 200 || h == nil || h.Value != "1" || h.HttpOnly || h.MaxAge <= 0 || h.Path != "/" {
		t.Fatalf("sign-in: %d, hint %+v", rec.Code, h)
	}
	rec, _ = c.call("DELETE", "/api/store/auth", nil)
	if h := hintCookie(rec, "locator_session_hint"); h == nil || h.MaxAge >= 0 {
		t.Fatalf("sign-out: %d, hint %+v", rec.Code, h)
	}
	// A stale hint: each area's /me answers 401 and clears it.
	for target, name := range map[string]string{
		"/api/store/customers/me": "locator_session_hint",
		"/api/business/me":        "locator_business_hint",
		"/api/admin/me":           "locator_admin_hint",
	} {
		req := httptest.NewRequest("GET", target, nil)
		req.AddCookie(&http.Cookie{Name: name, Value: "1"})
		req.AddCookie(&http.Cookie{Name: strings.TrimSuffix(name, "_hint"), Value: "ended-session"})
		rec := serve(t, f.srv, req)
		if h := hintCookie(rec, name); rec.Code != 401 || h == nil || h.MaxAge >= 0 {
			t.Errorf("%s with an ended session: %d, hint %+v", target, rec.Code, h)
		}
	}
}

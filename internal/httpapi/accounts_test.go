package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"locator/internal/accounts"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/mail"
	"locator/internal/mail/smtptest"
	"locator/internal/secret"
)

// client keeps the session cookie between requests, like a browser.
type client struct {
	t      *testing.T
	h      http.Handler
	cookie *http.Cookie
}

func (c *client) call(method, target string, body any) (*httptest.ResponseRecorder, map[string]any) {
	c.t.Helper()
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if c.cookie != nil {
		req.AddCookie(c.cookie)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	checkContract(c.t, req, b, rec, rec.Code < 400)
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "locator_session" {
			if ck.MaxAge < 0 {
				c.cookie = nil
			} else {
				c.cookie = ck
			}
		}
	}
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func favIDs(out map[string]any) []float64 {
	var ids []float64
	cust, _ := out["customer"].(map[string]any)
	favs, _ := cust["favorites_phstores"].([]any)
	for _, f := range favs {
		ids = append(ids, f.(map[string]any)["id"].(float64))
	}
	return ids
}

func TestAccountsAPI(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		c := &client{t: t, h: f.srv}
		signUp := map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "Ann@Example.com", "password": "tulip-lamp-7"}
		if rec, out := c.call("POST", "/api/store/customers", signUp); rec.Code != 201 || out["customer"].(map[string]any)["email"] != "ann@example.com" {
			t.Fatalf("sign up: %d %v", rec.Code, out)
		}
		if c.cookie != nil {
			t.Fatal("sign-up signed in")
		}
		if rec, out := c.call("POST", "/api/store/customers", signUp); rec.Code != 409 || !strings.Contains(out["message"].(string), "already exists") {
			t.Fatalf("duplicate sign up: %d %v", rec.Code, out)
		}
		if rec, out := c.call("POST", "/api/store/customers", map[string]string{"email": "x@y.co"}); rec.Code != 400 || out["message"] != "First name is required" {
			t.Fatalf("incomplete sign up: %d %v", rec.Code, out)
		}
		// Wrong password and unknown email: the same answer.
		r1, _ := c.call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "nope-nope"})
		r2, _ := c.call("POST", "/api/store/auth", map[string]string{"email": "who@example.com", "password": "tulip-lamp-7"})
		if r1.Code != 401 || r2.Code != 401 || r1.Body.String() != r2.Body.String() || !strings.Contains(r1.Body.String(), "Invalid email or password") {
			t.Fatalf("bad credentials: %d %s / %d %s", r1.Code, r1.Body, r2.Code, r2.Body)
		}
		if rec, _ := c.call("GET", "/api/store/customers/me", nil); rec.Code != 401 {
			t.Fatalf("me before sign in: %d", rec.Code)
		}
		rec, _ := c.call("POST", "/api/store/auth", map[string]string{"email": "ANN@example.com", "password": "tulip-lamp-7"})
		if rec.Code != 200 || c.cookie == nil || !c.cookie.HttpOnly || c.cookie.SameSite != http.SameSiteLaxMode {
			t.Fatalf("sign in: %d %+v", rec.Code, c.cookie)
		}
		// Favourites: idempotent, newest first, unknown store 404, id as number or string.
		for _, id := range []any{f.nearID, f.farID, itoa(f.farID)} {
			if rec, out := c.call("POST", "/api/customers/add-favorite-phstore", map[string]any{"phstore_id": id}); rec.Code != 200 {
				t.Fatalf("add %v: %d %v", id, rec.Code, out)
			}
		}
		_, out := c.call("GET", "/api/store/customers/me", nil)
		if ids := favIDs(out); len(ids) != 2 || int64(ids[0]) != f.farID || int64(ids[1]) != f.nearID {
			t.Fatalf("favourites newest first: %v", ids)
		}
		for _, id := range []any{999999, f.hiddenID} {
			if rec, _ := c.call("POST", "/api/customers/add-favorite-phstore", map[string]any{"phstore_id": id}); rec.Code != 404 {
				t.Fatalf("add unknown %v: %d", id, rec.Code)
			}
		}
		if rec, _ := c.call("POST", "/api/customers/add-favorite-phstore", map[string]any{"phstore_id": "abc"}); rec.Code != 400 {
			t.Fatalf("add abc: %d", rec.Code)
		}
		if rec, _ := c.call("POST", "/api/customers/remove-favorite-phstore", map[string]any{"phstore_id": 999999}); rec.Code != 404 {
			t.Fatalf("remove unknown: %d", rec.Code)
		}
		for i := 0; i < 2; i++ {
			if rec, out = c.call("POST", "/api/customers/remove-favorite-phstore", map[string]any{"phstore_id": f.farID}); rec.Code != 200 {
				t.Fatalf("remove: %d", rec.Code)
			}
		}
		if ids := favIDs(out); len(ids) != 1 || int64(ids[0]) != f.nearID {
			t.Fatalf("after remove: %v", ids)
		}
		// Profile.
		if rec, out = c.call("POST", "/api/store/customers/me", map[string]string{"first_name": "Anna", "last_name": "Park"}); rec.Code != 200 || out["customer"].(map[string]any)["first_name"] != "Anna" {
			t.Fatalf("name: %d %v", rec.Code, out)
		}
		if rec, out = c.call("POST", "/api/store/customers/me", map[string]string{"phone": "1234567890123"}); rec.Code != 400 || out["message"] != "Phone should be less thant 12 symbols" {
			t.Fatalf("long phone: %d %v", rec.Code, out)
		}
		// A new password needs the current one; the member is mailed.
		if rec, out = c.call("POST", "/api/store/customers/me", map[string]string{"password": "another-pass"}); rec.Code != 400 || out["message"] != accounts.ErrOldPasswordRequired.Message {
			t.Fatalf("password without the current one: %d %v", rec.Code, out)
		}
		if rec, out = c.call("POST", "/api/store/customers/me", map[string]string{"password": "another-pass", "old_password": "not-it-at-all"}); rec.Code != 400 || out["message"] != accounts.ErrOldPasswordWrong.Message {
			t.Fatalf("password with a wrong current one: %d %v", rec.Code, out)
		}
		if rec, out = c.call("POST", "/api/store/customers/me", map[string]string{"password": "12345678", "old_password": "tulip-lamp-7"}); rec.Code != 400 || out["message"] != secret.MsgPasswordCommon {
			t.Fatalf("common password: %d %v", rec.Code, out)
		}
		if rec, _ = c.call("POST", "/api/store/customers/me", map[string]string{"password": "another-pass", "old_password": "tulip-lamp-7"}); rec.Code != 200 {
			t.Fatalf("password: %d", rec.Code)
		}
		var subject string
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT subject FROM outbox WHERE to_addr = 'ann@example.com'").Scan(&subject), "password mail")
		if subject != "Your Locator password was changed" {
			t.Fatalf("mail %q", subject)
		}
		// Sign out ends the session on the server.
		old := c.cookie
		if rec, _ = c.call("DELETE", "/api/store/auth", nil); rec.Code != 200 || c.cookie != nil {
			t.Fatalf("sign out: %d", rec.Code)
		}
		c.cookie = old
		if rec, _ = c.call("GET", "/api/store/customers/me", nil); rec.Code != 401 {
			t.Fatalf("old cookie after sign out: %d", rec.Code)
		}
		c.cookie = nil
		if rec, _ = c.call("POST", "/api/customers/add-favorite-phstore", map[string]any{"phstore_id": f.nearID}); rec.Code != 401 {
			t.Fatalf("favourite without session: %d", rec.Code)
		}
		// Malformed bodies.
		for _, body := range []string{"", "[]", "{", `{"email": 5}`, `{} {}`} {
			req := jsonRequest("POST", "/api/store/auth", body)
			if rec := serve(t, f.srv, req); rec.Code != 400 || !strings.Contains(rec.Body.String(), `"message"`) {
				t.Errorf("body %q: %d %s", body, rec.Code, rec.Body)
			}
		}
		req := jsonRequest("POST", "/api/store/customers", `{"first_name":"`+strings.Repeat("x", 2<<20)+`"}`)
		if rec := serve(t, f.srv, req); rec.Code != 413 {
			t.Errorf("2 MB body: %d", rec.Code)
		}
		// Cross-site form posts are refused.
		req = httptest.NewRequest("POST", "/api/store/auth", strings.NewReader(`{}`))
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if rec := serve(t, f.srv, req); rec.Code != 403 {
			t.Errorf("cross-site sign in: %d", rec.Code)
		}
	})
}

func TestPasswordResetByEmail(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		c := &client{t: t, h: f.srv}
		c.call("POST", "/api/store/customers", map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "1", "email": "ann@example.com", "password": "tulip-lamp-7"})
		r1, _ := c.call("POST", "/api/store/customers/password-token2", map[string]string{"email": " ann@example.com ", "app": "locator"})
		r2, _ := c.call("POST", "/api/store/customers/password-token2", map[string]string{"email": "nobody@example.com", "app": "locator"})
		if r1.Code != 200 || r1.Body.String() != r2.Body.String() {
			t.Fatalf("reset requests: %d %s / %d %s", r1.Code, r1.Body, r2.Code, r2.Body)
		}
		f.srv.Accounts.Wait() // the mail is written after the answer
		sink, err := smtptest.Start(smtptest.Options{})
		dbtest.Must(t, err, "sink")
		defer sink.Stop()
		sender, _ := mail.ParseSMTPURL("smtp://"+sink.Addr(), "Locator <no-reply@locator.test>")
		w := &mail.Worker{DB: d, Sender: sender, From: sender.From, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		n, err := w.DeliverDue(context.Background())
		dbtest.Must(t, err, "deliver")
		msgs := sink.Wait(1, 5*time.Second)
		if n != 1 || len(msgs) != 1 || msgs[0].To[0] != "ann@example.com" {
			t.Fatalf("mails: %d %+v", n, msgs)
		}
		text := msgs[0].Part("text/plain")
		_, after, ok := strings.Cut(text, "http://locator.test/reset-password?token=")
		if !ok || !strings.Contains(msgs[0].Part("text/html"), "/reset-password?token=") {
			t.Fatalf("no reset link: %q", text)
		}
		token := strings.Fields(after)[0]
		rec, out := c.call("POST", "/api/store/customers/password-reset", map[string]string{"email": "ann@example.com", "password": "fresh-pass-1", "token": token})
		if rec.Code != 200 {
			t.Fatalf("reset: %d %v", rec.Code, out)
		}
		if rec, _ = c.call("POST", "/api/store/customers/password-reset", map[string]string{"email": "ann@example.com", "password": "fresh-pass-2", "token": token}); rec.Code != 400 {
			t.Fatalf("token reused: %d", rec.Code)
		}
		if rec, _ = c.call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "fresh-pass-1"}); rec.Code != 200 {
			t.Fatalf("sign in with the new password: %d", rec.Code)
		}
	})
}

func TestSignInRateLimitedPerIP(t *testing.T) {
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	var last *httptest.ResponseRecorder
	for i := 0; i < 31; i++ {
		req := jsonRequest("POST", "/api/store/auth", `{"email":"x`+itoa(int64(i))+`@y.co","password":"p"}`)
		last = serve(t, f.srv, req)
	}
	if last.Code != 429 || last.Header().Get("Retry-After") == "" {
		t.Fatalf("31st sign-in from one IP: %d %v", last.Code, last.Header())
	}
}

package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/mail"
	"locator/internal/mail/smtptest"
	"locator/internal/members"
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
	switch v := body.(type) {
	case nil:
	case string: // sent as it is: a malformed body on purpose
		b = []byte(v)
	default:
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

// customerReply is the typed reply of the calls that answer with the member.
type customerReply struct {
	Customer struct {
		ID        int64  `json:"id"`
		Email     string `json:"email"`
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		Phone     string `json:"phone"`
		Favorites []struct {
			ID int64 `json:"id"`
		} `json:"favorites_phstores"`
	} `json:"customer"`
}

// favourites checks the member's favourite stores, newest first.
func favourites(want ...int64) replyCheck {
	return reply(func(t *testing.T, r customerReply) {
		t.Helper()
		got := []int64{}
		for _, f := range r.Customer.Favorites {
			got = append(got, f.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("favourites %v, want %v", got, want)
		}
	})
}

func TestAccountsAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		c := &client{t: t, h: f.srv}
		signUp := map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "Ann@Example.com", "password": "tulip-lamp-7"}
		var wrongPassword, unknownEmail apiError
		c.run([]step{
			{name: "sign up keeps the email in lower case", method: "POST", target: "/api/store/customers", body: signUp, status: 201,
				reply: reply(func(t *testing.T, r customerReply) {
					if r.Customer.Email != "ann@example.com" || r.Customer.FirstName != "Ann" {
						t.Errorf("customer %+v", r.Customer)
					}
				})},
			// A phone as people write it, 14 characters and 10 digits (issue 39, M7), stored as the profile stores it.
			{name: "sign up with (212) 555-0199", method: "POST", target: "/api/store/customers", status: 201,
				body: map[string]string{"first_name": "Bo", "last_name": "Ray", "phone": "(212) 555-0199", "email": "bo@example.com", "password": "tulip-lamp-7"},
				reply: reply(func(t *testing.T, r customerReply) {
					if r.Customer.Phone != "+12125550199" {
						t.Errorf("phone %q, want +12125550199", r.Customer.Phone)
					}
				})},
			{name: "sign up twice", method: "POST", target: "/api/store/customers", body: signUp, status: 409,
				message: "A member with this email already exists. Sign in or reset your password."},
			{name: "incomplete sign up", method: "POST", target: "/api/store/customers", body: map[string]string{"email": "x@y.co"}, status: 400,
				message: "First name is required"},
			{name: "wrong password", method: "POST", target: "/api/store/auth", body: map[string]string{"email": "ann@example.com", "password": "nope-nope"}, status: 401,
				message: "Invalid email or password", reply: into(&wrongPassword)},
			{name: "unknown email", method: "POST", target: "/api/store/auth", body: map[string]string{"email": "who@example.com", "password": "tulip-lamp-7"}, status: 401,
				reply: into(&unknownEmail)},
			{name: "me before signing in", method: "GET", target: "/api/store/customers/me", status: 401},
		})
		if wrongPassword != unknownEmail {
			t.Fatalf("a wrong password and an unknown email answer differently: %v / %v", wrongPassword, unknownEmail)
		}
		if c.cookie != nil {
			t.Fatal("sign-up signed in")
		}
		c.run([]step{{name: "sign in, any case", method: "POST", target: "/api/store/auth", body: map[string]string{"email": "ANN@example.com", "password": "tulip-lamp-7"}, status: 200}})
		if c.cookie == nil || !c.cookie.HttpOnly || c.cookie.SameSite != http.SameSiteLaxMode {
			t.Fatalf("session cookie: %+v", c.cookie)
		}
		add := func(name string, id any, status int) step {
			return step{name: name, method: "POST", target: "/api/customers/add-favorite-phstore", body: map[string]any{"phstore_id": id}, status: status}
		}
		remove := func(name string, id any, status int) step {
			return step{name: name, method: "POST", target: "/api/customers/remove-favorite-phstore", body: map[string]any{"phstore_id": id}, status: status}
		}
		profile := func(name string, body map[string]string, status int, message string) step {
			return step{name: name, method: "POST", target: "/api/store/customers/me", body: body, status: status, message: message}
		}
		c.run([]step{
			// Favourites: idempotent, newest first, unknown store 404, id as number or string.
			add("add a favourite", f.nearID, 200),
			add("add another", f.farID, 200),
			add("add it again, id as a string", itoa(f.farID), 200),
			{name: "favourites newest first", method: "GET", target: "/api/store/customers/me", status: 200, reply: favourites(f.farID, f.nearID)},
			add("add an unknown store", 999999, 404),
			add("add a hidden store", f.hiddenID, 404),
			add("add id abc", "abc", 400),
			remove("remove an unknown store", 999999, 404),
			remove("remove a favourite", f.farID, 200),
			{name: "remove it again", method: "POST", target: "/api/customers/remove-favorite-phstore", body: map[string]any{"phstore_id": f.farID}, status: 200,
				reply: favourites(f.nearID)},
			// Profile.
			{name: "change the name", method: "POST", target: "/api/store/customers/me", body: map[string]string{"first_name": "Anna", "last_name": "Park"}, status: 200,
				reply: reply(func(t *testing.T, r customerReply) {
					if r.Customer.FirstName != "Anna" || r.Customer.LastName != "Park" {
						t.Errorf("customer %+v", r.Customer)
					}
				})},
			profile("a long phone", map[string]string{"phone": "1234567890123"}, 400, "Phone should be less thant 12 symbols"),
			{name: "a phone with separators", method: "POST", target: "/api/store/customers/me", body: map[string]string{"phone": "212.555.0199"}, status: 200,
				reply: reply(func(t *testing.T, r customerReply) {
					if r.Customer.Phone != "+12125550199" {
						t.Errorf("phone %q, want +12125550199", r.Customer.Phone)
					}
				})},
			// A new password needs the current one; the member is mailed.
			profile("a password without the current one", map[string]string{"password": "another-pass"}, 400, members.ErrOldPasswordRequired.Message),
			profile("a password with a wrong current one", map[string]string{"password": "another-pass", "old_password": "not-it-at-all"}, 400, members.ErrOldPasswordWrong.Message),
			profile("a common password", map[string]string{"password": "12345678", "old_password": "tulip-lamp-7"}, 400, secret.MsgPasswordCommon),
			profile("a new password", map[string]string{"password": "another-pass", "old_password": "tulip-lamp-7"}, 200, ""),
		})
		var subject string
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT subject FROM outbox WHERE to_addr = 'ann@example.com'").Scan(&subject), "password mail")
		if subject != "Your Locator password was changed" {
			t.Fatalf("mail %q", subject)
		}
		// Sign out ends the session on the server.
		old := c.cookie
		c.run([]step{{name: "sign out", method: "DELETE", target: "/api/store/auth", status: 200}})
		if c.cookie != nil {
			t.Fatal("sign out kept the cookie")
		}
		c.cookie = old
		c.run([]step{{name: "the old cookie after signing out", method: "GET", target: "/api/store/customers/me", status: 401}})
		c.cookie = nil
		c.runEach([]step{
			add("a favourite without a session", f.nearID, 401),
			// Malformed bodies.
			{name: "empty body", method: "POST", target: "/api/store/auth", body: "", status: 400},
			{name: "an array", method: "POST", target: "/api/store/auth", body: "[]", status: 400},
			{name: "cut short", method: "POST", target: "/api/store/auth", body: "{", status: 400},
			{name: "a number for the email", method: "POST", target: "/api/store/auth", body: `{"email": 5}`, status: 400},
			{name: "two objects", method: "POST", target: "/api/store/auth", body: `{} {}`, status: 400},
			{name: "a 2 MB body", method: "POST", target: "/api/store/customers", body: `{"first_name":"` + strings.Repeat("x", 2<<20) + `"}`, status: 413},
		})
		// Cross-site form posts are refused.
		req := httptest.NewRequest("POST", "/api/store/auth", strings.NewReader(`{}`))
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if rec := serve(t, f.srv, req); rec.Code != 403 {
			t.Errorf("cross-site sign in: %d", rec.Code)
		}
	})
}

func TestPasswordResetByEmail(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
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

		// The token alone is enough (the reset page asks for no email).
		c.call("POST", "/api/store/customers/password-token2", map[string]string{"email": "ann@example.com", "app": "locator"})
		f.srv.Accounts.Wait()
		var body string
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT text_body FROM outbox ORDER BY id DESC LIMIT 1").Scan(&body), "second mail")
		_, after, _ = strings.Cut(body, "token=")
		if rec, out = c.call("POST", "/api/store/customers/password-reset", map[string]string{"password": "fresh-pass-3", "token": strings.Fields(after)[0]}); rec.Code != 200 {
			t.Fatalf("reset by token alone: %d %v", rec.Code, out)
		}
		if rec, _ = c.call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "fresh-pass-3"}); rec.Code != 200 {
			t.Fatalf("sign in after a reset by token alone: %d", rec.Code)
		}
	})
}

func TestSignInRateLimitedPerIP(t *testing.T) {
	t.Parallel()
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

// A member signs in without proving the address; the profile says whether
// it is proven, a button mails the link, and following it (with the
// member's password) proves it.
func TestMemberEmailProof(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		m := newBizClient(t, f.srv)
		const email, pw = "proof@example.com", "tulip-lamp-7"
		if rec, _ := m.call("POST", "/api/store/customers", map[string]string{"first_name": "P", "last_name": "Q", "phone": "1", "email": email, "password": pw}); rec.Code != 201 {
			t.Fatalf("sign up: %d", rec.Code)
		}
		if rec, _ := m.call("POST", "/api/store/auth", map[string]string{"email": email, "password": pw}); rec.Code != 200 {
			t.Fatalf("sign in: %d", rec.Code)
		}
		verified := func() any {
			_, out := m.call("GET", "/api/store/customers/me", nil)
			return out["customer"].(map[string]any)["email_verified"]
		}
		if v := verified(); v != false {
			t.Fatalf("email_verified before the proof: %v", v)
		}
		if rec, _ := newBizClient(t, f.srv).call("POST", "/api/store/customers/me/email-proof", nil); rec.Code != 401 {
			t.Fatalf("anonymous proof request: %d", rec.Code)
		}
		if rec, _ := m.call("POST", "/api/store/customers/me/email-proof", nil); rec.Code != 202 {
			t.Fatalf("proof request: %d", rec.Code)
		}
		var body string
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT text_body FROM outbox WHERE to_addr = $1 AND subject = 'Confirm your email for Locator'", email).Scan(&body), "mail")
		tok := regexp.MustCompile(`/verify-email\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(body)
		if tok == nil {
			t.Fatalf("no link in %q", body)
		}
		anon := newBizClient(t, f.srv)
		if rec, _ := anon.call("POST", "/api/store/customers/email-proof/confirm", map[string]string{"token": tok[1], "password": "wrong-pass-1"}); rec.Code != 400 {
			t.Fatalf("wrong password: %d", rec.Code)
		}
		if rec, _ := anon.call("POST", "/api/store/customers/email-proof/confirm", map[string]string{"token": tok[1], "password": pw}); rec.Code != 200 {
			t.Fatalf("confirm: %d", rec.Code)
		}
		if rec, _ := anon.call("POST", "/api/store/customers/email-proof/confirm", map[string]string{"token": tok[1], "password": pw}); rec.Code != 400 {
			t.Fatalf("second use: %d", rec.Code)
		}
		if v := verified(); v != true {
			t.Fatalf("email_verified after the proof: %v", v)
		}
		if rec, _ := m.call("POST", "/api/store/customers/me/email-proof", nil); rec.Code != 409 {
			t.Fatalf("proof request once proven: %d", rec.Code)
		}
	})
}

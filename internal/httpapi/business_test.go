package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/photos"
	"locator/internal/stores"
)

// The audit log names accounts by id and address (audit.BusinessActor,
// audit.ModeratorActor).
var (
	ownerActor = regexp.MustCompile(`^business:[0-9]+:owner@example\.com$`)
	modActor   = regexp.MustCompile(`^moderator:[0-9]+:mod@example\.com$`)
)

// bizClient keeps every cookie it is given, by name, like a browser.
type bizClient struct {
	t       *testing.T
	h       http.Handler
	cookies map[string]*http.Cookie
}

func newBizClient(t *testing.T, h http.Handler) *bizClient {
	return &bizClient{t: t, h: h, cookies: map[string]*http.Cookie{}}
}

func (c *bizClient) call(method, target string, body any) (*httptest.ResponseRecorder, map[string]any) {
	c.t.Helper()
	var b []byte
	if body != nil {
		if s, ok := body.(string); ok {
			b = []byte(s)
		} else {
			b, _ = json.Marshal(body)
		}
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	for _, ck := range c.cookies {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	checkContract(c.t, req, b, rec, rec.Code < 400)
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck
		}
	}
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func (c *bizClient) token(name string) string {
	if ck := c.cookies[name]; ck != nil {
		return ck.Value
	}
	return ""
}

// withCookie is a client holding only cookie name=value.
func withCookie(t *testing.T, h http.Handler, name, value string) *bizClient {
	c := newBizClient(t, h)
	c.cookies[name] = &http.Cookie{Name: name, Value: value}
	return c
}

const ownerPass, otherPass = "tulip-lamp-7", "cedar-kite-42"

// bizSetup: owner@example.com claimed and got approved a store in Austin
// (ownStore); other@example.com was linked by a moderator to the fixture's
// "Near" store.
type bizSetup struct {
	*fixture
	cs       *claims.Service
	ownStore int64
	owner    *bizClient
	other    *bizClient
}

// eachBizSetup runs fn once per engine (dbtest.Each) with newBizSetup's
// owner, store and server.
func eachBizSetup(t *testing.T, fn func(t *testing.T, d *db.DB, s *bizSetup)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) { fn(t, d, newBizSetup(t, d)) })
}

func newBizSetup(t *testing.T, d *db.DB) *bizSetup {
	t.Helper()
	ctx := context.Background()
	f := newFixture(t, d)
	anon := newBizClient(t, f.srv)
	if rec, _ := anon.call("POST", "/api/store/claim", claimForm); rec.Code != 201 {
		t.Fatalf("claim: %d", rec.Code)
	}
	for email, pw := range map[string]string{"owner@example.com": ownerPass, "other@example.com": otherPass} {
		if rec, _ := anon.call("POST", "/api/store/create-user", map[string]string{"store_name": "S", "email": email, "password": pw, "phone_number": "1"}); rec.Code != 201 {
			t.Fatalf("create user %s: %d", email, rec.Code)
		}
	}
	for email, pw := range map[string]string{"owner@example.com": ownerPass, "other@example.com": otherPass} {
		confirmEmail(newBizClient(t, f.srv), d, email, pw)
	}
	cs := newClaims(d, stores.NewRepo(d), nil)
	list, err := cs.List(ctx, claims.Pending, 10)
	dbtest.Must(t, err, "claims")
	c, err := cs.Approve(ctx, list[0].ID, "cli:test", claims.Approval{})
	dbtest.Must(t, err, "approve")
	dbtest.Must(t, cs.LinkStore(ctx, f.nearID, "Other@Example.com", "cli:test"), "link")
	s := &bizSetup{fixture: f, cs: cs, ownStore: c.StoreID, owner: newBizClient(t, f.srv), other: newBizClient(t, f.srv)}
	s.signIn(s.owner, "owner@example.com", ownerPass)
	s.signIn(s.other, "other@example.com", otherPass)
	return s
}

var confirmLink = regexp.MustCompile(`/business/verify\?token=([A-Za-z0-9_-]+)`)

// lastConfirmToken reads the newest confirmation link mailed to email
// from the outbox (the mailbox, in these tests).
func lastConfirmToken(t *testing.T, d *db.DB, email string) string {
	t.Helper()
	var body string
	dbtest.Must(t, d.QueryRow(context.Background(), `SELECT text_body FROM outbox WHERE to_addr = $1 AND subject LIKE 'Confirm your email%'
		ORDER BY id DESC LIMIT 1`, email).Scan(&body), "confirmation mail to %s", email)
	m := confirmLink.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no confirmation link in %q", body)
	}
	return m[1]
}

// confirmEmail follows the newest link mailed to email with pw: c is
// signed in to the proven account.
// createProven makes a business account through the API, then proves its
// mailbox with the mailed link.
func createProven(anon *bizClient, srv *httpapi.Server, d *db.DB, email, pw string) {
	anon.t.Helper()
	if rec, _ := anon.call("POST", "/api/store/create-user", map[string]string{"store_name": "S", "email": email, "password": pw, "phone_number": "1"}); rec.Code != 201 {
		anon.t.Fatalf("create user %s: %d", email, rec.Code)
	}
	confirmEmail(newBizClient(anon.t, srv), d, email, pw)
}

func confirmEmail(c *bizClient, d *db.DB, email, pw string) {
	c.t.Helper()
	rec, out := c.call("POST", "/api/business/email-proof/confirm", map[string]string{"token": lastConfirmToken(c.t, d, email), "password": pw})
	if rec.Code != 200 || out["account"].(map[string]any)["email_verified"] != true {
		c.t.Fatalf("confirm %s: %d %v", email, rec.Code, out)
	}
}

func (s *bizSetup) signIn(c *bizClient, email, pw string) {
	c.t.Helper()
	rec, out := c.call("POST", "/api/business/auth", map[string]string{"email": email, "password": pw})
	if rec.Code != 200 || out["account"].(map[string]any)["email"] != email {
		c.t.Fatalf("business sign in %s: %d %v", email, rec.Code, out)
	}
	ck := c.cookies["locator_business"]
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
		c.t.Fatalf("business cookie: %+v", ck)
	}
}

func storeIDs(out map[string]any) []int64 {
	var ids []int64
	for _, s := range out["stores"].([]any) {
		ids = append(ids, int64(s.(map[string]any)["id"].(float64)))
	}
	return ids
}

func TestBusinessSessions(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		anon := newBizClient(t, s.srv)
		if rec, _ := anon.call("GET", "/api/business/me", nil); rec.Code != 401 {
			t.Fatalf("anonymous me: %d", rec.Code)
		}
		if rec, out := anon.call("POST", "/api/business/auth", map[string]string{"email": "owner@example.com", "password": "wrong-pass-9"}); rec.Code != 401 || out["message"] != "Invalid email or password" {
			t.Fatalf("wrong password: %d %v", rec.Code, out)
		}
		if rec, out := anon.call("POST", "/api/business/auth", map[string]string{"email": "nobody@example.com", "password": ownerPass}); rec.Code != 401 || out["message"] != "Invalid email or password" {
			t.Fatalf("unknown email: %d %v", rec.Code, out)
		}
		if rec, _ := anon.call("POST", "/api/business/auth", `["x"]`); rec.Code != 400 {
			t.Fatalf("not an object: %d", rec.Code)
		}
		if rec, out := s.owner.call("GET", "/api/business/me", nil); rec.Code != 200 || rec.Header().Get("Cache-Control") != "no-store" ||
			out["account"].(map[string]any)["email"] != "owner@example.com" {
			t.Fatalf("me: %d %v", rec.Code, out)
		}

		// The session rotates at sign-in: the old token is dead.
		old := s.owner.token("locator_business")
		s.signIn(s.owner, "owner@example.com", ownerPass)
		if s.owner.token("locator_business") == old {
			t.Fatal("the session id did not rotate")
		}
		if rec, _ := withCookie(t, s.srv, "locator_business", old).call("GET", "/api/business/me", nil); rec.Code != 401 {
			t.Fatalf("old business session: %d", rec.Code)
		}

		// Each area refuses the others' cookies.
		member := newBizClient(t, s.srv)
		member.call("POST", "/api/store/customers", map[string]string{"first_name": "M", "last_name": "M", "phone": "1", "email": "owner@example.com", "password": ownerPass})
		if rec, _ := member.call("POST", "/api/store/auth", map[string]string{"email": "owner@example.com", "password": ownerPass}); rec.Code != 200 {
			t.Fatalf("member sign in: %d", rec.Code)
		}
		memberToken := member.token("locator_session")
		dbtest.Must(t, s.cs.Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: s.srv}
		modSignIn(t, s.srv, mod)
		modToken := mod.cookie.Value
		bizToken := s.owner.token("locator_business")
		for _, c := range []struct {
			name, cookie, token, path string
		}{
			{"member session on the dashboard", "locator_session", memberToken, "/api/business/me"},
			{"member token as a business cookie", "locator_business", memberToken, "/api/business/stores"},
			{"moderator session on the dashboard", "locator_admin", modToken, "/api/business/me"},
			{"moderator token as a business cookie", "locator_business", modToken, "/api/business/stores"},
			{"business token as a member cookie", "locator_session", bizToken, "/api/store/customers/me"},
			{"business session on the member API", "locator_business", bizToken, "/api/store/customers/me"},
			{"business token as a moderator cookie", "locator_admin", bizToken, "/api/admin/claims"},
			{"business session on the admin API", "locator_business", bizToken, "/api/admin/change-requests"},
		} {
			if rec, _ := withCookie(t, s.srv, c.cookie, c.token).call("GET", c.path, nil); rec.Code != 401 {
				t.Errorf("%s: %d, want 401", c.name, rec.Code)
			}
		}
		if rec, _ := s.owner.call("GET", "/api/business/me", nil); rec.Code != 200 {
			t.Fatalf("still signed in: %d", rec.Code)
		}

		// Sign out ends the session in the database, not only the cookie.
		if rec, _ := s.owner.call("DELETE", "/api/business/auth", nil); rec.Code != 200 || s.owner.token("locator_business") != "" {
			t.Fatalf("sign out: %d", rec.Code)
		}
		if rec, _ := withCookie(t, s.srv, "locator_business", bizToken).call("GET", "/api/business/me", nil); rec.Code != 401 {
			t.Fatalf("signed-out session: %d", rec.Code)
		}
	})
}

func TestBusinessLockoutAndReset(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		// The members' lockout, per account in the database: 10 checks,
		// then even the right password waits. Each try from its own IP.
		for i := 0; i < 10; i++ {
			req := jsonRequest("POST", "/api/business/auth", `{"email":"other@example.com","password":"wrong-pass-9"}`)
			req.RemoteAddr = "10.1." + itoa(int64(i)) + ".1:1000"
			if rec := serve(t, s.srv, req); rec.Code != 401 {
				t.Fatalf("attempt %d: %d", i, rec.Code)
			}
		}
		req := jsonRequest("POST", "/api/business/auth", `{"email":"other@example.com","password":"`+otherPass+`"}`)
		req.RemoteAddr = "10.2.0.1:1000"
		if rec := serve(t, s.srv, req); rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("locked account: %d", rec.Code)
		}

		// And 30 sign-ins per IP a minute, whatever the accounts.
		for i := 0; i <= 30; i++ {
			req := jsonRequest("POST", "/api/business/auth", `{"email":"guess`+itoa(int64(i))+`@example.com","password":"wrong-pass-9"}`)
			req.RemoteAddr = "10.9.9.9:1000"
			rec := serve(t, s.srv, req)
			if want := map[bool]int{true: 401, false: 429}[i < 30]; rec.Code != want {
				t.Fatalf("sign-in %d from one IP: %d, want %d", i+1, rec.Code, want)
			}
		}

		// Reset through the outbox: the same answer for unknown emails.
		anon := newBizClient(t, s.srv)
		for _, email := range []string{"owner@example.com", "nobody@example.com"} {
			if rec, out := anon.call("POST", "/api/business/password-token", map[string]string{"email": email}); rec.Code != 200 || out["message"] != "If an account exists for this email, a link to reset the password is on its way." {
				t.Fatalf("reset request %s: %d %v", email, rec.Code, out)
			}
		}
		if rec, _ := anon.call("POST", "/api/business/password-token", map[string]string{"email": "not-an-email"}); rec.Code != 400 {
			t.Fatalf("bad email: %d", rec.Code)
		}
		s.biz.Wait()
		var body string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT text_body FROM outbox WHERE to_addr = 'owner@example.com' AND subject LIKE '%dashboard password%'").Scan(&body), "reset mail")
		m := regexp.MustCompile(`http://locator\.test/business/reset-password\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no link in %q", body)
		}
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM outbox WHERE to_addr = 'nobody@example.com'").Scan(&n), "count")
		if n != 0 {
			t.Fatal("mail to an unknown email")
		}
		if rec, _ := anon.call("POST", "/api/business/password-reset", map[string]string{"email": "owner@example.com", "password": "short", "token": m[1]}); rec.Code != 400 {
			t.Fatalf("weak password: %d", rec.Code)
		}
		if rec, _ := anon.call("POST", "/api/business/password-reset", map[string]string{"email": "other@example.com", "password": "maple-river-31", "token": m[1]}); rec.Code != 400 {
			t.Fatalf("another account's email: %d", rec.Code)
		}
		// The token alone names the account (the page asks for no email).
		if rec, _ := anon.call("POST", "/api/business/password-reset", map[string]string{"password": "maple-river-31", "token": m[1]}); rec.Code != 200 {
			t.Fatalf("reset: %d", rec.Code)
		}
		if rec, _ := anon.call("POST", "/api/business/password-reset", map[string]string{"email": "owner@example.com", "password": "maple-river-32", "token": m[1]}); rec.Code != 400 {
			t.Fatalf("token used twice: %d", rec.Code)
		}
		if rec, _ := s.owner.call("GET", "/api/business/me", nil); rec.Code != 401 {
			t.Fatalf("session after reset: %d", rec.Code)
		}
		s.signIn(s.owner, "owner@example.com", "maple-river-31")
	})
}

func TestBusinessStoresOwnership(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		if _, out := s.owner.call("GET", "/api/business/stores", nil); len(storeIDs(out)) != 1 || storeIDs(out)[0] != s.ownStore {
			t.Fatalf("owner's stores: %v", out)
		}
		if _, out := s.other.call("GET", "/api/business/stores", nil); len(storeIDs(out)) != 1 || storeIDs(out)[0] != s.nearID {
			t.Fatalf("other's stores: %v", out)
		}
		anon := newBizClient(t, s.srv)
		if rec, _ := anon.call("GET", "/api/business/stores", nil); rec.Code != 401 {
			t.Fatalf("anonymous list: %d", rec.Code)
		}
		var before string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT search_doc FROM stores WHERE id = $1", s.nearID).Scan(&before), "doc")
		// Every endpoint, for a store of another account, a store of nobody
		// and a store that does not exist: the same 404, nothing changed.
		for _, id := range []int64{s.nearID, s.farID, 999999} {
			p := "/api/business/stores/" + itoa(id)
			for _, c := range []struct {
				method, path string
				body         any
			}{
				{"GET", p, nil},
				{"PATCH", p, map[string]any{"phone_number": "+1 555 0100", "is_delivery_available": true}},
				{"PATCH", p, map[string]any{"name": "Taken Over"}},
				{"POST", p + "/verify", nil},
			} {
				rec, out := s.owner.call(c.method, c.path, c.body)
				if rec.Code != 404 || out["message"] != "Store not found among the stores of this account" {
					t.Errorf("%s %s: %d %v", c.method, c.path, rec.Code, out)
				}
				if rec, _ := anon.call(c.method, c.path, c.body); rec.Code != 401 {
					t.Errorf("anonymous %s %s: %d", c.method, c.path, rec.Code)
				}
			}
		}
		var after string
		var requests, audits int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT search_doc FROM stores WHERE id = $1", s.nearID).Scan(&after), "doc")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM store_change_requests").Scan(&requests), "requests")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM audit_log WHERE actor LIKE 'business:%'").Scan(&audits), "audit")
		if before != after || requests != 0 || audits != 0 {
			t.Fatalf("a refused call changed something: %d requests, %d audit entries", requests, audits)
		}
		if rec, _ := s.other.call("GET", "/api/business/stores/"+itoa(s.nearID), nil); rec.Code != 200 {
			t.Fatalf("own linked store: %d", rec.Code)
		}
		if rec, _ := s.owner.call("GET", "/api/business/stores/abc", nil); rec.Code != 400 {
			t.Fatalf("bad id: %d", rec.Code)
		}
	})
}

func TestBusinessPatchPublishesAndAudits(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		p := "/api/business/stores/" + itoa(s.ownStore)
		rec, out := s.owner.call("PATCH", p, map[string]any{
			"workingHours": []map[string]any{
				{"weekDay": "Monday", "startTime": "08:00", "endTime": "18:00"},
				{"weekDay": "Sunday", "startTime": nil, "endTime": nil},
			},
			"is_delivery_available": true, "phone_number": "+1 (512) 555-0199", "website": "lonestar.example/shop", "hours": "Mon 8-6, Sun closed",
		})
		if rec.Code != 200 || out["change_request"] != nil || out["message"] != "Changes saved and published." {
			t.Fatalf("patch: %d %v", rec.Code, out)
		}
		st := out["store"].(map[string]any)
		if st["website"] != "https://lonestar.example/shop" || st["is_delivery_available"] != true || len(st["workingHours"].([]any)) != 2 {
			t.Fatalf("patched store: %v", st)
		}
		// The replica's index shows it after its next poll.
		dbtest.Must(t, s.sy.Poll(ctx), "poll")
		rec = do(t, s.srv, "GET", list+"?latitude=30.2711&longitude=-97.7437&radius=5&is_delivery_available=true", nil, true)
		var l struct {
			Stores []map[string]any `json:"physical_stores"`
		}
		dbtest.Must(t, json.Unmarshal(rec.Body.Bytes(), &l), "search")
		if len(l.Stores) != 1 || l.Stores[0]["phone_number"] != "+1 (512) 555-0199" {
			t.Fatalf("search after the patch: %s", rec.Body)
		}
		// The website and the confirmation are the panel's: in the one-store answer.
		rec = do(t, s.srv, "GET", "/api/store/physical-store/"+strconvI(s.ownStore), nil, true)
		var one map[string]any
		dbtest.Must(t, json.Unmarshal(rec.Body.Bytes(), &one), "one store")
		if one["website"] != "https://lonestar.example/shop" || one["last_verified_at"] == nil {
			t.Fatalf("the store after the patch: %s", rec.Body)
		}
		var actor, details string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT actor, details FROM audit_log WHERE action = 'store.update' AND store_id = $1", s.ownStore).Scan(&actor, &details), "audit")
		var det struct {
			Changes map[string]struct{ Old, New any } `json:"changes"`
		}
		dbtest.Must(t, json.Unmarshal([]byte(details), &det), "audit details")
		if !ownerActor.MatchString(actor) || det.Changes["is_delivery_available"].Old != false || det.Changes["is_delivery_available"].New != true ||
			det.Changes["phone_number"].Old != "+15125550100" || det.Changes["workingHours"].New == nil || len(det.Changes) != 5 {
			t.Fatalf("audit: %s %s", actor, details)
		}

		// Bad input: a clear 400, and nothing changes.
		version, err := s.srv.Stores.Version(ctx)
		dbtest.Must(t, err, "version")
		for _, c := range []struct {
			body any
			msg  string
		}{
			{map[string]any{}, "Nothing to change: send at least one field"},
			{`[1]`, "The request body must be a JSON object"},
			{map[string]any{"phone_number": strings.Repeat("1", 33)}, "Phone number must be less than 32 symbols"},
			{map[string]any{"phone_number": "call me"}, "Phone number may contain only digits, spaces, + - ( ) and ."},
			{map[string]any{"website": "javascript:alert(1)"}, "Website must be a web address, e.g. https://example.com"},
			{map[string]any{"website": "https://" + strings.Repeat("a", 2050) + ".com"}, "Website must be less than 2048 symbols"},
			{map[string]any{"hours": strings.Repeat("x", 1001)}, "Hours must be less than 1000 symbols"},
			{map[string]any{"workingHours": []map[string]any{{"weekDay": "Funday", "startTime": "09:00", "endTime": "17:00"}}}, `Working hours: "Funday" is not a day of the week`},
			{map[string]any{"workingHours": []map[string]any{{"weekDay": "Monday", "startTime": "09:00"}}}, "Working hours: give Monday both an opening and a closing time, or neither"},
			{map[string]any{"workingHours": []map[string]any{{"weekDay": "Monday", "startTime": "9am", "endTime": "17:00"}}}, "Working hours: Monday times must be HH:MM, e.g. 09:00"},
			{map[string]any{"workingHours": make([]map[string]any, 22)}, "Working hours: at most 21 entries (three a day)"},
			{map[string]any{"is_delivery_available": "yes"}, "is_delivery_available has the wrong type"},
			{map[string]any{"name": "  "}, "Name is required"},
			{map[string]any{"name": strings.Repeat("n", 256)}, "Name must be less than 255 symbols"},
			{map[string]any{"latitude": 30.1}, "Give both latitude and longitude, or neither"},
			{map[string]any{"latitude": 95, "longitude": 0}, "Latitude must be between -90 and 90"},
			{map[string]any{"phone_number": "+1 512 555 0100", "website": "nope"}, "Website must be a web address, e.g. https://example.com"},
		} {
			rec, out := s.owner.call("PATCH", p, c.body)
			if rec.Code != 400 || out["message"] != c.msg {
				t.Errorf("%v: %d %v, want 400 %q", c.body, rec.Code, out, c.msg)
			}
		}
		version2, err := s.srv.Stores.Version(ctx)
		dbtest.Must(t, err, "version")
		var requests int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM store_change_requests").Scan(&requests), "requests")
		if version2 != version || requests != 0 {
			t.Fatalf("refused patches changed the store: version %d -> %d, %d requests", version, version2, requests)
		}
	})
}

func TestBusinessChangeRequestsAndVerify(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		p := "/api/business/stores/" + itoa(s.ownStore)
		// Verified at approval (a moderator checked the claim).
		_, out := s.owner.call("GET", p, nil)
		if out["store"].(map[string]any)["last_verified_at"] == nil {
			t.Fatalf("not verified at approval: %v", out)
		}
		rec, out := s.owner.call("PATCH", p, map[string]any{"name": "Lone Star Vapes & Tea", "is_curbside_pickup_available": true, "latitude": 30.27, "longitude": -97.74})
		cr, _ := out["change_request"].(map[string]any)
		if rec.Code != 200 || cr == nil || cr["status"] != "pending" || out["store"].(map[string]any)["name"] != "Lone Star Vapes" ||
			out["store"].(map[string]any)["is_curbside_pickup_available"] != true {
			t.Fatalf("patch with a name: %d %v", rec.Code, out)
		}
		if prev := cr["previous"].(map[string]any); prev["name"] != "Lone Star Vapes" {
			t.Fatalf("previous values: %v", cr)
		}
		if doc, err := stores.NewRepo(d).PublishedDoc(ctx, s.ownStore); err != nil || !strings.Contains(string(doc), `"name":"Lone Star Vapes"`) {
			t.Fatalf("the name was published before approval: %s %v", doc, err)
		}
		// A newer request replaces the pending one.
		_, out = s.owner.call("PATCH", p, map[string]any{"name": "Lone Star Tea"})
		crID := int64(out["change_request"].(map[string]any)["id"].(float64))
		_, out = s.owner.call("GET", p, nil)
		if pc := out["store"].(map[string]any)["pending_change_request"].(map[string]any); int64(pc["id"].(float64)) != crID {
			t.Fatalf("pending request: %v", pc)
		}
		// The same name again is no request.
		if _, out = s.owner.call("PATCH", p, map[string]any{"name": "Lone Star Vapes", "is_curbside_pickup_available": true}); out["change_request"] != nil ||
			out["message"] != "Nothing changed: the store already has these details." {
			t.Fatalf("unchanged name made a request: %v", out)
		}

		dbtest.Must(t, s.cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: s.srv}
		modSignIn(t, s.srv, mod)
		_, out = mod.call("GET", "/api/admin/change-requests", nil)
		if l := out["change_requests"].([]any); len(l) != 1 || int64(l[0].(map[string]any)["id"].(float64)) != crID {
			t.Fatalf("pending change requests: %v", out)
		}
		if _, out = mod.call("GET", "/api/admin/change-requests?status=all", nil); len(out["change_requests"].([]any)) != 2 {
			t.Fatalf("all change requests: %v", out)
		}
		if rec, _ := mod.call("GET", "/api/admin/change-requests?status=bogus", nil); rec.Code != 400 {
			t.Fatalf("bogus status: %d", rec.Code)
		}
		if rec, _ := s.owner.call("POST", "/api/admin/change-requests/"+itoa(crID)+"/approve", map[string]any{}); rec.Code != 401 {
			t.Fatalf("owner approving: %d", rec.Code)
		}
		if rec, _ := mod.call("POST", "/api/admin/change-requests/"+itoa(crID)+"/reject", map[string]any{"reason": " "}); rec.Code != 400 {
			t.Fatalf("reject without reason: %d", rec.Code)
		}
		d0 := "2000-01-01T00:00:00Z"
		dbtest.Must(t, func() error {
			_, err := d.Exec(ctx, "UPDATE stores SET last_verified_at = $1 WHERE id = $2", mustTime(d0), s.ownStore)
			return err
		}(), "age the verification")
		if rec, out = mod.call("POST", "/api/admin/change-requests/"+itoa(crID)+"/approve", map[string]any{}); rec.Code != 200 || out["status"] != "approved" {
			t.Fatalf("approve: %d %v", rec.Code, out)
		}
		if rec, _ = mod.call("POST", "/api/admin/change-requests/"+itoa(crID)+"/approve", map[string]any{}); rec.Code != 409 {
			t.Fatalf("approve twice: %d", rec.Code)
		}
		if rec, _ = mod.call("POST", "/api/admin/change-requests/999999/approve", map[string]any{}); rec.Code != 404 {
			t.Fatalf("unknown request: %d", rec.Code)
		}
		var subject string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT subject FROM outbox WHERE to_addr = 'owner@example.com' AND subject LIKE '%changes%'").Scan(&subject), "decision mail")
		if subject != "Your store changes were approved" {
			t.Fatalf("decision mail: %q", subject)
		}
		doc, err := stores.NewRepo(d).PublishedDoc(ctx, s.ownStore)
		dbtest.Must(t, err, "doc")
		var sd map[string]any
		dbtest.Must(t, json.Unmarshal(doc, &sd), "doc json")
		if sd["name"] != "Lone Star Tea" || sd["last_verified_at"] == d0 || sd["last_verified_at"] == nil {
			t.Fatalf("after approval: %s", doc)
		}
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM audit_log WHERE store_id = $1 AND action IN ('store.change_request', 'change_request.approve')", s.ownStore).Scan(&n), "audit")
		if n != 3 {
			t.Fatalf("%d change-request audit entries, want 3", n)
		}

		// "Confirm these details are correct".
		dbtest.Must(t, func() error {
			_, err := d.Exec(ctx, "UPDATE stores SET last_verified_at = $1 WHERE id = $2", mustTime(d0), s.ownStore)
			return err
		}(), "age the verification")
		if rec, out = s.owner.call("POST", p+"/verify", nil); rec.Code != 200 || out["store"].(map[string]any)["last_verified_at"] == d0 {
			t.Fatalf("verify: %d %v", rec.Code, out)
		}
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM audit_log WHERE store_id = $1 AND action = 'store.verify' AND actor LIKE 'business:%:owner@example.com'", s.ownStore).Scan(&n), "audit")
		if n != 1 {
			t.Fatal("verify not audited")
		}
	})
}

func TestAdminLinksStores(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		dbtest.Must(t, s.cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: s.srv}
		modSignIn(t, s.srv, mod)
		if rec, _ := s.owner.call("POST", "/api/admin/business-links", map[string]any{"store_id": s.farID, "email": "owner@example.com"}); rec.Code != 401 {
			t.Fatalf("owner linking: %d", rec.Code)
		}
		if rec, _ := mod.call("POST", "/api/admin/business-links", map[string]any{"store_id": s.farID, "email": "nobody@example.com"}); rec.Code != 404 {
			t.Fatalf("unknown account: %d", rec.Code)
		}
		if rec, _ := mod.call("POST", "/api/admin/business-links", map[string]any{"store_id": 999999, "email": "owner@example.com"}); rec.Code != 404 {
			t.Fatalf("unknown store: %d", rec.Code)
		}
		if rec, _ := mod.call("POST", "/api/admin/business-links", map[string]any{"store_id": "x", "email": "owner@example.com"}); rec.Code != 400 {
			t.Fatalf("bad store id: %d", rec.Code)
		}
		if rec, _ := mod.call("POST", "/api/admin/business-links", map[string]any{"store_id": itoa(s.farID), "email": "owner@example.com"}); rec.Code != 200 {
			t.Fatalf("link: %d", rec.Code)
		}
		if _, out := s.owner.call("GET", "/api/business/stores", nil); len(storeIDs(out)) != 2 {
			t.Fatalf("after the link: %v", out)
		}
		var actor string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT actor FROM audit_log WHERE action = 'store.link' AND store_id = $1", s.farID).Scan(&actor), "audit")
		if !modActor.MatchString(actor) {
			t.Fatalf("link audited as %q", actor)
		}
	})
}

func TestBusinessAccountAfterApprovalGetsTheStore(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	ctx := context.Background()
	anon := newBizClient(t, f.srv)
	form := copyClaimForm()
	form["email"] = "late@example.com"
	anon.call("POST", "/api/store/claim", form)
	cs := newClaims(d, stores.NewRepo(d), nil)
	list, err := cs.List(ctx, claims.Pending, 10)
	dbtest.Must(t, err, "claims")
	c, err := cs.Approve(ctx, list[0].ID, "cli:test", claims.Approval{})
	dbtest.Must(t, err, "approve")
	if _, out := anon.call("GET", "/api/admin/claims/"+itoa(c.ID), nil); out != nil && out["waiting_for_email"] == false {
		t.Fatalf("claim view: %v", out)
	}
	anon.call("POST", "/api/store/create-user", map[string]string{"store_name": "S", "email": "late@example.com", "password": ownerPass, "phone_number": "1"})
	(&bizSetup{fixture: f}).signIn(anon, "late@example.com", ownerPass)
	// Unproven: the account sees only "Confirm your email".
	if rec, out := anon.call("GET", "/api/business/me", nil); rec.Code != 200 || out["account"].(map[string]any)["email_verified"] != false {
		t.Fatalf("me before the proof: %d %v", rec.Code, out)
	}
	if rec, _ := anon.call("GET", "/api/business/stores", nil); rec.Code != 403 {
		t.Fatalf("stores before the proof: %d", rec.Code)
	}
	if rec, _ := anon.call("GET", "/api/business/stores/"+itoa(c.StoreID), nil); rec.Code != 403 {
		t.Fatalf("store before the proof: %d", rec.Code)
	}
	got, err := cs.Get(ctx, c.ID)
	dbtest.Must(t, err, "claim")
	view, err := cs.View(ctx, got, false)
	dbtest.Must(t, err, "claim view")
	if !view.WaitingForEmail {
		t.Fatal("approved claim is not waiting for the owner's email")
	}
	// Resend: 3 an hour per account, then 429 with Retry-After.
	for i := 0; i < 3; i++ {
		if rec, _ := anon.call("POST", "/api/business/email-proof", nil); rec.Code != 202 {
			t.Fatalf("resend %d: %d", i, rec.Code)
		}
	}
	if rec, _ := anon.call("POST", "/api/business/email-proof", nil); rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("fourth resend: %d %v", rec.Code, rec.Header())
	}
	if rec, _ := anon.call("POST", "/api/business/email-proof/confirm", map[string]string{"token": lastConfirmToken(t, d, "late@example.com"), "password": otherPass}); rec.Code != 400 {
		t.Fatalf("confirm with a wrong password: %d", rec.Code)
	}
	confirmEmail(anon, d, "late@example.com", ownerPass)
	if _, out := anon.call("GET", "/api/business/stores", nil); len(storeIDs(out)) != 1 || storeIDs(out)[0] != c.StoreID {
		t.Fatalf("stores: %v", out)
	}
	if rec, _ := anon.call("POST", "/api/business/email-proof", nil); rec.Code != 409 {
		t.Fatalf("resend once proven: %d", rec.Code)
	}
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Special hours and a temporary closure from the dashboard publish at once
// (the store answer shows them), are audited with old and new values, and
// bad ones are refused with the messages of the store import.
func TestBusinessPatchSpecialHoursAndClosure(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		p := "/api/business/stores/" + itoa(s.ownStore)
		loc, err := time.LoadLocation("America/Chicago")
		dbtest.Must(t, err, "zone")
		today := time.Now().In(loc)
		day := func(n int) string { return today.AddDate(0, 0, n).Format("2006-01-02") }
		rec, out := s.owner.call("PATCH", p, map[string]any{
			"special_hours": []map[string]any{
				{"date": day(3), "closed": false, "startTime": "10:00", "endTime": "14:00", "note": "Short day"},
				{"date": day(1), "closed": true, "note": " Staff party "},
			},
			"temporarily_closed": map[string]any{"from": day(5), "until": day(6), "note": "Renovation"},
		})
		if rec.Code != 200 || out["message"] != "Changes saved and published." {
			t.Fatalf("patch: %d %v", rec.Code, out)
		}
		st := out["store"].(map[string]any)
		sh := st["special_hours"].([]any)
		if len(sh) != 2 || sh[0].(map[string]any)["date"] != day(1) || sh[0].(map[string]any)["note"] != "Staff party" ||
			st["temporarily_closed"].(map[string]any)["note"] != "Renovation" {
			t.Fatalf("patched store: %v", st)
		}
		dbtest.Must(t, s.sy.Poll(ctx), "poll")
		rec = do(t, s.srv, "GET", "/api/store/physical-store/"+itoa(s.ownStore), nil, true)
		var ans map[string]any
		dbtest.Must(t, json.Unmarshal(rec.Body.Bytes(), &ans), "answer")
		if ash, _ := ans["special_hours"].([]any); len(ash) != 2 || ans["temporarily_closed"] == nil {
			t.Fatalf("store answer: %s", rec.Body)
		}
		var details string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT details FROM audit_log WHERE action = 'store.update' AND store_id = $1", s.ownStore).Scan(&details), "audit")
		var det struct {
			Changes map[string]struct{ Old, New any } `json:"changes"`
		}
		dbtest.Must(t, json.Unmarshal([]byte(details), &det), "audit details")
		if c := det.Changes["temporarily_closed"]; c.Old != nil || c.New.(map[string]any)["from"] != day(5) {
			t.Fatalf("audit of the closure: %s", details)
		}
		if c := det.Changes["special_hours"]; len(c.Old.([]any)) != 0 || len(c.New.([]any)) != 2 {
			t.Fatalf("audit of the special hours: %s", details)
		}

		// The same values again change nothing; null reopens.
		if _, out := s.owner.call("PATCH", p, map[string]any{"temporarily_closed": map[string]any{"from": day(5), "until": day(6), "note": "Renovation"}}); out["message"] != "Nothing changed: the store already has these details." {
			t.Fatalf("same closure: %v", out)
		}
		if rec, out := s.owner.call("PATCH", p, map[string]any{"temporarily_closed": nil}); rec.Code != 200 || out["store"].(map[string]any)["temporarily_closed"] != nil {
			t.Fatalf("reopen: %d %v", rec.Code, out)
		}

		version, err := s.srv.Stores.Version(ctx)
		dbtest.Must(t, err, "version")
		for _, c := range []struct {
			body any
			msg  string
		}{
			{map[string]any{"special_hours": []map[string]any{{"date": "tomorrow", "closed": true}}}, `special_hours entry 1: date "tomorrow" is not a date (YYYY-MM-DD, years 2000-2100)`},
			{map[string]any{"special_hours": []map[string]any{{"date": day(1), "closed": false, "startTime": "10:00"}}}, "special_hours entry 1: give startTime and endTime, or closed: true"},
			{map[string]any{"special_hours": []map[string]any{{"date": day(1), "closed": true, "startTime": "10:00", "endTime": "12:00"}}}, "special_hours entry 1: a closed date has no startTime or endTime"},
			{map[string]any{"special_hours": []map[string]any{{"date": day(1), "startTime": "10:00", "endTime": "14:00"}, {"date": day(1), "startTime": "13:00", "endTime": "15:00"}}}, "special_hours entry 2: 13:00-15:00 overlaps another span on " + day(1)},
			{map[string]any{"special_hours": []map[string]any{{"date": day(1), "closed": true, "note": strings.Repeat("n", 101)}}}, "special_hours entry 1: note must be at most 100 characters"},
			{map[string]any{"special_hours": []map[string]any{{"date": day(1), "closed": "yes"}}}, "special_hours.closed has the wrong type"},
			{map[string]any{"temporarily_closed": map[string]any{"from": day(3), "until": day(2)}}, "temporarily_closed.until must not be before its from date"},
			{map[string]any{"temporarily_closed": map[string]any{"from": ""}}, `temporarily_closed.from "" is not a date (YYYY-MM-DD, years 2000-2100)`},
			{map[string]any{"temporarily_closed": "soon"}, "temporarily_closed must be null or an object with from, until and note"},
		} {
			rec, out := s.owner.call("PATCH", p, c.body)
			if rec.Code != 400 || out["message"] != c.msg {
				t.Errorf("%v: %d %v, want 400 %q", c.body, rec.Code, out, c.msg)
			}
		}
		version2, err := s.srv.Stores.Version(ctx)
		dbtest.Must(t, err, "version")
		if version2 != version {
			t.Fatalf("refused patches changed the store: version %d -> %d", version, version2)
		}
		// Another account's store: the same 404, nothing changed.
		if rec, _ := s.owner.call("PATCH", "/api/business/stores/"+itoa(s.nearID), map[string]any{"temporarily_closed": map[string]any{"from": day(0)}}); rec.Code != 404 {
			t.Fatalf("other's store: %d", rec.Code)
		}
		var closed string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COALESCE(temp_closed_from, '') FROM stores WHERE id = $1", s.nearID).Scan(&closed), "near")
		if closed != "" {
			t.Fatalf("another account's store was closed: %v", closed)
		}
	})
}

// upload posts a raw image body as the browser's fetch does.
func (c *bizClient) upload(target, contentType string, body []byte) (*httptest.ResponseRecorder, map[string]any) {
	c.t.Helper()
	req := httptest.NewRequest("POST", target, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for _, ck := range c.cookies {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	checkContract(c.t, req, nil, rec, false)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func TestBusinessPhotoUpload(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		s.srv.Photos = photos.New(d, stores.NewRepo(d), nil)
		var b bytes.Buffer
		dbtest.Must(t, jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 900, 600)), nil), "jpeg")
		good := b.Bytes()
		p := "/api/business/stores/" + itoa(s.ownStore) + "/photo"

		state := func() (image string, photos, audits int) {
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COALESCE(image, '') FROM stores WHERE id = $1", s.ownStore).Scan(&image), "image")
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM store_photos").Scan(&photos), "photos")
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.photo'").Scan(&audits), "audit")
			return
		}
		img0, n0, a0 := state()
		for _, c := range []struct {
			name, path, ctype string
			body              []byte
			code              int
			msg               string
		}{
			{"declared gif", p, "image/gif", good, 415, "The photo must be a JPEG, PNG or WebP image"},
			{"text sent as jpeg", p, "image/jpeg", []byte("GIF89a not really an image at all"), 415, "The photo must be a JPEG, PNG or WebP image"},
			{"oversized", p, "image/jpeg", append(append([]byte{}, good...), make([]byte, 8<<20)...), 413, "The photo must be at most 8 MB"},
			{"truncated", p, "image/jpeg", good[:len(good)/3], 400, "The photo could not be read: the file is damaged or incomplete"},
			{"empty", p, "image/jpeg", nil, 400, "Choose a photo to upload"},
			{"another account's store", "/api/business/stores/" + itoa(s.nearID) + "/photo", "image/jpeg", good, 404, "Store not found among the stores of this account"},
		} {
			rec, out := s.owner.upload(c.path, c.ctype, c.body)
			if rec.Code != c.code || out["message"] != c.msg {
				t.Errorf("%s: %d %v, want %d %q", c.name, rec.Code, out, c.code, c.msg)
			}
		}
		if img, n, a := state(); img != img0 || n != n0 || a != a0 {
			t.Fatalf("a refused upload changed something: image %q -> %q, photos %d -> %d, audit %d -> %d", img0, img, n0, n, a0, a)
		}
		if rec, _ := newBizClient(t, s.srv).upload(p, "image/jpeg", good); rec.Code != 401 {
			t.Fatalf("anonymous upload: %d", rec.Code)
		}

		rec, out := s.owner.upload(p, "image/jpeg; charset=binary", good)
		if rec.Code != 200 || !strings.HasPrefix(out["image"].(string), "/photos/") || !strings.Contains(out["srcset"].(string), " 320w") {
			t.Fatalf("upload: %d %v", rec.Code, out)
		}
		img, n, a := state()
		if img != out["image"] || n != 1 || a != 1 {
			t.Fatalf("after the upload: image %q, %d photos, %d audit entries", img, n, a)
		}
		var actor, details string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT actor, details FROM audit_log WHERE action = 'store.photo' AND store_id = $1", s.ownStore).Scan(&actor, &details), "audit")
		if !ownerActor.MatchString(actor) || !strings.Contains(details, `"new":"`+img+`"`) {
			t.Fatalf("audit: %s %s", actor, details)
		}
		dbtest.Must(t, s.sy.Poll(ctx), "poll")
		rec = do(t, s.srv, "GET", "/api/store/physical-store/"+itoa(s.ownStore), nil, true)
		if !strings.Contains(rec.Body.String(), `"image":"`+img+`"`) {
			t.Fatalf("store answer: %s", rec.Body)
		}
		if rec := do(t, s.srv, "GET", img, nil, false); rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" {
			t.Fatalf("photo: %d", rec.Code)
		}

		// The hour's uploads of one account are bounded: the four refused
		// above after the type check, the one accepted, then two more;
		// the next is refused before its body is read, and changes nothing.
		s.srv.Business.PhotoUploadsPerHour = 7
		for i := range 2 {
			if rec, out := s.owner.upload(p, "image/jpeg", good); rec.Code != 200 {
				t.Fatalf("upload %d under the limit: %d %v", i, rec.Code, out)
			}
		}
		_, n, a = state()
		rec, out = s.owner.upload(p, "image/jpeg", good)
		if rec.Code != 429 || !strings.HasPrefix(out["message"].(string), "Too many attempts. Please try again in ") || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("upload past the limit: %d %v %v", rec.Code, out, rec.Header())
		}
		if _, n2, a2 := state(); n2 != n || a2 != a {
			t.Fatalf("a refused upload was kept: photos %d -> %d, audit %d -> %d", n, n2, a, a2)
		}
	})
}

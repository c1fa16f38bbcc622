package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/metrics"
	"locator/internal/stores"
)

// Through the real handler, with PostgreSQL behind a proxy the test
// controls: while the database refuses or hangs, every call that needs it
// answers 503 with Retry-After and a JSON message within the database
// timeout, search keeps answering from memory, /readyz says 503, and all
// works again once the database is back.
func TestDatabaseOutages(t *testing.T) {
	d, proxy := dbtest.ProxiedPostgres(t)
	f := newFixture(t, d)
	deps := f.srv.Deps
	deps.DBTimeout = httpapi.DefaultDBTimeout // the fixture's is a minute
	f.srv = httpapi.New(deps)
	member := &client{t: t, h: f.srv}
	member.call("POST", "/api/store/customers", map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "ann@example.com", "password": "tulip-lamp-7"})
	if rec, _ := member.call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "tulip-lamp-7"}); rec.Code != 200 {
		t.Fatalf("sign in: %d", rec.Code)
	}
	cs := newClaims(d, stores.NewRepo(d), nil)
	dbtest.Must(t, cs.Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
	mod := &client{t: t, h: f.srv}
	modSignIn(t, f.srv, mod)

	calls := []struct {
		c              *client
		method, target string
		body           any
	}{
		{member, "GET", "/api/store/physical-store/" + itoa(f.nearID) + "/reviews", nil},
		{member, "GET", "/api/store/customers/me", nil},
		{member, "POST", "/api/customers/add-favorite-phstore", map[string]any{"phstore_id": f.farID}},
		{&client{t: t, h: f.srv}, "POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "tulip-lamp-7"}},
		{&client{t: t, h: f.srv}, "POST", "/api/store/customers", map[string]string{"first_name": "Bo", "last_name": "Ng", "phone": "+12125550101", "email": "bo@example.com", "password": "maple-cart-9"}},
		{&client{t: t, h: f.srv}, "POST", "/api/store/claim", claimForm},
		{mod, "GET", "/api/admin/claims", nil},
	}
	searchAnswers := func(when string) {
		t.Helper()
		rec := do(t, f.srv, http.MethodGet, list+"?"+nyc, nil, true)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"name":"Near"`) {
			t.Fatalf("search %s: %d %s", when, rec.Code, truncate(rec.Body.String()))
		}
	}
	// The store card answers from the search index while the database is
	// away: the same document (its keys and facts) as the database's.
	card := "/api/store/physical-store/" + itoa(f.nearID)
	cardKeys := func(when string) map[string]any {
		t.Helper()
		var rec *httptest.ResponseRecorder
		dbtest.WithinBound(t, httpapi.DefaultDBTimeout+10*time.Second, func() { rec = do(t, f.srv, http.MethodGet, card, nil, true) })
		var doc map[string]any
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || doc["name"] != "Near" {
			t.Fatalf("store card %s: %d %s", when, rec.Code, truncate(rec.Body.String()))
		}
		return doc
	}
	fromDB := cardKeys("before the outage")

	for _, outage := range []struct {
		name string
		mode dbtest.Mode
	}{{"refused", dbtest.Refuse}, {"hanging", dbtest.Hang}} {
		proxy.Set(outage.mode)
		deadlines := testutil.ToFloat64(metrics.DBCallDeadlines)
		for _, call := range calls {
			var code int
			var retryAfter string
			var out map[string]any
			took := dbtest.WithinBound(t, httpapi.DefaultDBTimeout+10*time.Second, func() {
				rec, o := call.c.call(call.method, call.target, call.body)
				code, retryAfter, out = rec.Code, rec.Header().Get("Retry-After"), o
			})
			if n, err := strconv.Atoi(retryAfter); code != http.StatusServiceUnavailable || err != nil || n < 1 || out["message"] == "" {
				t.Fatalf("%s database, %s %s: %d, Retry-After %q, %v; want 503 with Retry-After and a message",
					outage.name, call.method, call.target, code, retryAfter, out)
			}
			t.Logf("%s database, %s %s: 503 after %v", outage.name, call.method, call.target, took.Round(time.Millisecond))
		}
		// Each call of a hanging database hit its deadline and was counted.
		if got := testutil.ToFloat64(metrics.DBCallDeadlines) - deadlines; outage.mode == dbtest.Hang && got < float64(len(calls)) {
			t.Errorf("%s database: %v calls counted past their deadline, want at least %d", outage.name, got, len(calls))
		}
		searchAnswers("during the outage")
		fromIndex := cardKeys("during the outage")
		for k, v := range fromDB {
			if w, ok := fromIndex[k]; !ok || fmt.Sprint(w) != fmt.Sprint(v) {
				t.Errorf("%s database, store card's %q: %v from the index, %v from the database", outage.name, k, w, v)
			}
		}
		if len(fromIndex) != len(fromDB) {
			t.Errorf("%s database, store card: %d keys from the index, %d from the database", outage.name, len(fromIndex), len(fromDB))
		}
		dbtest.WithinBound(t, httpapi.DefaultDBTimeout+10*time.Second, func() {
			rec := do(t, f.srv, http.MethodGet, "/readyz", nil, false)
			if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"notReady":["database unreachable"]`) {
				t.Errorf("readyz with a %s database: %d %s", outage.name, rec.Code, rec.Body)
			}
		})

		proxy.Set(dbtest.Pass)
		var code int
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if code = do(t, f.srv, http.MethodGet, "/readyz", nil, false).Code; code == 200 {
				break
			}
		}
		if code != 200 {
			t.Fatalf("readyz after the %s outage: %d", outage.name, code)
		}
		for _, call := range calls {
			if rec, out := call.c.call(call.method, call.target, call.body); rec.Code >= 500 {
				t.Fatalf("after the %s outage, %s %s: %d %v", outage.name, call.method, call.target, rec.Code, out)
			}
		}
		searchAnswers("after the outage")
	}
}

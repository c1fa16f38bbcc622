package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/favorites"
	"locator/internal/httpapi"
	"locator/internal/identity"
	"locator/internal/members"
	"locator/internal/secret"
	"locator/internal/stores"
)

// TestSlowDatabase: with PostgreSQL answering each round trip 400 ms late
// and a 2 s budget (room for a loaded machine once the database is fast
// again), a sign-in (some eight round trips, each well inside 2 s) answers
// 503 with Retry-After once its calls have waited 2 s in all, not 200
// after 3 s or more: the budget is the request's, not each call's. /readyz,
// whose ping alone may answer in time, says 503 ("database too slow") at
// every check while requests fail, instead of flapping, and says ready
// again only after three good checks once the database is fast again.
func TestSlowDatabase(t *testing.T) {
	d, proxy := dbtest.ProxiedPostgres(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	acc := members.New(d, "http://locator.test", log, identity.Options{})
	acc.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1}
	t.Cleanup(acc.Wait)
	const budget = 2 * time.Second
	sr := stores.NewRepo(d)
	srv := httpapi.New(httpapi.Deps{Log: log, DB: d, Stores: sr, Accounts: acc, Favorites: favorites.New(d, sr, nil), Network: httpapi.Network{DBTimeout: budget}})
	member := &client{t: t, h: srv}
	if rec, out := member.call("POST", "/api/store/customers", map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "ann@example.com", "password": "tulip-lamp-7"}); rec.Code != 201 {
		t.Fatalf("sign up: %d %v", rec.Code, out)
	}
	signIn := func() *httptest.ResponseRecorder {
		rec, _ := (&client{t: t, h: srv}).call("POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "tulip-lamp-7"})
		return rec
	}
	readyz := func() (int, string) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
		return rec.Code, rec.Body.String()
	}
	if rec := signIn(); rec.Code != 200 {
		t.Fatalf("sign in before: %d %s", rec.Code, rec.Body)
	}

	proxy.SetDelay(400 * time.Millisecond)
	for i := range 4 {
		start := time.Now()
		rec := signIn()
		t.Logf("sign-in %d on a slow database: %d after %v", i+1, rec.Code, time.Since(start).Round(time.Millisecond))
		if n, err := strconv.Atoi(rec.Header().Get("Retry-After")); rec.Code != http.StatusServiceUnavailable || err != nil || n < 1 {
			t.Fatalf("sign-in %d on a slow database: %d, Retry-After %q, %s; want 503 once its calls waited %v in all",
				i+1, rec.Code, rec.Header().Get("Retry-After"), rec.Body, budget)
		}
		// "too slow" when the ping answers in time; when it must open a
		// connection first (a request's cancelled call closes its own),
		// eight slow round trips can make the ping itself miss the budget:
		// "unreachable". Either way 503 at every check, never 200.
		code, body := readyz()
		why := strings.Contains(body, `"notReady":["database too slow"]`) || strings.Contains(body, `"notReady":["database unreachable"]`)
		if code != http.StatusServiceUnavailable || !why {
			t.Fatalf("readyz %d while requests fail on a slow database: %d %s", i+1, code, body)
		}
	}

	proxy.SetDelay(0)
	codes := []int{}
	for range readyAfterChecks + 2 {
		code, body := readyz()
		codes = append(codes, code)
		if code == 200 {
			break
		}
		if !strings.Contains(body, "database recovering") {
			t.Fatalf("readyz once the database is fast again: %d %s", code, body)
		}
	}
	if len(codes) != readyAfterChecks || codes[len(codes)-1] != 200 {
		t.Fatalf("readyz once the database is fast again: %v, want 200 at check %d", codes, readyAfterChecks)
	}
	if rec := signIn(); rec.Code != 200 {
		t.Fatalf("sign in after: %d %s", rec.Code, rec.Body)
	}
}

// readyAfterChecks is httpapi's readyAfter: good checks before ready again.
const readyAfterChecks = 3

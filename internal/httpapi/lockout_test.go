package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/favorites"
	"locator/internal/httpapi"
	"locator/internal/identity"
	"locator/internal/members"
	"locator/internal/ratelimit"
	"locator/internal/secret"
	"locator/internal/stores"
)

// replica is one server of the accounts API on d, listening on loopback
// behind a trusted "proxy" (the test), so each request names its client IP.
func replica(t *testing.T, d *db.DB, gate *secret.Gate) *httptest.Server {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hasher := secret.Hasher{Memory: 64, Time: 1, Threads: 1, Gate: gate}
	acc := members.New(d, "http://locator.test", log, identity.Options{})
	acc.Hasher = hasher
	sr := stores.NewRepo(d)
	cs := newClaims(d, sr, log)
	cs.Moderators.Hasher = hasher
	biz := business.New(d, sr, "http://locator.test", nil, log, identity.Options{})
	biz.Hasher = hasher
	// 200 sign-ins on one account queue on its lockout row: on a busy machine
	// the last wait longer than the default database timeout, which would
	// answer them 503; this test is about the lockout, not the timeout.
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Log: log, DB: d, Stores: sr, Accounts: acc, Favorites: favorites.New(d, sr, nil), Claims: cs, Business: biz,
		Network: httpapi.Network{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, DBTimeout: time.Minute}}))
	t.Cleanup(func() { srv.Close(); acc.Wait() })
	return srv
}

// post sends body as JSON from client IP ip.
func post(t *testing.T, url, ip string, body any) (*http.Response, string) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return &http.Response{}, ""
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, string(out)
}

// TestSignInLockoutAcrossReplicas: 200 wrong passwords at once from 200
// IPs through two replicas: exactly 10 are checked, the rest answered 429
// with Retry-After; then the right password is refused too. The same for
// a moderator.
func TestSignInLockoutAcrossReplicas(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		servers := []*httptest.Server{replica(t, da, nil), replica(t, dbb, nil)}
		if res, body := post(t, servers[0].URL+"/api/store/customers", "192.0.2.1", map[string]string{"first_name": "Ann", "last_name": "Lee",
			"phone": "1", "email": "ann@example.com", "password": "tulip-lamp-7"}); res.StatusCode != 201 {
			t.Fatalf("sign up: %d %s", res.StatusCode, body)
		}
		if err := newClaims(da, stores.NewRepo(da), slog.Default()).Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ path, email, password string }{
			{"/api/store/auth", "ann@example.com", "tulip-lamp-7"},
			{"/api/admin/auth", "mod@example.com", "moderator-pass"},
		} {
			var checked, locked atomic.Int32
			var wg sync.WaitGroup
			for i := range 200 {
				wg.Go(func() {
					res, body := post(t, servers[i%2].URL+c.path, fmt.Sprintf("10.0.%d.%d", i/250, i%250+1),
						map[string]string{"email": c.email, "password": fmt.Sprintf("guess-%d", i)})
					switch {
					case res.StatusCode == 401:
						checked.Add(1)
					case res.StatusCode == 429 && res.Header.Get("Retry-After") != "" && strings.Contains(body, `"message"`):
						locked.Add(1)
					default:
						t.Errorf("%s guess %d: %d %v %s", c.path, i, res.StatusCode, res.Header, body)
					}
				})
			}
			wg.Wait()
			if checked.Load() != ratelimit.MaxSignInAttempts || locked.Load() != 200-ratelimit.MaxSignInAttempts {
				t.Fatalf("%s: %d of 200 concurrent guesses checked, %d locked out; want %d checked",
					c.path, checked.Load(), locked.Load(), ratelimit.MaxSignInAttempts)
			}
			if res, body := post(t, servers[1].URL+c.path, "198.51.100.7", map[string]string{"email": c.email, "password": c.password}); res.StatusCode != 429 {
				t.Fatalf("%s: right password while locked: %d %s", c.path, res.StatusCode, body)
			}
		}
	})
}

// TestHashingBusy: when no hashing slot frees up in time, every call that
// hashes a password answers 503 with Retry-After and a message.
func TestHashingBusy(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	gate := secret.NewGate(1, 1) // waits 1 ns
	srv := replica(t, d, gate)
	release, err := gate.Acquire(context.Background()) // the one slot is taken
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for path, body := range map[string]map[string]string{
		"/api/store/customers":                {"first_name": "A", "last_name": "B", "phone": "1", "email": "a@example.com", "password": "tulip-lamp-7"},
		"/api/store/auth":                     {"email": "a@example.com", "password": "tulip-lamp-7"},
		"/api/store/customers/password-reset": {"email": "a@example.com", "password": "tulip-lamp-7", "token": "abc"},
		"/api/store/create-user":              {"store_name": "Shop", "email": "o@example.com", "password": "tulip-lamp-7"},
		"/api/admin/auth":                     {"email": "mod@example.com", "password": "moderator-pass"},
	} {
		res, out := post(t, srv.URL+path, "192.0.2.9", body)
		if res.StatusCode != 503 || res.Header.Get("Retry-After") != "1" || !strings.Contains(out, secret.ErrBusy.Message) {
			t.Errorf("%s: %d %v %s", path, res.StatusCode, res.Header, out)
		}
	}
}

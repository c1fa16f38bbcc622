package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/insights/insightstest"
)

const canaryIP, canaryUA = "203.0.113.66", "CanaryBrowser/1.0 (insights over HTTP)"

// asShopper is a request from the canary address and user agent.
func asShopper(method, target, body string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = canaryIP + ":4242"
	req.Header.Set("User-Agent", canaryUA)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// A search with no store, a store searched, its panel, call and
// directions, its page and a link ping: the owner's report and the
// operator's demand show them after the flush, and no table holds the
// shopper's address or user agent.
func TestInsightsOverHTTP(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newBizSetup(t, d)
		ctx := context.Background()
		store := s.nearID // the "other" owner's store
		for _, target := range []string{
			"/api/store/physical-store/list-physical-store/?latitude=10.5&longitude=-20.5&radius=5&is_open_now=true",
			"/api/store/physical-store/list-physical-store/?latitude=40.7128&longitude=-74.006&radius=5",
		} {
			if rec := serve(t, s.srv, asShopper("GET", target, "")); rec.Code != 200 {
				t.Fatalf("search: %d", rec.Code)
			}
		}
		for _, kind := range []string{"panel", "call", "directions", "call"} {
			rec := serve(t, s.srv, asShopper("POST", "/api/events", `{"kind":"`+kind+`","store_id":`+strconvI(store)+`}`))
			if rec.Code != http.StatusNoContent {
				t.Fatalf("event %s: %d %s", kind, rec.Code, rec.Body)
			}
		}
		page := asShopper("GET", "/stores/x/y/near-"+strconvI(store), "")
		rec := httptest.NewRecorder()
		s.srv.ServeHTTP(rec, page)
		if loc := rec.Header().Get("Location"); loc != "" {
			rec = httptest.NewRecorder()
			s.srv.ServeHTTP(rec, asShopper("GET", loc, ""))
		}
		if rec.Code != 200 || !regexp.MustCompile(`ping="https?://[^"/]+/insights/ping/`+strconvI(store)+`/directions"`).MatchString(rec.Body.String()) {
			t.Fatalf("store page: %d, no directions ping", rec.Code)
		}
		ping := asShopper("POST", "/insights/ping/"+strconvI(store)+"/directions", "PING")
		ping.Header.Set("Content-Type", "text/ping")
		ping.Header.Set("Sec-Fetch-Site", "same-origin")
		if rec := serve(t, s.srv, ping); rec.Code != http.StatusNoContent {
			t.Fatalf("ping: %d %s", rec.Code, rec.Body)
		}
		dbtest.Must(t, s.ins.Flush(ctx), "flush")

		rec, out := s.other.call("GET", "/api/business/stores/"+strconvI(store)+"/insights?days=7", nil)
		if rec.Code != 200 {
			t.Fatalf("owner report: %d %s", rec.Code, rec.Body)
		}
		cur := out["current"].(map[string]any)
		// Once per visitor, store, kind and day: the second call and the
		// page's directions ping after the app's do not count again.
		want := map[string]float64{"impression": 1, "panel": 1, "call": 1, "directions": 1, "page": 1}
		for k, n := range want {
			if cur[k] != n {
				t.Errorf("current %s = %v, want %v (%v)", k, cur[k], n, cur)
			}
		}
		if u := out["uniques"].(map[string]any)["call"]; u != 1.0 {
			t.Errorf("unique callers %v, want 1", u)
		}
		if rec, _ := s.owner.call("GET", "/api/business/stores/"+strconvI(store)+"/insights", nil); rec.Code != http.StatusForbidden && rec.Code != http.StatusNotFound {
			t.Errorf("another owner's report: %d", rec.Code)
		}
		if rec, _ := s.other.call("GET", "/api/business/stores/"+strconvI(store)+"/insights?days=8", nil); rec.Code != 400 {
			t.Errorf("days=8: %d", rec.Code)
		}

		dbtest.Must(t, s.cs.Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: s.srv}
		modSignIn(t, s.srv, mod)
		rec, out = mod.call("GET", "/api/admin/insights/demand?days=7", nil)
		if rec.Code != 200 || out["searches"] != 2.0 || out["zero_results"] != 1.0 {
			t.Fatalf("demand: %d %v", rec.Code, out)
		}
		if f := out["filters"].([]any); len(f) != 1 || f[0].(map[string]any)["filter"] != "is_open_now" {
			t.Errorf("filters %v", f)
		}
		rec, _ = mod.call("GET", "/api/admin/insights/demand.csv?days=7", nil)
		if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "kind,name,region,latitude,longitude,searches,zero_results\ncell,") {
			t.Fatalf("csv: %d %q", rec.Code, rec.Body)
		}
		if rec, _ := mod.call("GET", "/api/admin/insights/demand?days=0", nil); rec.Code != 400 {
			t.Errorf("days=0: %d", rec.Code)
		}

		// The monthly mail's switch.
		if rec, out := s.other.call("PUT", "/api/business/insights-mail", map[string]any{"enabled": false}); rec.Code != 200 || out["enabled"] != false {
			t.Fatalf("switch off: %d %v", rec.Code, out)
		}
		if rec, out := s.other.call("GET", "/api/business/insights-mail", nil); rec.Code != 200 || out["enabled"] != false {
			t.Fatalf("read switch: %d %v", rec.Code, out)
		}
		if rec, _ := s.other.call("PUT", "/api/business/insights-mail", map[string]any{}); rec.Code != 400 {
			t.Errorf("no enabled: %d", rec.Code)
		}

		insightstest.AssertNoneHolds(t, d, canaryIP, canaryUA, "203.0.113.")
	})
}

// Malformed events are refused with a 4xx and a message; a network is
// limited.
func TestEventsRefused(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		id := strconvI(f.nearID)
		for body, want := range map[string]int{
			``:                400,
			`[]`:              400,
			`{"kind":"call"}`: 400,
			`{"kind":"impression","store_id":` + id + `}`:                                    400,
			`{"kind":"page","store_id":` + id + `}`:                                          400,
			`{"kind":"hover","store_id":` + id + `}`:                                         400,
			`{"kind":"call","store_id":-1}`:                                                  400,
			`{"kind":"call","store_id":"x"}`:                                                 400,
			`{"kind":5,"store_id":` + id + `}`:                                               400,
			`{"kind":"call","store_id":999999}`:                                              404,
			`{"kind":"call","store_id":` + strconvI(f.hiddenID) + `}`:                        404,
			`{"kind":"call","store_id":` + id + `,"x":"` + strings.Repeat("a", 2<<20) + `"}`: 413,
		} {
			req := asShopper("POST", "/api/events", body)
			req.Header.Set("Content-Type", "application/json")
			rec := serve(t, f.srv, req)
			if rec.Code != want || !strings.Contains(rec.Body.String(), `"message"`) {
				t.Errorf("%.60q: %d %s, want %d with a message", body, rec.Code, rec.Body, want)
			}
		}
		limited := false
		for i := range 200 {
			req := asShopper("POST", "/api/events", `{"kind":"call","store_id":`+id+`}`)
			req.RemoteAddr = "198.51.100." + strconv.Itoa(i%250) + ":1" // one /24
			if rec := serve(t, f.srv, req); rec.Code == http.StatusTooManyRequests {
				limited = true
				break
			}
		}
		if !limited {
			t.Error("200 events from one /24 in a burst were all accepted")
		}
	})
}

// The security test's flood over HTTP: 2,000 views of a store page from one
// address count one view and one visitor (past the first 120 in a minute
// they are served and not even considered: page views share the beacons'
// per-network limit), and 130 "calls" from another network count one (past
// 120 a minute it is answered 429).
func TestInsightsFloodCountsOnce(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newBizSetup(t, d)
		ctx := context.Background()
		store := s.nearID
		rec := httptest.NewRecorder()
		s.srv.ServeHTTP(rec, asShopper("GET", "/stores/x/y/near-"+strconvI(store), ""))
		page := rec.Header().Get("Location")
		if page == "" {
			page = "/stores/x/y/near-" + strconvI(store)
		}
		for i := range 2000 {
			rec := httptest.NewRecorder()
			s.srv.ServeHTTP(rec, asShopper("GET", page, ""))
			if rec.Code != 200 {
				t.Fatalf("view %d: %d", i, rec.Code)
			}
		}
		limited := 0
		for range 130 {
			rec := httptest.NewRecorder()
			req := asShopper("POST", "/api/events", `{"kind":"call","store_id":`+strconvI(store)+`}`)
			req.RemoteAddr = "198.51.100.7:4242"
			s.srv.ServeHTTP(rec, req)
			if rec.Code == http.StatusTooManyRequests {
				limited++
			}
		}
		dbtest.Must(t, s.ins.Flush(ctx), "flush")
		rec, out := s.other.call("GET", "/api/business/stores/"+strconvI(store)+"/insights?days=7", nil)
		if rec.Code != 200 {
			t.Fatalf("owner report: %d %s", rec.Code, rec.Body)
		}
		cur, uniq := out["current"].(map[string]any), out["uniques"].(map[string]any)
		if cur["page"] != 1.0 || uniq["page"] != 1.0 || cur["call"] != 1.0 || limited != 10 {
			t.Fatalf("after 2,000 views and 130 calls from one address: %v, uniques %v, %d answered 429", cur, uniq, limited)
		}
	})
}

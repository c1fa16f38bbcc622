package httpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/stores"
)

// cspDirectives splits a Content-Security-Policy into directive -> sources.
func cspDirectives(t *testing.T, policy string) map[string][]string {
	t.Helper()
	if policy == "" {
		t.Fatal("no Content-Security-Policy")
	}
	out := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

func has(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

var inlineScript = regexp.MustCompile(`<script>([^<]*)</script>`)

// staticServer serves a small web app with the given deps (no database).
func staticServer(t *testing.T, d httpapi.Deps) *httptest.Server {
	t.Helper()
	d.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	d.Web = fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html><html><head><title>Locator</title></head><body></body></html>")},
		"assets/worker-abc12.js": {Data: []byte("self.onmessage = () => {}")},
	}
	ts := httptest.NewServer(httpapi.New(d))
	t.Cleanup(ts.Close)
	return ts
}

// cspHash is the policy's source allowing exactly this inline script or style.
func cspHash(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	return send(t, http.MethodGet, url, "", nil, header...)
}

func TestContentSecurityPolicy(t *testing.T) {
	t.Parallel()
	for _, style := range []string{"", "https://tiles.example/styles/streets.json"} {
		ts := staticServer(t, httpapi.Deps{Site: httpapi.Site{MapStyleURL: style, StorefrontURL: "https://shop.example"}})
		res, body := get(t, ts.URL+"/")
		policy := res.Header.Get("Content-Security-Policy")
		csp := cspDirectives(t, policy)
		if strings.Contains(policy, "unsafe-inline") || strings.Contains(policy, "unsafe-eval") {
			t.Errorf("policy allows inline or eval: %s", policy)
		}
		// The injected config script is allowed by its hash and by nothing looser.
		m := inlineScript.FindStringSubmatch(body)
		if m == nil || !strings.Contains(m[1], "__LOCATOR_CONFIG__") {
			t.Fatalf("no inline config script in %s", body)
		}
		want := cspHash(m[1])
		if got := csp["script-src"]; len(got) != 2 || got[0] != "'self'" || got[1] != want {
			t.Errorf("script-src %v, want 'self' %s", got, want)
		}
		for dir, src := range map[string]string{"default-src": "'self'", "style-src": "'self'", "worker-src": "'self'",
			"object-src": "'none'", "base-uri": "'none'", "frame-ancestors": "'none'", "img-src": "data:"} {
			if !has(csp[dir], src) {
				t.Errorf("%s %v lacks %s", dir, csp[dir], src)
			}
		}
		wantConnect := []string{"'self'"}
		if style != "" {
			wantConnect = append(wantConnect, "https://tiles.example")
		}
		if strings.Join(csp["connect-src"], " ") != strings.Join(wantConnect, " ") {
			t.Errorf("map style %q: connect-src %v, want %v", style, csp["connect-src"], wantConnect)
		}
		// Assets (a worker takes its script's policy) get the same policy, with no inline script allowed.
		res, _ = get(t, ts.URL+"/assets/worker-abc12.js")
		asset := cspDirectives(t, res.Header.Get("Content-Security-Policy"))
		if strings.Join(asset["script-src"], " ") != "'self'" || strings.Join(asset["connect-src"], " ") != strings.Join(wantConnect, " ") {
			t.Errorf("asset policy %v", asset)
		}
		// JSON answers may load nothing.
		res, _ = get(t, ts.URL+"/api/config")
		if got := res.Header.Get("Content-Security-Policy"); got != "default-src 'none'; frame-ancestors 'none'" {
			t.Errorf("API policy %q", got)
		}
	}
}

func TestStrictTransportSecurity(t *testing.T) {
	t.Parallel()
	for _, secure := range []bool{false, true} {
		ts := staticServer(t, httpapi.Deps{SecureCookies: secure})
		for _, path := range []string{"/", "/api/config", "/assets/worker-abc12.js"} {
			res, _ := get(t, ts.URL+path)
			got := res.Header.Get("Strict-Transport-Security")
			if secure && !strings.HasPrefix(got, "max-age=63072000") || !secure && got != "" {
				t.Errorf("https %v, %s: Strict-Transport-Security %q", secure, path, got)
			}
		}
	}
}

// Every answer that reads or sets a session cookie is no-store; public
// answers keep their caching, also when the caller has a session.
func TestNoStoreOnSessionAnswers(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	claimID := func() int64 {
		owner := &client{t: t, h: f.srv}
		_, out := owner.call("POST", "/api/store/claim", claimForm)
		return int64(out["claim"].(map[string]any)["id"].(float64))
	}()
	check := func(who string, rec *httptest.ResponseRecorder, method, path string) {
		t.Helper()
		if got := rec.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s %s %s (%d): Cache-Control %q, want no-store", who, method, path, rec.Code, got)
		}
	}
	member := &client{t: t, h: f.srv}
	steps := []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/store/customers/me", nil}, // 401 before signing in
		{"POST", "/api/store/customers", map[string]string{"first_name": "Ann", "last_name": "Lee", "phone": "+12125550100", "email": "ann@example.com", "password": "tulip-lamp-7"}},
		{"POST", "/api/store/auth", map[string]string{"email": "ann@example.com", "password": "tulip-lamp-7"}},
		{"GET", "/api/store/customers/me", nil},
		{"POST", "/api/store/customers/me", map[string]string{"first_name": "Anna"}},
		{"POST", "/api/customers/add-favorite-phstore", map[string]any{"phstore_id": f.nearID}},
		{"POST", "/api/customers/remove-favorite-phstore", map[string]any{"phstore_id": f.nearID}},
	}
	for _, s := range steps {
		rec, _ := member.call(s.method, s.path, s.body)
		check("member", rec, s.method, s.path)
	}
	if member.cookie == nil {
		t.Fatal("the member is not signed in")
	}
	// Public answers to a signed-in member: no session read, caching as before.
	for _, path := range []string{list + "?" + nyc, "/api/store/physical-store/" + itoa(f.nearID), "/api/config"} {
		if rec, _ := member.call("GET", path, nil); rec.Code != 200 || rec.Header().Get("Cache-Control") != "" {
			t.Errorf("member GET %s: %d, Cache-Control %q", path, rec.Code, rec.Header().Get("Cache-Control"))
		}
	}
	rec, _ := member.call("DELETE", "/api/store/auth", nil)
	check("member", rec, "DELETE", "/api/store/auth")

	// Moderators: claimants' emails and phones.
	dbtest.Must(t, newClaims(d, stores.NewRepo(d), nil).Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
	mod := &client{t: t, h: f.srv}
	rec, _ = mod.call("GET", "/api/admin/claims", nil)
	check("anonymous", rec, "GET", "/api/admin/claims")
	check("moderator", modSignIn(t, f.srv, mod), "POST", "/api/admin/auth")
	for _, path := range []string{"/api/admin/me", "/api/admin/claims", "/api/admin/claims/" + itoa(claimID)} {
		rec, out := mod.call("GET", path, nil)
		if rec.Code != 200 {
			t.Fatalf("moderator GET %s: %d %v", path, rec.Code, out)
		}
		check("moderator", rec, "GET", path)
	}
	rec, _ = mod.call("POST", "/api/admin/claims/"+itoa(claimID)+"/reject", map[string]string{"reason": "not a shop"})
	check("moderator", rec, "POST", "reject")
	rec, _ = mod.call("DELETE", "/api/admin/auth", nil)
	check("moderator", rec, "DELETE", "/api/admin/auth")
}

func decodeMessage(t *testing.T, res *http.Response, body string) string {
	t.Helper()
	var m struct {
		Message string `json:"message"`
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" || json.Unmarshal([]byte(body), &m) != nil || m.Message == "" {
		t.Errorf("%d answer is %q %q, want JSON {\"message\"}", res.StatusCode, ct, body)
	}
	return m.Message
}

func send(t *testing.T, method, url, contentType string, body io.Reader, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestCrossOriginRefusalIsJSON(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(newFixture(t, dbtest.SQLite(t)).srv)
	defer ts.Close()
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"},
		{"Origin", "https://evil.example"}, // an older browser: no Sec-Fetch-Site
	} {
		res, body := send(t, "POST", ts.URL+"/api/store/auth", "application/json", strings.NewReader(`{"email":"a@b.co","password":"x"}`), h...)
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("%v: %d %s", h, res.StatusCode, body)
		}
		decodeMessage(t, res, body)
	}
}

// The bound is enforced by the server cmd/locator runs, over a real connection.
func TestOversizedHeadersAnswerJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t, dbtest.SQLite(t))
	ln := listen(t)
	serveReal(t, f.srv, ln)
	url := "http://" + ln.Addr().String() + "/api/config"
	big := func(n int) string { return strings.Repeat("a", n) }
	// Just under the bound: answered.
	if res, body := get(t, url, "X-Padding", big(httpapi.MaxHeaderBytes-200)); res.StatusCode != 200 {
		t.Fatalf("header just under the bound: %d %s", res.StatusCode, body)
	}
	// Over it, split over several headers or in one cookie, up to what net/http reads: JSON 431.
	for _, h := range [][]string{
		{"X-Padding", big(httpapi.MaxHeaderBytes)},
		{"X-A", big(20 << 10), "X-B", big(20 << 10)},
		{"Cookie", "locator_session=" + big(900<<10)},
	} {
		res, body := get(t, url, h...)
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("%d header bytes: %d %s", len(strings.Join(h, "")), res.StatusCode, body)
		}
		decodeMessage(t, res, body)
	}
	for _, path := range []string{"/", "/healthz"} {
		res, body := get(t, "http://"+ln.Addr().String()+path, "X-Padding", big(40<<10))
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		decodeMessage(t, res, body)
	}
}

// bodyRoutes is every API route that reads a JSON body.
var bodyRoutes = []string{
	"POST /api/store/customers", "POST /api/store/auth", "POST /api/store/customers/me",
	"POST /api/store/customers/password-token2", "POST /api/store/customers/password-reset",
	"POST /api/customers/add-favorite-phstore", "POST /api/customers/remove-favorite-phstore",
	"POST /api/store/claim", "POST /api/store/create-user", "POST /api/admin/auth",
	"POST /api/admin/claims/1/approve", "POST /api/admin/claims/1/reject",
	"DELETE /api/store/auth", "DELETE /api/admin/auth",
}

func TestJSONEndpointsRefuseOtherBodies(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(newFixture(t, dbtest.SQLite(t)).srv)
	defer ts.Close()
	for _, route := range bodyRoutes {
		method, path, _ := strings.Cut(route, " ")
		for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
			"multipart/form-data; boundary=x", "", "text/json", "application/jsonp", "application/json-seq", "not a type"} {
			res, body := send(t, method, ts.URL+path, ct, strings.NewReader(`{"email":"a@b.co"}`))
			if res.StatusCode != http.StatusUnsupportedMediaType {
				t.Errorf("%s as %q: %d %s", route, ct, res.StatusCode, body)
				continue
			}
			decodeMessage(t, res, body)
		}
		// A body of unknown length (chunked) is a body too.
		res, _ := send(t, method, ts.URL+path, "text/plain", io.MultiReader(strings.NewReader(`{"email":`), strings.NewReader(`"a@b.co"}`)))
		if res.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("%s chunked text/plain: %d", route, res.StatusCode)
		}
		// JSON, with parameters or in capitals, and no body at all reach the handler.
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON"} {
			if res, body := send(t, method, ts.URL+path, ct, strings.NewReader(`{"email":"a@b.co"}`)); res.StatusCode == http.StatusUnsupportedMediaType {
				t.Errorf("%s as %q: %d %s", route, ct, res.StatusCode, body)
			}
		}
		if res, body := send(t, method, ts.URL+path, "", nil); res.StatusCode == http.StatusUnsupportedMediaType {
			t.Errorf("%s without a body: %d %s", route, res.StatusCode, body)
		}
	}
}

// Every answer (app, asset, API, error, store page) isolates its window
// from other origins and allows only the browser features the app uses.
func TestOpenerAndPermissionsPolicy(t *testing.T) {
	t.Parallel()
	ts := staticServer(t, httpapi.Deps{})
	for _, path := range []string{"/", "/assets/worker-abc12.js", "/api/config", "/api/nope", "/stores", "/healthz", "/map/tiles/+1/0/0.mvt"} {
		res, _ := get(t, ts.URL+path)
		if got := res.Header.Get("Cross-Origin-Opener-Policy"); got != "same-origin" {
			t.Errorf("%s: Cross-Origin-Opener-Policy %q", path, got)
		}
		allowed := map[string]string{}
		for _, d := range strings.Split(res.Header.Get("Permissions-Policy"), ",") {
			name, list, _ := strings.Cut(strings.TrimSpace(d), "=")
			allowed[name] = list
		}
		for name, list := range allowed {
			switch name {
			case "geolocation", "web-share", "clipboard-write":
				if list != "(self)" {
					t.Errorf("%s: %s=%s, want (self)", path, name, list)
				}
			default:
				if list != "()" {
					t.Errorf("%s: %s=%s, want ()", path, name, list)
				}
			}
		}
		if allowed["geolocation"] != "(self)" || allowed["camera"] != "()" {
			t.Errorf("%s: Permissions-Policy %q", path, res.Header.Get("Permissions-Policy"))
		}
	}
}

// listen is a loopback listener on a free port.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// serveReal serves h on ln with the http.Server cmd/locator runs
// (httpapi.NewHTTPServer), shut down when the test ends.
func serveReal(t *testing.T, h http.Handler, ln net.Listener) {
	t.Helper()
	srv := httpapi.NewHTTPServer(h, slog.New(slog.NewTextHandler(io.Discard, nil)))
	go srv.Serve(ln) //nolint:errcheck // ends with Shutdown
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
}

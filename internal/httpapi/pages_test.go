package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"locator/internal/db"
)

var inlineStyle = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

// The store pages through the whole handler: their own content policy
// (no script, the one inline style by its hash), the app's not-found page
// never standing in for theirs, and odd paths answered without a 500.
func TestStorePagesThroughTheServer(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		// The fixture's stores have no city: they sit under "other".
		page := "/stores/ny/other/near-" + strconvI(f.nearID)
		rec := serve(t, f.srv, httptest.NewRequest(http.MethodGet, page, nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<h1>Near</h1>") {
			t.Fatalf("%s: %d %s", page, rec.Code, rec.Body)
		}
		csp := cspDirectives(t, rec.Header().Get("Content-Security-Policy"))
		m := inlineStyle.FindStringSubmatch(rec.Body.String())
		if m == nil {
			t.Fatal("no inline style")
		}
		if got := csp["style-src"]; len(got) != 1 || got[0] != cspHash(m[1]) {
			t.Errorf("style-src %v", got)
		}
		if got := csp["default-src"]; len(got) != 1 || got[0] != "'none'" || csp["script-src"] != nil {
			t.Errorf("policy %v: no script may run", csp)
		}
		if strings.Contains(rec.Body.String(), "<script>") || strings.Contains(rec.Body.String(), "<script src") {
			t.Error("a store page runs a script")
		}
		// Hidden: the pages' 404, not the app's.
		hidden := "/stores/ny/other/hidden-" + strconvI(f.hiddenID)
		rec = serve(t, f.srv, httptest.NewRequest(http.MethodGet, hidden, nil))
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "Page not found") {
			t.Errorf("hidden store: %d", rec.Code)
		}
		for _, path := range []string{"/robots.txt", "/sitemap.xml", "/sitemaps/stores-1.xml", "/sitemaps/directory-1.xml", "/stores", "/stores/ca"} {
			if rec := serve(t, f.srv, httptest.NewRequest(http.MethodGet, path, nil)); rec.Code != http.StatusOK {
				t.Errorf("%s: %d", path, rec.Code)
			}
		}
		for _, raw := range []string{
			"/stores/..", "/stores/../api/config", "/stores/ny/%2e%2e/x-1", "/stores/%00", "/stores/ny/other/near%00-1",
			"/stores/" + strings.Repeat("x/", 2000), "/stores/ny?" + strings.Repeat("q", 5000), "/stores/ny?page=%zz",
			"/stores/%E2%80%AE", "/stores/ny/other/%ff%fe-" + strconvI(f.nearID), "/sitemaps/..%2fstores-1.xml",
			"/stores/ny/other/near-" + strconvI(f.nearID) + "?utm=" + strings.Repeat("%", 100),
			"/products/", "/products/..", "/products/%2e%2e%2fapi", "/products/%00", "/products/%ff%fe", "/products/" + strings.Repeat("x/", 2000),
			"/products/no-such?" + strings.Repeat("q", 5000), "/sitemaps/products-1.xml", "/sitemaps/products-0.xml",
		} {
			// As the server parses them: percent-decoded, NUL and all.
			u, err := url.ParseRequestURI(raw)
			if err != nil {
				t.Fatalf("%.80q: %v", raw, err)
			}
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL, req.RequestURI = u, raw
			rec := httptest.NewRecorder()
			f.srv.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Errorf("%.80q: %d", raw, rec.Code)
			}
		}
	})
}

package httpapi_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"locator/internal/db/dbtest"
)

// The server writes a route's first frame (internal/httpapi/frames) into index.html's #root: the
// screen's heading and intro text are in the served HTML, before any script has run.
func TestFirstFrames(t *testing.T) {
	const entryTag = `<script type="module" crossorigin src="/assets/index-1.js"></script>`
	f := newFixture(t, dbtest.SQLite(t))
	cases := []struct {
		target, cookie string
		want           []string // in #root; none: #root is empty
	}{
		{"/claim", "", []string{`<p class="text-sm text-gray-600">Claim your store</p><h1 class="mt-1 text-2xl font-semibold text-gray-900">What is the name of your business?</h1>`}},
		{"/business", "", []string{`<h1 class="text-2xl font-semibold text-gray-900">Store dashboard</h1><p class="text-gray-700">Sign in with the email and password you chose when you claimed your store.</p>`, `href="/claim">Claim your store</a>`}},
		{"/", "", []string{`Stores in New York</h1>`, `<span>Store Locator</span>`}},
		{"/?place=%3Cb%3EAustin%3C%2Fb%3E", "", []string{`Stores in &lt;b&gt;Austin&lt;/b&gt;</h1>`}},
		{"/?lat=40.7&lon=-74", "", []string{`Stores in this area</h1>`}},
		// Signed out, /profile sends the visitor to the locator with the sign-in popup open.
		{"/profile", "", []string{`Stores in New York</h1>`, `<p class="mt-2 text-gray-700">Sign in to access an enhanced shopping experience.</p>`}},
		// A session may exist: the screen depends on the account, so no frame.
		{"/profile", "locator_session_hint=1", nil},
		{"/", "locator_session_hint=1", nil},
		{"/business", "locator_business_hint=1", nil},
		{"/business", "locator_session_hint=1", []string{`Store dashboard</h1>`}},
		{"/reviews?store=1", "", nil},
		{"/no/such/page", "", nil},
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", c.target, nil)
		if c.cookie != "" {
			req.Header.Set("Cookie", c.cookie)
		}
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		body := rec.Body.String()
		if len(c.want) == 0 && (!strings.Contains(body, `<div id="root"></div>`) || !strings.Contains(body, entryTag)) {
			t.Errorf("%s (%q): want an empty #root and the entry script, got %s", c.target, c.cookie, body)
		}
		// Framed, the app's scripts are listed for the inline starter (allowed by the policy) to
		// load after the frame's paint: no script or preload loads them before.
		if len(c.want) > 0 {
			starter := inlineScript.FindAllStringSubmatch(body, -1)
			if strings.Contains(body, entryTag) || strings.Contains(body, `<link rel="modulepreload"`) || len(starter) != 2 ||
				!strings.Contains(body, `<script type="application/json" id="app-modules">["/assets/index-1.js"`) ||
				!strings.Contains(rec.Header().Get("Content-Security-Policy"), cspHash(starter[1][1])) {
				t.Errorf("%s (%q): want the app loaded after the paint, got %s", c.target, c.cookie, body)
			}
		}
		for _, w := range c.want {
			if !strings.Contains(body, `<div id="root"><div class=`) || !strings.Contains(body, w) {
				t.Errorf("%s (%q): want %s in #root, got %s", c.target, c.cookie, w, body)
			}
		}
		// The policy allows no inline style or script beyond the config's.
		if strings.Contains(body, " style=") || strings.Count(body, "<script") > 3 {
			t.Errorf("%s: a frame with an inline style or script: %s", c.target, body)
		}
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, httptest.NewRequest("GET", "/business", nil))
	if v := rec.Header().Values("Vary"); !strings.Contains(strings.Join(v, ","), "Cookie") {
		t.Errorf("/business: Vary %q, want Cookie (the frame depends on the session hint)", v)
	}
}

package httpapi_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/reviews"
	"locator/internal/stores"
)

// The server writes a route's first frame (internal/httpapi/frames) into index.html's #root: the
// screen's heading and intro text are in the served HTML, before any script has run.
func TestFirstFrames(t *testing.T) {
	t.Parallel()
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
		// A US place as the heading names it (m2): "Stores in Brooklyn, NY", in the breadcrumb too.
		{"/?place=Brooklyn%2C+New+York%2C+United+States&lat=40.65&lon=-73.95", "", []string{`Stores in Brooklyn, NY</h1>`, `aria-current="page" class="truncate">Brooklyn, NY</li>`}},
		// Signed out, /profile asks the visitor to sign in there, with the sign-in popup open (issue 39, m24).
		{"/profile", "", []string{`<h1 class="text-2xl font-semibold text-gray-900">Sign in to see your profile</h1>`, `<span>Store Locator</span>`,
			`<p class="mt-2 text-gray-700">Sign in to access an enhanced shopping experience.</p>`}},
		// A session may exist: the screen depends on the account, so no frame.
		{"/profile", "locator_session_hint=1", nil},
		{"/", "locator_session_hint=1", nil},
		{"/business", "locator_business_hint=1", nil},
		{"/business", "locator_session_hint=1", []string{`Store dashboard</h1>`}},
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

// /reviews?store=N's first frame is the store's heading from the search index and its review
// summary, escaped; a missing, unknown or hidden store gets the page's generic heading.
func TestReviewsFirstFrame(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		sr := stores.NewRepo(d)
		odd := &stores.Store{Name: `<img src=x onerror=alert(1)> & "Co"`, StoreID: "st-odd", Latitude: 40.76, Longitude: -73.98,
			TimeZone: "America/New_York", State: "NY", Address: `1 <b>Main</b> St`}
		dbtest.Must(t, sr.SaveAll(ctx, []*stores.Store{odd}), "save store")
		dbtest.Must(t, reviews.NewRepo(d, sr).AddAll(ctx, []*reviews.Review{{StoreID: odd.ID, Rating: 2, Content: "meh"}}), "review")
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		generic := `<h1 class="mt-3 text-2xl font-semibold text-gray-900">Reviews</h1>`
		noStore := `No store was chosen.`
		id := func(n int64) string { return "/reviews?store=" + strconv.FormatInt(n, 10) }
		cases := []struct {
			target string
			want   []string
			not    []string
		}{
			// Near's reviews: 5, 4 and 1 stars (newFixture).
			{id(f.nearID), []string{`<h1 class="mt-3 text-2xl font-semibold text-gray-900">Near</h1><p class="mt-1 text-sm text-gray-700">United States, NY, 1 Main St</p>`,
				`<p class="text-4xl font-semibold text-gray-900">3.3</p>`, `aria-label="Rated 3.3 out of 5"`, `<p class="text-sm text-gray-700">3 reviews</p>`,
				`<span class="w-16">5 stars</span><span aria-hidden="true" class="h-2.5 flex-1 overflow-hidden rounded-full bg-gray-200"><span class="block h-full rounded-full bg-amber-500 w-[100%]"></span></span><span class="w-10 text-right">1</span>`,
				`<span class="w-16">3 stars</span><span aria-hidden="true" class="h-2.5 flex-1 overflow-hidden rounded-full bg-gray-200"><span class="block h-full rounded-full bg-amber-500 w-[0%]"></span></span><span class="w-10 text-right">0</span>`,
				`<p class="mt-3 text-gray-800">67% of reviewers recommend this store</p>`, `All reviews</h2></section></main>`},
				[]string{generic, noStore, "no reviews yet", "\n<"}},
			{id(odd.ID), []string{`>&lt;img src=x onerror=alert(1)&gt; &amp; &#34;Co&#34;</h1>`, `>United States, NY, 1 &lt;b&gt;Main&lt;/b&gt; St</p>`,
				`<p class="mt-3 text-gray-800">0% of reviewers recommend this store</p>`},
				[]string{"<img src=x", "<b>Main"}},
			{id(f.hiddenID), []string{generic}, []string{noStore, "Reviews summary"}},
			{"/reviews?store=999999", []string{generic}, []string{noStore, "Reviews summary"}},
			{"/reviews?store=99999999999999999999999", []string{generic}, []string{noStore}},
			{"/reviews", []string{generic, noStore}, nil},
			{"/reviews?store=0", []string{generic, noStore}, nil},
			{"/reviews?store=%2B1", []string{generic, noStore}, nil},
		}
		for _, c := range cases {
			rec := httptest.NewRecorder()
			f.srv.ServeHTTP(rec, httptest.NewRequest("GET", c.target, nil))
			body := rec.Body.String()
			if rec.Code != 200 || !strings.Contains(body, `<div id="root"><main class="mx-auto max-w-3xl p-4 md:p-8"><a class="text-sm font-medium text-emerald-800 underline" href="/">Back to the locator</a>`) ||
				!strings.Contains(body, `<script type="application/json" id="app-modules">`) || strings.Contains(body, " style=") {
				t.Errorf("%s: %d, want the reviews frame and the app loaded after its paint, got %s", c.target, rec.Code, body)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("%s: want %s in the frame, got %s", c.target, w, body)
				}
			}
			for _, n := range c.not {
				if strings.Contains(body, n) {
					t.Errorf("%s: %s in the frame, got %s", c.target, n, body)
				}
			}
		}
	})
}

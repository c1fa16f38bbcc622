package httpapi_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/favorites"
	"locator/internal/httpapi"
	"locator/internal/identity"
	"locator/internal/insights"
	"locator/internal/members"
	"locator/internal/reports"
	"locator/internal/reviews"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/secret"
	"locator/internal/stores"
)

type fixture struct {
	srv                              *httpapi.Server
	biz                              *business.Service
	sy                               *search.Syncer
	ix                               *search.Index
	nearID, farID, hiddenID, lateID  int64
	deliveryID, curbsideID, allDayID int64
	holidayID, goneID                int64 // in Boston: closed today by special hours; closed for good
	ins                              *insights.Service
}

func allWeek(start, end string) []schedule.WorkingHour {
	var hs []schedule.WorkingHour
	for d := time.Sunday; d <= time.Saturday; d++ {
		hs = append(hs, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return hs
}

// eachFixture runs fn once per engine (dbtest.Each) with newFixture's
// stores and server.
func eachFixture(t *testing.T, fn func(t *testing.T, d *db.DB, f *fixture)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) { fn(t, d, newFixture(t, d)) })
}

// newFixture writes a few stores around New York and one in Los Angeles.
func newFixture(t testing.TB, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	sr := stores.NewRepo(d)
	mk := func(name string, lat, lon float64, f func(s *stores.Store)) *stores.Store {
		s := &stores.Store{Name: name, StoreID: "st-" + name, Latitude: lat, Longitude: lon, TimeZone: "America/New_York",
			State: "NY", Address: "1 Main St", Hours: "see table"}
		if f != nil {
			f(s)
		}
		return s
	}
	near := mk("Near", 40.7130, -74.0060, nil)
	delivery := mk("Delivery", 40.7200, -74.0000, func(s *stores.Store) { s.Delivery = true; s.OrderOnline = true })
	curb := mk("Curbside", 40.7300, -73.9900, func(s *stores.Store) { s.Curbside = true })
	allDay := mk("AllDay", 40.7400, -73.9800, func(s *stores.Store) { s.WorkingHours = allWeek("00:00", "00:00") })
	late := mk("Late", 40.7500, -73.9700, func(s *stores.Store) { s.WorkingHours = allWeek("18:00", "02:00") })
	hidden := mk("Hidden", 40.7131, -74.0061, func(s *stores.Store) { s.Status = stores.Hidden })
	far := mk("Far", 34.05, -118.24, func(s *stores.Store) { s.TimeZone = "America/Los_Angeles"; s.State = "CA" })
	// Open around the clock, but closed by special hours on the dates
	// around today in New York (the test may run across midnight).
	holiday := mk("Holiday", 42.3601, -71.0589, func(s *stores.Store) {
		s.WorkingHours = allWeek("00:00", "00:00")
		now := time.Now().In(stores.Zone("America/New_York"))
		for d := -1; d <= 1; d++ {
			s.SpecialHours = append(s.SpecialHours, schedule.SpecialHour{Date: now.AddDate(0, 0, d).Format("2006-01-02"), Closed: true, Note: "Staff holiday"})
		}
	})
	gone := mk("Gone", 42.3602, -71.0590, func(s *stores.Store) { s.WorkingHours = allWeek("00:00", "00:00"); s.PermanentlyClosed = true })
	all := []*stores.Store{near, delivery, curb, allDay, late, hidden, far, holiday, gone}
	dbtest.Must(t, sr.SaveAll(ctx, all), "save stores")
	rr := reviews.NewRepo(d, sr)
	dbtest.Must(t, rr.AddAll(ctx, []*reviews.Review{
		{StoreID: near.ID, Rating: 5, Content: "<script>alert(1)</script> great", CustomerFirstName: "Ann"},
		{StoreID: near.ID, Rating: 4, Content: "good"},
		{StoreID: near.ID, Rating: 1, Content: "bad"},
	}), "reviews")
	ix := search.NewIndex()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sy := search.NewSyncer(sr, ix, search.SnapshotAuto, log)
	dbtest.Must(t, sy.Load(ctx), "load index")
	web := fstest.MapFS{
		"index.html":           {Data: []byte(`<!doctype html><html><head><title>Locator</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>`)},
		"assets/app-abc12.js":  {Data: []byte("console.log(1)")},
		"assets/big-abc12.js":  {Data: []byte(strings.Repeat("console.log('a fairly long line');\n", 100))},
		"favicon.svg":          {Data: []byte("<svg/>")},
		"favicon.ico":          {Data: []byte("\x00\x00\x01\x00")},
		"manifest.webmanifest": {Data: []byte(`{"name":"Store Locator"}`)},
		"demo/store-1.svg":     {Data: []byte("<svg/>")},
		".vite/manifest.json": {Data: []byte(`{"index.html": {"file": "assets/index-1.js", "imports": ["_shared.js"]},
			"_shared.js": {"file": "assets/shared-1.js"}, "_form.js": {"file": "assets/form-1.js", "imports": ["_shared.js"]},
			"src/features/claim/ClaimPage.tsx": {"file": "assets/ClaimPage-1.js", "imports": ["index.html", "_shared.js", "_form.js"], "css": ["assets/ClaimPage-1.css"]},
			"src/features/admin/AdminPage.tsx": {"file": "assets/AdminPage-1.js", "imports": ["index.html", "_shared.js"]}}`)},
	}
	acc := members.New(d, "http://locator.test", log, identity.Options{})
	acc.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1} // cheap under -race
	biz := business.New(d, sr, "http://locator.test", func(float64, float64) string { return "America/Chicago" }, log, identity.Options{})
	biz.Hasher = acc.Hasher
	t.Cleanup(biz.Wait)
	ins := insights.New(d, insights.Options{}, log)
	srv := httpapi.New(httpapi.Deps{Log: log, DB: d, Index: ix, Syncer: sy, Stores: sr, Reviews: rr, Insights: ins,
		Accounts: acc, Favorites: favorites.New(d, sr, nil), Claims: newClaims(d, sr, log), Business: biz, Reports: reports.New(d, sr, nil),
		Site: httpapi.Site{Web: web, StorefrontURL: "https://shop.example", Version: "test"},
		// Tests run in parallel on a shared machine: a request's PostgreSQL
		// calls may wait longer than the production budget, which would answer
		// 503. TestDatabaseOutages restores the default; the rest are about
		// what the answer says, not the timeout.
		Network: httpapi.Network{DBTimeout: time.Minute}})
	return &fixture{srv: srv, biz: biz, sy: sy, ix: ix, nearID: near.ID, farID: far.ID, hiddenID: hidden.ID, lateID: late.ID,
		deliveryID: delivery.ID, curbsideID: curb.ID, allDayID: allDay.ID, holidayID: holiday.ID, goneID: gone.ID, ins: ins}
}

// storeList is the typed reply of the store search.
type storeList struct {
	Stores []struct {
		ID       int64   `json:"id"`
		Name     string  `json:"name"`
		Distance float64 `json:"distance"`
		Delivery bool    `json:"is_delivery_available"`
		Curbside bool    `json:"is_curbside_pickup_available"`
		TimeZone string  `json:"time_zone"`
		OpenNow  bool    `json:"open_now"`
		Special  []struct {
			Closed bool   `json:"closed"`
			Note   string `json:"note"`
		} `json:"special_hours"`
		Reviews    int     `json:"review_count"`
		AvgRating  float64 `json:"average_rating"`
		CountryObj struct {
			DisplayName string `json:"display_name"`
		} `json:"country"`
	} `json:"physical_stores"`
	HasMore bool `json:"has_more"`
}

func (l storeList) ids() []int64 {
	out := []int64{}
	for _, s := range l.Stores {
		out = append(out, s.ID)
	}
	return out
}

// finds checks that a search answers exactly want, in that order, and
// whether it says there is more.
func finds(more bool, want ...int64) replyCheck {
	return reply(func(t *testing.T, l storeList) {
		t.Helper()
		if got := l.ids(); !slices.Equal(got, want) || l.HasMore != more {
			t.Errorf("stores %v (more %v), want %v (more %v)", got, l.HasMore, want, more)
		}
	})
}

// storeReply is the typed reply of GET /api/store/physical-store/{id}.
type storeReply struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// reviewsReply is the typed reply of the reviews of a store.
type reviewsReply struct {
	Summary struct {
		Average     float64 `json:"average"`
		Count       int     `json:"count"`
		Counts      []struct{ Rating, Count int }
		Recommended int `json:"recommended_percentage"`
	} `json:"summary"`
	Reviews []struct {
		Content  string `json:"content"`
		Customer struct {
			FirstName string `json:"first_name"`
		} `json:"customer"`
	} `json:"reviews"`
	HasMore bool `json:"has_more"`
}

const list = "/api/store/physical-store/list-physical-store/"
const nyc = "latitude=40.7128&longitude=-74.0060&radius=30"

func TestStoreSearchAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		c := &client{t: t, h: f.srv}
		nyAll := []int64{f.nearID, f.deliveryID, f.curbsideID, f.allDayID, f.lateID}
		boston := "latitude=42.36&longitude=-71.06&radius=5"
		search := func(name, q string, check replyCheck) step {
			return step{name: name, method: "GET", target: list + "?" + q, status: 200, reply: check}
		}
		c.runEach([]step{
			search("New York: every published store within 30 km, nearest first", nyc, finds(false, nyAll...)),
			search("distances grow and the fields are the store's", nyc, reply(func(t *testing.T, l storeList) {
				for i := 1; i < len(l.Stores); i++ {
					if l.Stores[i].Distance < l.Stores[i-1].Distance {
						t.Errorf("not nearest first: %v", l.ids())
					}
				}
				if s := l.Stores[0]; s.TimeZone != "America/New_York" || s.Reviews != 3 || s.AvgRating != 3.3 || s.CountryObj.DisplayName != "United States" {
					t.Errorf("store fields: %+v", s)
				}
			})),
			search("review text is JSON-escaped, never raw HTML", nyc, func(t *testing.T, body []byte) {
				if strings.Contains(string(body), "<script>") {
					t.Error("raw HTML in the answer")
				}
			}),
			search("limit 2", nyc+"&limit=2", finds(true, f.nearID, f.deliveryID)),
			search("delivery", nyc+"&is_delivery_available=true", finds(false, f.deliveryID)),
			search("the spec's curdside spelling", nyc+"&is_curdside_pickup_available=true", finds(false, f.curbsideID)),
			search("curbside spelled right, as 1", nyc+"&is_curbside_pickup_available=1", finds(false, f.curbsideID)),
			search("three filters at once", nyc+"&is_delivery_available=true&is_order_online_available=true&is_curbside_pickup_available=true", finds(false)),
			search("open now: the all-day store always is, stores without hours never are", nyc+"&is_open_now=true", reply(func(t *testing.T, l storeList) {
				got := l.ids()
				if !slices.Contains(got, f.allDayID) || slices.Contains(got, f.nearID) || slices.Contains(got, f.deliveryID) {
					t.Errorf("open now: %v", got)
				}
			})),
			// Closed today by special hours: absent from open now, listed
			// closed with its note; closed for good: never listed.
			search("Boston, open now: the store closed today by special hours is not", boston+"&is_open_now=true", finds(false)),
			search("Boston: the holiday store listed closed with its special hours, the closed-for-good one not at all", boston, reply(func(t *testing.T, l storeList) {
				if len(l.Stores) != 1 || l.Stores[0].ID != f.holidayID || l.Stores[0].OpenNow ||
					len(l.Stores[0].Special) != 3 || l.Stores[0].Special[1].Note != "Staff holiday" || !l.Stores[0].Special[1].Closed {
					t.Errorf("Boston: %+v", l.Stores)
				}
			})),
			{name: "a permanently closed store still answers its own call", method: "GET", target: "/api/store/physical-store/" + itoa(f.goneID), status: 200,
				reply: func(t *testing.T, body []byte) {
					if !strings.Contains(string(body), `"permanently_closed":true`) || !strings.Contains(string(body), `"open_now":false`) {
						t.Errorf("permanently closed store: %s", body)
					}
				}},
			search("Los Angeles", "latitude=34.05&longitude=-118.24&radius=5", finds(false, f.farID)),
			search("Gulf of Guinea: nothing, and no more", "latitude=0&longitude=0&radius=100", finds(false)),
			search("the same parameter twice with the same value", nyc+"&latitude=40.7128", finds(false, nyAll...)),
		})
	})
}

// The slash-less path redirects to the spec's, query kept: api/openapi.yaml
// routes it to "one store by id", so it must not answer a list itself.
func TestStoreSearchWithoutTrailingSlashRedirects(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, httptest.NewRequest("GET", strings.TrimSuffix(list, "/")+"?"+nyc, nil))
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != list+"?"+nyc {
			t.Fatalf("got %d Location %q, want 301 to %s?%s", rec.Code, rec.Header().Get("Location"), list, nyc)
		}
	})
}

// The app shell for a URL about one store names that store's page as its
// canonical address (crawlers run no script); other shells name none.
func TestAppShellCanonicalLink(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		body := func(target string) string {
			rec := httptest.NewRecorder()
			f.srv.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d", target, rec.Code)
			}
			return rec.Body.String()
		}
		want := regexp.MustCompile(`<link rel="canonical" href="http://example\.com/stores/ny/[a-z0-9-]+/[a-z0-9-]+-` + itoa(f.nearID) + `">`)
		for _, target := range []string{"/?store=" + itoa(f.nearID), "/?lat=40.7&lon=-74&store=" + itoa(f.nearID), "/reviews?store=" + itoa(f.nearID)} {
			if b := body(target); !want.MatchString(b) {
				t.Errorf("%s: no canonical link to the store page in\n%.400s", target, b)
			}
		}
		for _, target := range []string{"/", "/?store=999999", "/?store=abc", "/claim?store=" + itoa(f.nearID), "/?store=" + itoa(f.hiddenID)} {
			if b := body(target); strings.Contains(b, `rel="canonical"`) {
				t.Errorf("%s: a canonical link where none belongs", target)
			}
		}
	})
}

func TestStoreSearchRejectsBadInput(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	c := &client{t: t, h: f.srv}
	var steps []step
	for _, q := range []string{
		"",
		"latitude=abc&longitude=-74&radius=30",
		"latitude=91&longitude=-74&radius=30",
		"latitude=40&longitude=-181&radius=30",
		"latitude=40&longitude=-74",
		"latitude=40&longitude=-74&radius=",
		"latitude=40&longitude=-74&radius=0",
		"latitude=40&longitude=-74&radius=-5",
		"latitude=40&longitude=-74&radius=101",
		"latitude=40&longitude=-74&radius=NaN",
		"latitude=40&longitude=-74&radius=Inf",
		"latitude=40&longitude=-74&radius=1e400",
		"latitude=40&latitude=41&longitude=-74&radius=30",
		"latitude=40&longitude=-74&radius=30&limit=0",
		"latitude=40&longitude=-74&radius=30&limit=201",
		"latitude=40&longitude=-74&radius=30&limit=ten",
		"latitude=40&longitude=-74&radius=30&is_delivery_available=maybe",
		"latitude=40&longitude=-74&radius=30&is_curdside_pickup_available=true&is_curbside_pickup_available=false",
		"latitude=%zz&longitude=-74&radius=30",
		"latitude=40&longitude=-74&radius=30&pad=" + strings.Repeat("x", 5000),
	} {
		steps = append(steps, step{name: fmt.Sprintf("%.80s", q), method: "GET", target: list + "?" + q, status: 400})
	}
	c.runEach(steps)
}

func TestStoreAndReviewsAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		c := &client{t: t, h: f.srv}
		store := "/api/store/physical-store/"
		near := store + itoa(f.nearID)
		c.runEach([]step{
			{method: "GET", target: near, status: 200, reply: reply(func(t *testing.T, s storeReply) {
				if s.ID != f.nearID || s.Name != "Near" {
					t.Errorf("store %+v", s)
				}
			})},
			{name: "a hidden store", method: "GET", target: store + itoa(f.hiddenID), status: 404},
			{method: "GET", target: store + "999999", status: 404},
			{method: "GET", target: store + "abc", status: 400},
			{method: "GET", target: store + "0", status: 400},
			{name: "an id written with a plus sign", method: "GET", target: store + "+" + itoa(f.nearID), status: 400},
			{method: "GET", target: near + "/reviews?page=+1", status: 400},
			{method: "GET", target: store + "999999/reviews", status: 404},
			{method: "GET", target: near + "/reviews?page=0", status: 400},
			{method: "GET", target: near + "/reviews?limit=101", status: 400},
			{method: "GET", target: near + "/reviews?limit=2", status: 200, reply: reply(func(t *testing.T, rl reviewsReply) {
				s := rl.Summary
				if s.Average != 3.3 || s.Count != 3 || s.Recommended != 67 || len(s.Counts) != 5 || s.Counts[0].Rating != 5 || s.Counts[0].Count != 1 || s.Counts[4].Count != 1 {
					t.Errorf("summary: %+v", s)
				}
				if len(rl.Reviews) != 2 || !rl.HasMore {
					t.Errorf("reviews page: %+v", rl)
				}
			})},
		})
	})
}

func itoa(n int64) string { return strconvI(n) }

func TestServingAndOperations(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	cases := []struct {
		method, target string
		status         int
		contains       string
		header         [2]string
	}{
		{"GET", "/", 200, "window.__LOCATOR_CONFIG__={\"apiBase\":\"/api\",\"storefrontUrl\":\"https://shop.example\"}", [2]string{"Cache-Control", "no-cache"}},
		{"GET", "/claim", 200, "<title>Locator</title>", [2]string{}},
		{"GET", "/reset-password?token=abc=def", 200, "<title>Locator</title>", [2]string{}},
		{"GET", "/no/such/page", 404, "<title>Locator</title>", [2]string{"Content-Type", "text/html; charset=utf-8"}},
		{"GET", "/missing.js", 404, "404", [2]string{}},
		{"GET", "/assets/app-abc12.js", 200, "console.log", [2]string{"Cache-Control", "public, max-age=31536000, immutable"}},
		{"GET", "/favicon.svg", 200, "<svg/>", [2]string{"Cache-Control", "public, max-age=604800"}},
		{"GET", "/favicon.ico", 200, "", [2]string{"Content-Type", "image/x-icon"}},
		{"GET", "/manifest.webmanifest", 200, "Store Locator", [2]string{"Content-Type", "application/manifest+json"}},
		{"GET", "/demo/store-1.svg", 200, "<svg/>", [2]string{"Cache-Control", "no-cache"}},
		// A lazy screen's route preloads its chunk and what it imports beyond the entry's: with a
		// first frame (frames.go), once the frame is painted.
		{"GET", "/claim", 200, `<link rel="stylesheet" crossorigin href="/assets/ClaimPage-1.css"></head>`, [2]string{}},
		{"GET", "/claim", 200, `<script type="application/json" id="app-modules">["/assets/index-1.js","/assets/ClaimPage-1.js","/assets/form-1.js"]</script>`, [2]string{}},
		{"GET", "/admin", 200, `<link rel="modulepreload" crossorigin href="/assets/AdminPage-1.js"></head>`, [2]string{}},
		{"GET", "/.vite/manifest.json", 404, "", [2]string{}},
		{"GET", "/etc/passwd", 404, "<title>Locator</title>", [2]string{}},
		{"GET", "/assets/..%2f..%2fgo.mod", 404, "", [2]string{}},
		{"GET", "/api/nope", 404, `"message"`, [2]string{"Content-Type", "application/json"}},
		{"GET", "/api/", 404, `"message"`, [2]string{}},
		{"POST", list + "?" + nyc, 405, `"message"`, [2]string{"Content-Type", "application/json"}},
		{"GET", "/api/config", 200, `"storefrontUrl":"https://shop.example"`, [2]string{}},
		{"GET", "/healthz", 200, `"ok"`, [2]string{}},
		{"GET", "/readyz", 200, `"ready"`, [2]string{}},
	}
	for _, c := range cases {
		rec := do(t, f.srv, c.method, c.target, nil, false)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.contains) {
			t.Errorf("%s %s: %d %s, want %d containing %q", c.method, c.target, rec.Code, truncate(rec.Body.String()), c.status, c.contains)
		}
		if c.header[0] != "" && rec.Header().Get(c.header[0]) != c.header[1] {
			t.Errorf("%s %s: %s = %q, want %q", c.method, c.target, c.header[0], rec.Header().Get(c.header[0]), c.header[1])
		}
		if rec.Header().Get("X-Request-Id") == "" {
			t.Errorf("%s: no request id", c.target)
		}
	}
	// A browser navigating to a missing file's address gets the app (its not-found page, with the
	// app's header), not a bare text 404; a script or image asking for it still gets the plain one.
	for _, c := range []struct {
		target, header, value string
		page                  bool
	}{
		{"/stores.html", "Sec-Fetch-Mode", "navigate", true},
		{"/old-page.php", "Accept", "text/html,application/xhtml+xml,*/*;q=0.8", true},
		{"/missing.js", "Sec-Fetch-Mode", "no-cors", false},
		{"/missing.png", "Accept", "image/avif,image/webp,*/*", false},
		{"/assets/gone-abc12.js", "Sec-Fetch-Mode", "navigate", false},
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://locator.test"+c.target, nil)
		req.Header.Set(c.header, c.value)
		rec := serve(t, f.srv, req)
		isPage := strings.Contains(rec.Body.String(), "<title>Locator</title>")
		if rec.Code != http.StatusNotFound || isPage != c.page || !strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Accept") {
			t.Errorf("%s with %s %s: %d, page %v (want %v), Vary %q", c.target, c.header, c.value, rec.Code, isPage, c.page, rec.Header().Values("Vary"))
		}
	}
	// A state-changing request from another site is refused.
	req, _ := http.NewRequest(http.MethodPost, "http://locator.test/api/store/claim", strings.NewReader("{}"))
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	rec := serve(t, f.srv, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("cross-site POST: %d", rec.Code)
	}
	// Static files gzipped when asked for, identity otherwise.
	req, _ = http.NewRequest(http.MethodGet, "http://locator.test/assets/big-abc12.js", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec = serve(t, f.srv, req)
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.Len() >= 3400 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Fatalf("gzipped asset: %v, %d bytes", rec.Header(), rec.Body.Len())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.HasPrefix(string(plain), "console.log('a fairly") || len(plain) != 3500 {
		t.Fatalf("gunzipped %d bytes", len(plain))
	}
	req, _ = http.NewRequest(http.MethodGet, "http://locator.test/assets/big-abc12.js", nil)
	if rec = serve(t, f.srv, req); rec.Header().Get("Content-Encoding") != "" || rec.Body.Len() != 3500 {
		t.Fatalf("identity asset: %v %d", rec.Header(), rec.Body.Len())
	}
	// Gzip when asked for.
	req, _ = http.NewRequest(http.MethodGet, "http://locator.test"+list+"?"+nyc, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec = serve(t, f.srv, req)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip: %v", rec.Header())
	}
}

func TestReadyzFailsWithoutDatabase(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	d.Close()
	rec := do(t, f.srv, http.MethodGet, "/readyz", nil, false)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with a closed database: %d", rec.Code)
	}
}

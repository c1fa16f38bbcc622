package httpapi_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"locator/internal/accounts"
	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/favorites"
	"locator/internal/httpapi"
	"locator/internal/reviews"
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
}

func allWeek(start, end string) []stores.WorkingHour {
	var hs []stores.WorkingHour
	for d := time.Sunday; d <= time.Saturday; d++ {
		hs = append(hs, stores.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return hs
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
	all := []*stores.Store{near, delivery, curb, allDay, late, hidden, far}
	dbtest.Must(t, sr.SaveAll(ctx, all), "save stores")
	rr := reviews.NewRepo(d, sr)
	dbtest.Must(t, rr.AddAll(ctx, []*reviews.Review{
		{StoreID: near.ID, Rating: 5, Content: "<script>alert(1)</script> great", CustomerFirstName: "Ann"},
		{StoreID: near.ID, Rating: 4, Content: "good"},
		{StoreID: near.ID, Rating: 1, Content: "bad"},
	}), "reviews")
	ix := search.NewIndex()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sy := search.NewSyncer(sr, ix, log)
	dbtest.Must(t, sy.Load(ctx), "load index")
	web := fstest.MapFS{
		"index.html":          {Data: []byte("<!doctype html><html><head><title>Locator</title></head><body></body></html>")},
		"assets/app-abc12.js": {Data: []byte("console.log(1)")},
		"assets/big-abc12.js": {Data: []byte(strings.Repeat("console.log('a fairly long line');\n", 100))},
		"favicon.svg":         {Data: []byte("<svg/>")},
	}
	acc := accounts.New(d, "http://locator.test", log)
	acc.Hasher = secret.Hasher{Memory: 64, Time: 1, Threads: 1} // cheap under -race
	biz := business.New(d, sr, "http://locator.test", func(float64, float64) string { return "America/Chicago" }, log)
	biz.Hasher = acc.Hasher
	t.Cleanup(biz.Wait)
	srv := httpapi.New(httpapi.Deps{Log: log, DB: d, Index: ix, Syncer: sy, Stores: sr, Reviews: rr, Web: web,
		Accounts: acc, Favorites: favorites.New(d, sr), Claims: newClaims(d, sr, log), Business: biz,
		StorefrontURL: "https://shop.example", Version: "test"})
	return &fixture{srv: srv, biz: biz, sy: sy, ix: ix, nearID: near.ID, farID: far.ID, hiddenID: hidden.ID, lateID: late.ID,
		deliveryID: delivery.ID, curbsideID: curb.ID, allDayID: allDay.ID}
}

type storeList struct {
	Stores []struct {
		ID         int64   `json:"id"`
		Name       string  `json:"name"`
		Distance   float64 `json:"distance"`
		Delivery   bool    `json:"is_delivery_available"`
		Curbside   bool    `json:"is_curbside_pickup_available"`
		TimeZone   string  `json:"time_zone"`
		Reviews    int     `json:"review_count"`
		AvgRating  float64 `json:"average_rating"`
		CountryObj struct {
			DisplayName string `json:"display_name"`
		} `json:"country"`
	} `json:"physical_stores"`
	HasMore bool `json:"has_more"`
}

const list = "/api/store/physical-store/list-physical-store/"
const nyc = "latitude=40.7128&longitude=-74.0060&radius=30"

func TestStoreSearchAPI(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		get := func(q string) (int, storeList, string) {
			rec := do(t, f.srv, http.MethodGet, list+"?"+q, nil, true)
			var out storeList
			if rec.Code == http.StatusOK {
				if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
					t.Fatalf("%s: bad JSON: %v", q, err)
				}
			}
			return rec.Code, out, rec.Body.String()
		}
		ids := func(l storeList) []int64 {
			var out []int64
			for _, s := range l.Stores {
				out = append(out, s.ID)
			}
			return out
		}
		code, l, body := get(nyc)
		if code != 200 || len(l.Stores) != 5 || l.HasMore || l.Stores[0].ID != f.nearID {
			t.Fatalf("New York: %d %s", code, body)
		}
		for i := 1; i < len(l.Stores); i++ {
			if l.Stores[i].Distance < l.Stores[i-1].Distance {
				t.Fatalf("not nearest first: %v", ids(l))
			}
		}
		if s := l.Stores[0]; s.TimeZone != "America/New_York" || s.Reviews != 3 || s.AvgRating != 3.3 || s.CountryObj.DisplayName != "United States" {
			t.Fatalf("store fields: %+v", s)
		}
		if strings.Contains(body, "<script>") {
			t.Fatal("raw HTML in the answer")
		}
		// Without a trailing slash too.
		if rec := do(t, f.srv, http.MethodGet, strings.TrimSuffix(list, "/")+"?"+nyc, nil, false); rec.Code != 200 {
			t.Fatalf("no trailing slash: %d", rec.Code)
		}

		_, l, _ = get(nyc + "&limit=2")
		if len(l.Stores) != 2 || !l.HasMore {
			t.Fatalf("limit 2: %v more=%v", ids(l), l.HasMore)
		}
		_, l, _ = get(nyc + "&is_delivery_available=true")
		if len(l.Stores) != 1 || l.Stores[0].ID != f.deliveryID {
			t.Fatalf("delivery: %v", ids(l))
		}
		_, l, _ = get(nyc + "&is_curdside_pickup_available=true")
		if len(l.Stores) != 1 || l.Stores[0].ID != f.curbsideID {
			t.Fatalf("curdside spelling: %v", ids(l))
		}
		_, l, _ = get(nyc + "&is_curbside_pickup_available=1")
		if len(l.Stores) != 1 || l.Stores[0].ID != f.curbsideID {
			t.Fatalf("curbside spelling: %v", ids(l))
		}
		_, l, _ = get(nyc + "&is_delivery_available=true&is_order_online_available=true&is_curbside_pickup_available=true")
		if len(l.Stores) != 0 {
			t.Fatalf("three filters: %v", ids(l))
		}
		// Open now: the all-day store always is; stores without hours never are.
		_, l, _ = get(nyc + "&is_open_now=true")
		got := map[int64]bool{}
		for _, s := range l.Stores {
			got[s.ID] = true
		}
		if !got[f.allDayID] || got[f.nearID] || got[f.deliveryID] {
			t.Fatalf("open now: %v", ids(l))
		}
		_, l, _ = get("latitude=34.05&longitude=-118.24&radius=5")
		if len(l.Stores) != 1 || l.Stores[0].ID != f.farID {
			t.Fatalf("Los Angeles: %v", ids(l))
		}
		_, l, _ = get("latitude=0&longitude=0&radius=100")
		if len(l.Stores) != 0 || l.HasMore {
			t.Fatalf("Gulf of Guinea: %v", ids(l))
		}
		// The same parameter twice with the same value is fine.
		if code, _, _ := get(nyc + "&latitude=40.7128"); code != 200 {
			t.Fatalf("repeated equal latitude: %d", code)
		}
	})
}

func TestStoreSearchRejectsBadInput(t *testing.T) {
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	bad := []string{
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
	}
	for _, q := range bad {
		rec := do(t, f.srv, http.MethodGet, list+"?"+q, nil, false)
		var e struct {
			Message string `json:"message"`
		}
		if rec.Code != http.StatusBadRequest || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Message == "" {
			t.Errorf("%.80s: %d %s, want 400 with a message", q, rec.Code, truncate(rec.Body.String()))
		}
	}
}

func TestStoreAndReviewsAPI(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		rec := do(t, f.srv, http.MethodGet, "/api/store/physical-store/"+itoa(f.nearID), nil, true)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"name":"Near"`) {
			t.Fatalf("get store: %d %s", rec.Code, rec.Body)
		}
		for target, want := range map[string]int{
			"/api/store/physical-store/" + itoa(f.hiddenID):                      404,
			"/api/store/physical-store/999999":                                   404,
			"/api/store/physical-store/abc":                                      400,
			"/api/store/physical-store/0":                                        400,
			"/api/store/physical-store/999999/reviews":                           404,
			"/api/store/physical-store/" + itoa(f.nearID) + "/reviews?page=0":    400,
			"/api/store/physical-store/" + itoa(f.nearID) + "/reviews?limit=101": 400,
		} {
			if rec := do(t, f.srv, http.MethodGet, target, nil, false); rec.Code != want {
				t.Errorf("%s: %d, want %d", target, rec.Code, want)
			}
		}
		rec = do(t, f.srv, http.MethodGet, "/api/store/physical-store/"+itoa(f.nearID)+"/reviews?limit=2", nil, true)
		var rl struct {
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
		if err := json.Unmarshal(rec.Body.Bytes(), &rl); err != nil {
			t.Fatal(err)
		}
		s := rl.Summary
		if s.Average != 3.3 || s.Count != 3 || s.Recommended != 67 || len(s.Counts) != 5 || s.Counts[0].Rating != 5 || s.Counts[0].Count != 1 || s.Counts[4].Count != 1 {
			t.Fatalf("summary: %+v", s)
		}
		if len(rl.Reviews) != 2 || !rl.HasMore {
			t.Fatalf("reviews page: %+v", rl)
		}
	})
}

func itoa(n int64) string { return strconvI(n) }

func TestServingAndOperations(t *testing.T) {
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
		{"GET", "/favicon.svg", 200, "<svg/>", [2]string{"Cache-Control", "no-cache"}},
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
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	d.Close()
	rec := do(t, f.srv, http.MethodGet, "/readyz", nil, false)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with a closed database: %d", rec.Code)
	}
}

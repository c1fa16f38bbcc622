package storepages

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"locator/internal/golden"
	"locator/internal/schedule"
	"locator/internal/stores"
)

func TestRedirectsToTheCanonicalPath(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	const canonical = "/stores/ny/new-york/manhattan-vape-shop-3613"
	for _, from := range []string{
		"/stores/ny/new-york/old-name-3613",           // renamed
		"/stores/nj/hoboken/manhattan-vape-shop-3613", // moved
		"/stores/NY/New-York/Manhattan-Vape-Shop-3613",
		"/stores/ny/new-york/3613",
		"/stores/x/y/z-3613",
	} {
		rec := get(t, h, from)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != canonical {
			t.Errorf("%s: %d to %q, want 301 to %s", from, rec.Code, rec.Header().Get("Location"), canonical)
		}
	}
	for from, to := range map[string]string{
		"/stores/":                   "/stores",
		"/stores/ny/":                "/stores/ny",
		"/stores/ny/new-york/":       "/stores/ny/new-york",
		"/stores/ny/new-york?page=1": "/stores/ny/new-york",
	} {
		rec := get(t, h, from)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != to {
			t.Errorf("%s: %d to %q, want 301 to %s", from, rec.Code, rec.Header().Get("Location"), to)
		}
	}
}

func TestUnknownPathsAreThe404Page(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	for _, path := range []string{
		"/stores/zz",
		"/stores/ny/gotham",
		"/stores/ny/new-york/manhattan-vape-shop-999",
		"/stores/ny/new-york/no-id",
		"/stores/ny/new-york/-",
		"/stores/ny/new-york/x-0",
		"/stores/ny/new-york/x--999",
		"/stores/ny/new-york/x-+5",
		"/stores/ny/new-york/x-99999999999999999999999",
		"/stores/ny/new-york/manhattan-vape-shop-3613/more",
		"/stores/" + strings.Repeat("a", 5000),
		"/stores/ny/" + strings.Repeat("%zz", 100),
		"/stores/ny/new\x00york",
		"/stores/ny/new-york?page=0",
		"/stores/ny/new-york?page=2",
		"/stores/ny/new-york?page=abc",
		"/stores/ny/new-york?page=1&page=2",
		"/stores/ny/new-york/ünïcode-3613x",
		"/sitemaps/stores-2.xml",
		"/sitemaps/stores-0.xml",
		"/sitemaps/stores-01.xml",
		"/sitemaps/other-1.xml",
		"/sitemaps/directory-1.txt",
	} {
		rec := get(t, h, path)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "<h1>Page not found</h1>") {
			t.Errorf("%q: %d, want the 404 page", path, rec.Code)
		}
	}
	req := get(t, h, "/stores/ny", "X", "y")
	if req.Code != http.StatusOK {
		t.Fatal(req.Code)
	}
}

func TestMethods(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	req, _ := http.NewRequest(http.MethodPost, "/stores/ny", nil)
	rec := newRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Fatalf("POST: %d %q", rec.Code, rec.Header().Get("Allow"))
	}
	req, _ = http.NewRequest(http.MethodHead, "/stores/ny", nil)
	rec = newRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") == "" {
		t.Fatalf("HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

func TestConditionalRequests(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	for _, path := range []string{"/stores/ny/new-york/manhattan-vape-shop-3613", "/stores", "/stores/ny", "/stores/ny/new-york"} {
		first := get(t, h, path)
		etag, lm := first.Header().Get("ETag"), first.Header().Get("Last-Modified")
		if first.Code != http.StatusOK || etag == "" || lm == "" {
			t.Fatalf("%s: %d, ETag %q, Last-Modified %q", path, first.Code, etag, lm)
		}
		if rec := get(t, h, path, "If-None-Match", etag); rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("%s If-None-Match: %d", path, rec.Code)
		}
		if rec := get(t, h, path, "If-None-Match", `"other", `+etag); rec.Code != http.StatusNotModified {
			t.Errorf("%s If-None-Match list: %d", path, rec.Code)
		}
		if rec := get(t, h, path, "If-None-Match", `"other"`, "If-Modified-Since", lm); rec.Code != http.StatusOK {
			t.Errorf("%s If-None-Match wins over If-Modified-Since: %d", path, rec.Code)
		}
		if rec := get(t, h, path, "If-Modified-Since", lm); rec.Code != http.StatusNotModified {
			t.Errorf("%s If-Modified-Since: %d", path, rec.Code)
		}
		mod, _ := http.ParseTime(lm)
		if rec := get(t, h, path, "If-Modified-Since", mod.Add(-time.Second).Format(http.TimeFormat)); rec.Code != http.StatusOK {
			t.Errorf("%s If-Modified-Since earlier: %d", path, rec.Code)
		}
	}
	// The store page's Last-Modified is its last change, or the last
	// instant its status line changed when that is later: at 14:30 on a
	// Tuesday open since 09:00, the opening.
	rec := get(t, h, "/stores/ny/new-york/manhattan-vape-shop-3613")
	if lm := rec.Header().Get("Last-Modified"); lm != "Tue, 10 Mar 2026 13:00:00 GMT" {
		t.Fatalf("Last-Modified %s", lm)
	}
}

func TestStatusLine(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	at := func(day, hhmm string) time.Time {
		d := map[string]int{"Sun": 8, "Mon": 9, "Tue": 10, "Wed": 11, "Thu": 12, "Fri": 13, "Sat": 14}[day]
		tm, err := time.ParseInLocation("2006-01-02 15:04", "2026-03-"+pad(d)+" "+hhmm, ny)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	hours := append(week("09:00", "17:00", time.Monday, time.Tuesday, time.Wednesday),
		schedule.WorkingHour{WeekDay: time.Friday, Start: "18:00", End: "02:00"},
		schedule.WorkingHour{WeekDay: time.Sunday, Start: "10:00", End: "10:00"})
	s := &stores.Store{ID: 1, Name: "X", TimeZone: "America/New_York", WorkingHours: hours,
		SpecialHours: []schedule.SpecialHour{{Date: "2026-03-11", Closed: true, Note: "Staff day"}, {Date: "2026-03-12", Start: "10:00", End: "12:00"}}}
	sched := stores.WithExceptions(s)
	updated := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		day, time, want string
		since           string
	}{
		{"Mon", "08:59", "Closed · Opens 9:00 AM", "Mon 00:00"},
		{"Mon", "09:00", "Opened · Closes 5:00 PM", "Mon 09:00"},
		{"Mon", "15:59", "Opened · Closes 5:00 PM", "Mon 09:00"},
		{"Mon", "16:00", "Opened · Closes soon · 5:00 PM", "Mon 16:00"},
		{"Mon", "17:00", "Opened · Closes soon · 5:00 PM", "Mon 16:00"},
		{"Mon", "17:01", "Closed · Opens Tue 9:00 AM", "Mon 17:01"},
		{"Tue", "20:00", "Closed · Opens Thu 10:00 AM", "Tue 17:01"}, // Wednesday is a closed special date
		{"Wed", "12:00", "Closed · Closed today · Staff day", "Wed 00:00"},
		{"Thu", "10:30", "Opened · Closes 12:00 PM", "Thu 10:00"}, // special hours instead of none
		{"Fri", "23:00", "Opened · Closes 2:00 AM", "Fri 18:00"},
		{"Sat", "01:30", "Opened · Closes soon · 2:00 AM", "Sat 01:00"},
		{"Sat", "02:01", "Closed · Opens Sun 12:00 AM", "Sat 02:01"}, // all day Sunday
		{"Sun", "03:00", "Opened · Closes 11:59 PM", "Sun 00:00"},
	} {
		got := storeStatus(sched, ny, at(c.day, c.time), updated)
		day, hm, _ := strings.Cut(c.since, " ")
		if got.Text() != c.want || !got.Since.Equal(at(day, hm)) || got.Open != strings.HasPrefix(c.want, "Opened") {
			t.Errorf("%s %s: %q since %v, want %q since %s", c.day, c.time, got.Text(), got.Since, c.want, c.since)
		}
	}
	s.TemporarilyClosed = &schedule.Closure{From: "2026-03-10", Until: "2026-03-12"}
	if got := storeStatus(stores.WithExceptions(s), ny, at("Tue", "12:00"), updated); got.Text() != "Closed · Temporarily closed until Mar 12" || got.Open {
		t.Errorf("temporarily closed: %+v", got)
	}
	s.TemporarilyClosed.Until = ""
	if got := storeStatus(stores.WithExceptions(s), ny, at("Wed", "12:00"), updated); got.Text() != "Closed · Temporarily closed" {
		t.Errorf("closed until further notice: %+v", got)
	}
	s.PermanentlyClosed = true
	if got := storeStatus(stores.WithExceptions(s), ny, at("Mon", "10:00"), updated); got.Text() != "Closed · Permanently closed" || !got.Permanent || !got.Since.Equal(updated) {
		t.Errorf("permanently closed: %+v", got)
	}
	if got := storeStatus(schedule.NewSchedule(nil), time.UTC, fixedNow, updated); got.Text() != "Closed" || got.Open {
		t.Errorf("no hours: %+v", got)
	}
}

func pad(d int) string {
	if d < 10 {
		return "0" + string(rune('0'+d))
	}
	return string(rune('0'+d/10)) + string(rune('0'+d%10))
}

// A rendered page is kept, but never past a change of the index or of its
// status line.
func TestPageCacheNeverServesStale(t *testing.T) {
	t.Parallel()
	now := fixedNow // Tuesday 14:30 in New York: open
	ss := fixtureStores()
	p, ix := newPages(t, ss)
	p.opt.Now = func() time.Time { return now }
	h := p.handler()
	const path = "/stores/ny/new-york/manhattan-vape-shop-3613"
	first := get(t, h, path)
	if again := get(t, h, path); again.Body.String() != first.Body.String() || again.Header().Get("ETag") != first.Header().Get("ETag") {
		t.Fatal("the same page twice differs")
	}
	now = fixedNow.Add(7 * time.Hour) // 21:30: closed
	if rec := get(t, h, path); !strings.Contains(rec.Body.String(), ">Closed</span><span>Opens Wed 9:00 AM</span>") {
		t.Errorf("after closing time: %s", rec.Body)
	}
	now = fixedNow
	ss[0].Name = "Manhattan Vape Shop"
	ss[0].ReviewCount, ss[0].RatingSum = 4, 20
	ix.Put(entry(t, ss[0]))
	if rec := get(t, h, path); !strings.Contains(rec.Body.String(), "Rated 5.0 out of 5 · 4 reviews") {
		t.Errorf("after a change: %s", rec.Body)
	}
}

func TestVerifiedLabel(t *testing.T) {
	t.Parallel()
	at := "2026-03-01T23:30:00Z"
	for _, c := range []struct {
		v    *string
		now  time.Time
		want string
	}{
		{&at, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), "Verified Mar 1, 2026"},
		{&at, time.Date(2026, 8, 28, 23, 30, 0, 0, time.UTC), "Verified Mar 1, 2026"}, // 180 days to the second
		{&at, time.Date(2026, 8, 28, 23, 30, 1, 0, time.UTC), "Not verified recently"},
		{nil, fixedNow, "Not verified recently"},
		{new(string), fixedNow, "Not verified recently"},
	} {
		got, since := verifiedLabel(c.v, c.now, time.UTC)
		if got != c.want {
			t.Errorf("%v at %v: %q, want %q", c.v, c.now, got, c.want)
		}
		if c.v != nil && *c.v != "" && got == "Not verified recently" && !since.Equal(time.Date(2026, 8, 28, 23, 30, 0, 0, time.UTC)) {
			t.Errorf("since %v", since)
		}
	}
}

// The date is the store's own (issue #39, m27): a confirmation at 7 PM on
// Dec 1 in New York (00:00 UTC on Dec 2) reads Dec 1 there.
func TestVerifiedLabelStoreDate(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	at := "2026-12-02T00:00:00Z"
	if got, _ := verifiedLabel(&at, time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC), ny); got != "Verified Dec 1, 2026" {
		t.Errorf("New York: %q", got)
	}
}

func TestMilesText(t *testing.T) {
	t.Parallel()
	golden.Cases(t, "milesText", milesText, map[float64]string{0: "< 0.1", 0.04: "< 0.1", 0.1: "0.1", 2.345: "2.3", 12.6: "13"})
}

func TestPhotoSrcset(t *testing.T) {
	t.Parallel()
	golden.Cases(t, "photoSrcset", photoSrcset, map[string]string{
		"/photos/12/640.jpg":                    "/photos/12/320.jpg 320w, /photos/12/640.jpg 640w, /photos/12/1280.jpg 1280w",
		"/photos/12/1280.jpg":                   "/photos/12/320.jpg 320w, /photos/12/640.jpg 640w, /photos/12/1280.jpg 1280w",
		"/photos/12/500.jpg":                    "",
		"/photos/x/640.jpg":                     "",
		"/photos//640.jpg":                      "",
		"/photos/12/640.png":                    "",
		"/demo/store-1.svg":                     "",
		"https://cdn.example/photos/12/640.jpg": "",
	})
}

// The page cache keys the verified line too: a page cached while the
// confirmation was recent is not served once it is not.
func TestPageCacheFollowsTheVerifiedLine(t *testing.T) {
	t.Parallel()
	ss := fixtureStores()
	now := fixedNow
	p, _ := newPages(t, ss)
	p.opt.Now = func() time.Time { return now }
	h := p.handler()
	const path = "/stores/ny/new-york/manhattan-vape-shop-3613"
	if rec := get(t, h, path); !strings.Contains(rec.Body.String(), "Verified Feb 20, 2026") {
		t.Fatal("no verified line")
	}
	now = time.Date(2026, 8, 19, 18, 30, 0, 0, time.UTC) // Wednesday 14:30 in New York, 3:30 past the 180 days
	rec := get(t, h, path)
	if !strings.Contains(rec.Body.String(), "Not verified recently") {
		t.Errorf("verified line kept past 180 days")
	}
	if lm := rec.Header().Get("Last-Modified"); lm != "Wed, 19 Aug 2026 15:00:00 GMT" /* the line changed after the opening */ {
		t.Errorf("Last-Modified %s", lm)
	}
}

// The report form's own page: shown on GET, the confirmation with
// ?sent=1, an outdated path redirected; other methods and paths refused.
func TestReportPageRoutes(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	const action = "/stores/ny/new-york/manhattan-vape-shop-3613/report"
	if rec := get(t, h, action); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<form method="post" action="`+action+`">`) ||
		!strings.Contains(rec.Body.String(), `<meta name="robots" content="noindex">`) {
		t.Errorf("form page: %d %q\n%s", rec.Code, rec.Header().Get("Cache-Control"), rec.Body)
	}
	if rec := get(t, h, action+"?sent=1"); !strings.Contains(rec.Body.String(), `<p role="status">Thanks! We&#39;ll check this store.</p>`) {
		t.Errorf("confirmation:\n%s", rec.Body)
	}
	if rec := get(t, h, "/stores/ny/new-york/old-name-3613/report"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != action {
		t.Errorf("old path: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	for _, path := range []string{"/stores/ny/new-york/manhattan-vape-shop-999/report", "/stores/ny/new-york/manhattan-vape-shop-3613/reports"} {
		if rec := get(t, h, path); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, rec.Code)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/stores/ny/new-york/manhattan-vape-shop-3613", strings.NewReader("reason=other"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST to the store page: %d", rec.Code)
	}
}

// Pages and directories go out compressed to a browser, each coding with
// its own ETag; any of the page's ETags still answers 304.
func TestCompressedPages(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	zr, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, path := range []string{"/stores/ny/new-york/manhattan-vape-shop-3613", "/stores", "/stores/ny"} {
		plain := get(t, h, path)
		zst := get(t, h, path, "Accept-Encoding", "gzip, deflate, br, zstd")
		if zst.Code != http.StatusOK || zst.Header().Get("Content-Encoding") != "zstd" || zst.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s: %d %v", path, zst.Code, zst.Header())
		}
		if zst.Header().Get("Content-Length") != strconv.Itoa(zst.Body.Len()) || zst.Body.Len() >= plain.Body.Len() {
			t.Fatalf("%s: Content-Length %s, %d bytes compressed, %d plain", path, zst.Header().Get("Content-Length"), zst.Body.Len(), plain.Body.Len())
		}
		body, err := zr.DecodeAll(zst.Body.Bytes(), nil)
		if err != nil || !bytes.Equal(body, plain.Body.Bytes()) {
			t.Fatalf("%s: decodes to %d bytes (%v), plain %d", path, len(body), err, plain.Body.Len())
		}
		etag, zetag := plain.Header().Get("ETag"), zst.Header().Get("ETag")
		if zetag == etag || zetag != strings.TrimSuffix(etag, `"`)+`-zstd"` {
			t.Fatalf("%s: ETag %s compressed, %s plain", path, zetag, etag)
		}
		for _, tag := range []string{etag, zetag} {
			if rec := get(t, h, path, "Accept-Encoding", "zstd", "If-None-Match", tag); rec.Code != http.StatusNotModified {
				t.Errorf("%s If-None-Match %s: %d", path, tag, rec.Code)
			}
		}
	}
}

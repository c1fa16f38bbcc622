package storepages

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"locator/internal/golden"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/stores"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// fixedNow is a Tuesday, 14:30 in New York.
var fixedNow = time.Date(2026, 3, 10, 18, 30, 0, 0, time.UTC)

func week(start, end string, days ...time.Weekday) []schedule.WorkingHour {
	var hs []schedule.WorkingHour
	for _, d := range days {
		hs = append(hs, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return hs
}

var weekdays = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}

// fixtureStores are a few stores in New York and one in Los Angeles.
func fixtureStores() []*stores.Store {
	up := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id int64, name, city, state string, lat, lon float64, f func(s *stores.Store)) *stores.Store {
		s := &stores.Store{ID: id, StoreID: "st-" + name, Name: name, City: city, State: state, CountryCode: "US", CountryName: "United States",
			Address: "1 Main St", PostalCode: "10001", Latitude: lat, Longitude: lon, TimeZone: "America/New_York", UpdatedAt: up,
			WorkingHours: week("09:00", "21:00", weekdays...)}
		if f != nil {
			f(s)
		}
		return s
	}
	return []*stores.Store{
		mk(3613, "Manhattan Vape Shop", "New York", "NY", 40.7128, -74.0060, func(s *stores.Store) {
			s.PhoneNumber = "+1 (212) 555-0100"
			s.Image = "/photos/77/640.jpg" // an uploaded photo: its three slots are the srcset
			verified := time.Date(2026, 2, 20, 15, 0, 0, 0, time.UTC)
			s.VerifiedAt = &verified
			s.SpecialHours = []schedule.SpecialHour{
				{Date: "2026-03-05", Closed: true, Note: "Past"},
				{Date: "2026-03-12", Closed: true, Note: "Staff training"},
				{Date: "2026-03-14", Start: "10:00", End: "14:00", Note: "Parade"},
				{Date: "2026-03-14", Start: "20:00", End: "01:00"},
				{Date: "2026-04-30", Closed: true, Note: "Beyond two weeks"}, // shown (issue #39, m19)
				{Date: "2026-06-10", Closed: true, Note: "Too far ahead"},
			}
			s.Delivery, s.OrderOnline = true, true
			s.Services[schedule.Delivery] = schedule.ServiceHours{Hours: week("11:00", "20:00", weekdays...), LastOrder: 30}
			s.RatingSum, s.ReviewCount = 13, 3
			expires, url := "2026-12-31", "https://data.cityofnewyork.us/resource/w7w3-xahh.json?license_nbr=2091234"
			s.Licence = &stores.Licence{Status: "active", Jurisdiction: "New York City", Kind: "NYC Electronic Cigarette Retail Dealer",
				Number: "2091234", ExpiresOn: &expires, CheckedAt: "2026-03-01", RecordURL: &url}
			s.WorkingHours = append(s.WorkingHours, schedule.WorkingHour{WeekDay: time.Saturday, Start: "18:00", End: "02:00"},
				schedule.WorkingHour{WeekDay: time.Sunday, Start: "00:00", End: "00:00"})
		}),
		mk(2, "Café Zoë's <Best>", "New York", "NY", 40.7200, -74.0000, func(s *stores.Store) { s.Curbside = true; s.WorkingHours = nil }),
		mk(3, "Brooklyn Smoke", "Brooklyn", "NY", 40.6782, -73.9442, func(s *stores.Store) {
			s.TemporarilyClosed = &schedule.Closure{From: "2026-03-09", Until: "2026-03-20", Note: "Renovation"}
			until := "2026-03-30"
			s.Licence = &stores.Licence{Status: "revoked", Jurisdiction: "New York City", Kind: "NYC Tobacco Retail Dealer", Number: "2091300", CheckedAt: "2026-03-01"}
			s.Enforcement = []stores.Enforcement{{Kind: "no_tobacco_sale_order", DecidedOn: "2026-03-01", Until: &until},
				{Kind: "warning_letter", DecidedOn: "2025-03-02"}}
		}),
		mk(4, "Hoboken Vapes", "Hoboken", "NJ", 40.7440, -74.0324, nil),
		mk(5, "Sunset Vapor", "Los Angeles", "CA", 34.0522, -118.2437, func(s *stores.Store) { s.TimeZone = "America/Los_Angeles" }),
	}
}

func entry(t testing.TB, s *stores.Store) stores.Entry {
	t.Helper()
	doc, err := stores.RenderDoc(s)
	if err != nil {
		t.Fatal(err)
	}
	return stores.Entry{ID: s.ID, Latitude: s.Latitude, Longitude: s.Longitude, Delivery: s.Delivery, OrderOnline: s.OrderOnline,
		Curbside: s.Curbside, TimeZone: s.TimeZone, Schedule: stores.EncodeStoreSchedule(s), Doc: doc, UpdatedAt: s.UpdatedAt}
}

func newPages(t testing.TB, ss []*stores.Store) (*Pages, *search.Index) {
	ix := search.NewIndex()
	var es []stores.Entry
	for _, s := range ss {
		es = append(es, entry(t, s))
	}
	ix.PutAll(es)
	return New(ix, Options{PublicURL: "https://locator.example/", StorefrontURL: "https://shop.example", Log: quiet,
		Now:    func() time.Time { return fixedNow },
		Report: func(context.Context, *http.Request, int64, string, string) error { return nil }}), ix
}

// handler routes like httpapi does.
func (p *Pages) handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("/stores", p.Serve)
	m.HandleFunc("/stores/", p.Serve)
	m.HandleFunc("/products/", p.ServeProduct)
	m.HandleFunc("GET /sitemap.xml", p.SitemapIndex)
	m.HandleFunc("GET /sitemaps/", p.Sitemap)
	m.HandleFunc("GET /robots.txt", p.Robots)
	m.HandleFunc("GET /cards/", p.Card)
	return m
}

func get(t testing.TB, h http.Handler, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://locator.example/", nil)
	req.URL.Path, req.URL.RawQuery, _ = strings.Cut(target, "?")
	req.RequestURI = target
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestGoldenPages(t *testing.T) {
	t.Parallel()
	p, _ := newPages(t, fixtureStores())
	h := p.handler()
	for _, c := range []struct{ path, file string }{
		{"/stores/ny/new-york/manhattan-vape-shop-3613", "store.html.golden"},
		{"/stores/ny/new-york/cafe-zoes-best-2", "store-no-hours.html.golden"},
		{"/stores/ny/brooklyn/brooklyn-smoke-3", "store-closed.html.golden"},
		{"/stores/ny", "state.html.golden"},
		{"/stores/ny/new-york", "city.html.golden"},
		{"/stores", "states.html.golden"},
	} {
		rec := get(t, h, c.path)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.path, rec.Code, rec.Body)
		}
		if strings.Contains(rec.Body.String(), "ZgotmplZ") {
			t.Errorf("%s: html/template refused a value:\n%s", c.path, rec.Body)
		}
		golden.Compare(t, filepath.Join("testdata", c.file), rec.Body.Bytes())
	}
}

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

// TestStatesByName: /stores lists states by their names, as a reader looks
// them up (Idaho, Illinois, Iowa), not by their codes (IA before ID).
func TestStatesByName(t *testing.T) {
	t.Parallel()
	var ss []*stores.Store
	for i, st := range []string{"IA", "ID", "IL", "NY"} {
		s := fixtureStores()[1]
		s.ID, s.StoreID, s.State = int64(100+i), "st-"+st, st
		ss = append(ss, s)
	}
	p, _ := newPages(t, ss)
	body := get(t, p.handler(), "/stores").Body.String()
	at := func(name string) int {
		i := strings.Index(body, ">"+name+"</a>")
		if i < 0 {
			t.Fatalf("%s not listed:\n%s", name, body)
		}
		return i
	}
	order := []int{at("Idaho"), at("Illinois"), at("Iowa"), at("New York")}
	if !slices.IsSorted(order) {
		t.Errorf("states not in name order (Idaho, Illinois, Iowa, New York at %v):\n%s", order, body)
	}
}

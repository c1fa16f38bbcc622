package rules

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func ids(rs []*Rule) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, ",")
}

func TestEmbeddedBookLoadsAndEveryRowIsSourced(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, j := range b.Jurisdictions() {
		for _, r := range j.Rules {
			n++
			if r.Citation == "" || !strings.HasPrefix(r.URL, "https://") || r.CheckedOn == "" {
				t.Errorf("%s: row without its source: %+v", j.ID, r)
			}
		}
	}
	if n < 7 {
		t.Errorf("the book has %d rows, want the 7 documented in docs/rules.md", n)
	}
}

const fixtureRule = `{"id":"x-1","product":"flavoured_e_cigarettes","channels":["in_store"],"summary":"s",
	"effective_from":"2020-01-01","citation":"C 1","url":"https://example.gov/c1","checked_on":"2026-11-27"%s}`

func fixture(rule string) fstest.MapFS {
	return fstest.MapFS{"x.json": {Data: []byte(`{"id":"x","name":"X","level":"state","area":{"country":"US","state":"MA"},"rules":[` + rule + `]}`)}}
}

func TestRowWithoutSourceIsRefused(t *testing.T) {
	if _, err := LoadFS(fixture(strings.Replace(fixtureRule, "%s", "", 1))); err != nil {
		t.Fatalf("a complete row is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"no citation":   strings.Replace(strings.Replace(fixtureRule, `"C 1"`, `""`, 1), "%s", "", 1),
		"no url":        strings.Replace(strings.Replace(fixtureRule, `"https://example.gov/c1"`, `""`, 1), "%s", "", 1),
		"http url":      strings.Replace(strings.Replace(fixtureRule, `https://example.gov/c1`, `http://example.gov/c1`, 1), "%s", "", 1),
		"no check date": strings.Replace(strings.Replace(fixtureRule, `"2026-11-27"`, `""`, 1), "%s", "", 1),
		"bad date":      strings.Replace(strings.Replace(fixtureRule, `"2020-01-01"`, `"2020-13-01"`, 1), "%s", "", 1),
		"unknown field": strings.Replace(fixtureRule, "%s", `,"note":"x"`, 1),
		"bad channel":   strings.Replace(strings.Replace(fixtureRule, `"in_store"`, `"mail"`, 1), "%s", "", 1),
	} {
		if _, err := LoadFS(fixture(bad)); err == nil {
			t.Errorf("%s: the row was accepted", name)
		}
	}
}

var (
	boston   = Place{Country: "US", State: "MA", City: "Boston", ZIP: "02108"}
	brooklyn = Place{Country: "US", State: "NY", City: "Brooklyn", ZIP: "11211"}
	buffalo  = Place{Country: "US", State: "NY", City: "Buffalo", ZIP: "14202"}
	yonkers  = Place{Country: "US", State: "NY", City: "Yonkers", ZIP: "10701"}
	austin   = Place{Country: "US", State: "Texas", City: "Austin", ZIP: "78701"}
	sf       = Place{Country: "US", State: "California", City: "San Francisco", ZIP: "94103"}
	noZIPNYC = Place{Country: "US", State: "NY", City: "Staten Island"}
	munich   = Place{Country: "DE", State: "02", City: "Munich"}
)

func TestRulesByPlace(t *testing.T) {
	b := MustLoad()
	today := 20261127
	for _, c := range []struct {
		p    Place
		want string
	}{
		{boston, "us-tobacco-21,ma-flavoured-vapes,ma-flavoured-tobacco"},
		{brooklyn, "us-tobacco-21,ny-flavoured-vapes,ny-no-shipping,nyc-flavoured-e-cigarettes"},
		{noZIPNYC, "us-tobacco-21,ny-flavoured-vapes,ny-no-shipping,nyc-flavoured-e-cigarettes"},
		{buffalo, "us-tobacco-21,ny-flavoured-vapes,ny-no-shipping"},
		{yonkers, "us-tobacco-21,ny-flavoured-vapes,ny-no-shipping"},
		{austin, "us-tobacco-21"},
		{sf, "us-tobacco-21,ca-flavoured-tobacco"},
		{munich, ""},
	} {
		if got := ids(b.At(c.p, false, today)); got != c.want {
			t.Errorf("%s: %s, want %s", c.p.City, got, c.want)
		}
	}
	if got := MinAge(b.At(austin, false, today)); got != 21 {
		t.Errorf("min age in Austin %d, want 21", got)
	}
	if got := MinAge(b.At(munich, false, today)); got != DefaultMinAge {
		t.Errorf("min age in Munich %d, want the default", got)
	}
	if ShippingBan(b.At(brooklyn, false, today)) == nil || ShippingBan(b.At(boston, false, today)) != nil {
		t.Error("shipping: banned in New York only")
	}
}

func TestRulesByDate(t *testing.T) {
	b := MustLoad()
	// California's flavour law took effect on 21 December 2022.
	if got := ids(b.At(sf, false, 20221220)); got != "us-tobacco-21" {
		t.Errorf("the day before: %s", got)
	}
	if got := ids(b.At(sf, false, 20221221)); got != "us-tobacco-21,ca-flavoured-tobacco" {
		t.Errorf("the day it starts: %s", got)
	}
	// A rule that starts tomorrow does not apply today; one that ended
	// yesterday no longer applies.
	today := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tomorrow := today.AddDate(0, 0, 1).Format(time.DateOnly)
	yesterday := today.AddDate(0, 0, -1).Format(time.DateOnly)
	fx, err := LoadFS(fixture(strings.Replace(strings.Replace(fixtureRule, `"2020-01-01"`, `"`+tomorrow+`"`, 1), "%s", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(fx.At(boston, false, DayOf(today))); got != "" {
		t.Errorf("a rule starting tomorrow applies today: %s", got)
	}
	if got := ids(fx.At(boston, false, DayOf(today.AddDate(0, 0, 1)))); got != "x-1" {
		t.Errorf("tomorrow: %q", got)
	}
	fx, err = LoadFS(fixture(strings.Replace(fixtureRule, "%s", `,"effective_until":"`+yesterday+`"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(fx.At(boston, false, DayOf(today))); got != "" {
		t.Errorf("a rule that ended yesterday applies today: %s", got)
	}
}

func TestRulesByStoreKind(t *testing.T) {
	fx, err := LoadFS(fixture(strings.Replace(fixtureRule, "%s", `,"exempt":["adult_only"]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(fx.At(boston, false, 20261127)); got != "x-1" {
		t.Errorf("a store open to all: %q", got)
	}
	if got := ids(fx.At(boston, true, 20261127)); got != "" {
		t.Errorf("an adult-only store is exempt: %q", got)
	}
	s, a := fx.Set(boston, false), fx.Set(boston, true)
	if s == a || fx.Set(Place{Country: "US", State: "MA", City: "Worcester", ZIP: "01608"}, false) != s {
		t.Error("sets are interned per jurisdictions and kind")
	}
	if got := string(s.AppendJSON(nil, 20261127)); got != `[{"id":"x-1","summary":"s","citation":"C 1","url":"https://example.gov/c1","checked_on":"2026-11-27"}]` {
		t.Errorf("store JSON %s", got)
	}
	if got := string(a.AppendJSON(nil, 20261127)); got != `[]` {
		t.Errorf("adult-only store JSON %s", got)
	}
}

func TestStoreSetsLeaveOutAgeAndShipping(t *testing.T) {
	b := MustLoad()
	if got := ids(b.Set(brooklyn, false).Rules(20261127)); got != "ny-flavoured-vapes,nyc-flavoured-e-cigarettes" {
		t.Errorf("a Brooklyn store shows %s", got)
	}
	if got := string(b.Set(austin, false).AppendJSON(nil, 20261127)); got != "[]" {
		t.Errorf("an Austin store shows %s", got)
	}
}

func TestPlaceAt(t *testing.T) {
	var l Locator
	for _, c := range []struct {
		lat, lon float64
		state    string
		nyc      bool
	}{
		{42.3601, -71.0589, "MA", false}, // Boston
		{40.7128, -74.0060, "NY", true},  // Lower Manhattan
		{40.6782, -73.9442, "NY", true},  // Brooklyn
		{40.7178, -74.0431, "NJ", false}, // Jersey City
		{42.8864, -78.8784, "NY", false}, // Buffalo
	} {
		p, ok := l.PlaceAt(c.lat, c.lon)
		if !ok || p.State != c.state {
			t.Errorf("%v,%v: %+v %v, want %s", c.lat, c.lon, p, ok, c.state)
			continue
		}
		nyc := strings.Contains(ids(MustLoad().At(p, false, 20261127)), "nyc-")
		if nyc != c.nyc {
			t.Errorf("%v,%v (%+v): in New York City %v, want %v", c.lat, c.lon, p, nyc, c.nyc)
		}
	}
	if _, ok := l.PlaceAt(48.137, 11.575); ok {
		t.Error("Munich is in a US ZIP code")
	}
	if tz := l.TimeZone(42.3601, -71.0589); tz != "America/New_York" {
		t.Errorf("Boston's zone %s", tz)
	}
}

func BenchmarkPlaceAndZone(b *testing.B) {
	var l Locator
	l.PlaceAt(0, 0)
	for b.Loop() {
		l.PlaceAt(42.3601, -71.0589)
		l.TimeZone(42.3601, -71.0589)
	}
}

// The grid finds what a scan of every ZIP code and place finds.
func TestLocatorMatchesAScan(t *testing.T) {
	var l Locator
	l.load()
	scan := func(n int, at func(i int) (float64, float64), lat, lon float64) int {
		k, best, bestD := math.Cos(lat*math.Pi/180), -1, math.Inf(1)
		for i := range n {
			plat, plon := at(i)
			if dy, dx := plat-lat, (plon-lon)*k; dy*dy+dx*dx < bestD {
				best, bestD = i, dy*dy+dx*dx
			}
		}
		return best
	}
	rng := rand.New(rand.NewPCG(28, 28))
	for range 300 {
		lat, lon := 25+rng.Float64()*24, -125+rng.Float64()*58
		z := scan(len(l.zips), func(i int) (float64, float64) {
			if l.zips[i].State == "" {
				return 1e9, 1e9
			}
			return l.zips[i].Lat, l.zips[i].Lon
		}, lat, lon)
		if p, ok := l.PlaceAt(lat, lon); ok && p.ZIP != l.zips[z].Code {
			t.Errorf("%v,%v: ZIP %s, a scan finds %s", lat, lon, p.ZIP, l.zips[z].Code)
		}
		pl := scan(len(l.places), func(i int) (float64, float64) {
			if l.places[i].TimeZone == "" {
				return 1e9, 1e9
			}
			return l.places[i].Lat, l.places[i].Lon
		}, lat, lon)
		if got := l.TimeZone(lat, lon); got != l.places[pl].TimeZone {
			t.Errorf("%v,%v: zone %s, a scan finds %s", lat, lon, got, l.places[pl].TimeZone)
		}
	}
}

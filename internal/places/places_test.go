package places

import (
	"bytes"
	"compress/gzip"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"locator/internal/golden"
)

func mustLoad(t testing.TB) *Gazetteer {
	t.Helper()
	g, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sharedTZ builds the finder once for the whole test binary: it takes about
// a second.
var sharedTZ = sync.OnceValues(NewTimeZones)

func mustTZ(t testing.TB) *TimeZones {
	t.Helper()
	tz, err := sharedTZ()
	if err != nil {
		t.Fatal(err)
	}
	return tz
}

// near reports whether two points are within tol degrees on both axes.
func near(lat, lon, wantLat, wantLon, tol float64) bool {
	return math.Abs(lat-wantLat) <= tol && math.Abs(lon-wantLon) <= tol
}

func TestLoadIsShared(t *testing.T) {
	a, b := mustLoad(t), mustLoad(t)
	if a != b {
		t.Fatal("Load returned two different gazetteers")
	}
	if n := len(a.Places()); n < 190_000 {
		t.Errorf("%d places, want about 200k", n)
	}
	if n := len(a.ZIPs()); n < 40_000 {
		t.Errorf("%d ZIPs, want about 41k", n)
	}
}

func TestNewYorkCity(t *testing.T) {
	g := mustLoad(t)
	var nyc *Place
	for i, p := range g.Places() {
		if p.Name == "New York City" && p.Country == "US" {
			nyc = &g.Places()[i]
			break
		}
	}
	if nyc == nil {
		t.Fatal("New York City not in Places()")
	}
	if nyc.Population <= 8_000_000 || nyc.Admin1 != "NY" || nyc.TimeZone != "America/New_York" ||
		!near(nyc.Lat, nyc.Lon, 40.71, -74.01, 0.02) {
		t.Errorf("New York City = %+v", *nyc)
	}
	if !slices.Contains(nyc.AltNames, "NYC") {
		t.Errorf("NYC not among alternate names %q", nyc.AltNames)
	}
	for _, name := range []string{"new york city", "NYC", "Nueva York", "new-york city"} {
		p, ok := g.FindCity(name, "NY", "US")
		if !ok || p.Name != "New York City" {
			t.Errorf("FindCity(%q, NY, US) = %v %v, want New York City", name, p.Name, ok)
		}
	}
}

func TestAltNamesAreLatinAndDistinct(t *testing.T) {
	g := mustLoad(t)
	for _, p := range g.Places() {
		seen := map[string]bool{Fold(p.Name): true, Fold(p.ASCIIName): true}
		for _, a := range p.AltNames {
			k := Fold(a)
			if seen[k] {
				t.Fatalf("%s: alternate %q repeats another name", p.Name, a)
			}
			seen[k] = true
			for _, r := range a {
				if r >= 0x80 && r != '’' && !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Mn, r) {
					t.Fatalf("%s: alternate %q is not Latin script", p.Name, a)
				}
			}
		}
	}
}

func TestZIP(t *testing.T) {
	g := mustLoad(t)
	for _, code := range []string{"10001", " 10001 ", "10001-1234", "100011234"} {
		z, ok := g.ZIP(code)
		if !ok || z.Code != "10001" || z.Place != "New York" || z.State != "NY" || !near(z.Lat, z.Lon, 40.75, -73.99, 0.02) {
			t.Errorf("ZIP(%q) = %+v, %v", code, z, ok)
		}
	}
	for _, code := range []string{"", "1000", "00000", "10001-12", "abcde", "10001x"} {
		if z, ok := g.ZIP(code); ok {
			t.Errorf("ZIP(%q) = %+v, want not found", code, z)
		}
	}
	// Duplicated in the source with a military row; the civilian row wins.
	if z, ok := g.ZIP("96860"); !ok || z.State != "HI" {
		t.Errorf("ZIP(96860) = %+v, %v", z, ok)
	}
}

func TestAdmin1Name(t *testing.T) {
	g := mustLoad(t)
	for _, c := range []struct{ country, code, want string }{
		{"US", "TX", "Texas"},
		{"us", "ny", "New York"},
		{"DE", "02", "Bavaria"},
		{"US", "ZZ", ""},
	} {
		if got := g.Admin1Name(c.country, c.code); got != c.want {
			t.Errorf("Admin1Name(%q, %q) = %q, want %q", c.country, c.code, got, c.want)
		}
	}
}

func TestFindCity(t *testing.T) {
	g := mustLoad(t)
	for _, c := range []struct {
		name, state, country string
		wantName, wantAdmin1 string
		lat, lon             float64
	}{
		{"austin", "TX", "US", "Austin", "TX", 30.27, -97.74},
		{"Austin", "texas", "", "Austin", "TX", 30.27, -97.74},
		{"AUSTIN", "", "USA", "Austin", "TX", 30.27, -97.74},
		{"Munchen", "", "DE", "Munich", "02", 48.14, 11.58},
		{"München", "", "DE", "Munich", "02", 48.14, 11.58},
		{"munich", "Bavaria", "de", "Munich", "02", 48.14, 11.58},
		{"Munich", "Bayern", "DE", "Munich", "02", 48.14, 11.58}, // unknown region name ignored outside the US
		{"Brooklyn", "NY", "US", "Brooklyn", "NY", 40.65, -73.95},
		{"Brooklyn", "OH", "US", "Brooklyn", "OH", 41.44, -81.74},
		{"Saint Louis", "MO", "US", "St. Louis", "MO", 38.63, -90.20},
		{"Portland", "", "US", "Portland", "OR", 45.52, -122.68}, // most populous
		{"Portland", "Maine", "US", "Portland", "ME", 43.66, -70.26},
	} {
		p, ok := g.FindCity(c.name, c.state, c.country)
		if !ok || p.Name != c.wantName || p.Admin1 != c.wantAdmin1 || !near(p.Lat, p.Lon, c.lat, c.lon, 0.05) {
			t.Errorf("FindCity(%q, %q, %q) = %s/%s %.4f,%.4f %v; want %s/%s near %.2f,%.2f",
				c.name, c.state, c.country, p.Name, p.Admin1, p.Lat, p.Lon, ok, c.wantName, c.wantAdmin1, c.lat, c.lon)
		}
	}
	for _, c := range [][3]string{
		{"Austin", "Narnia", "US"}, // unknown US state fails rather than guessing
		{"Nowhereville", "", "US"},
		{"", "TX", "US"},
		{"Austin", "TX", "DE"},
	} {
		if p, ok := g.FindCity(c[0], c[1], c[2]); ok {
			t.Errorf("FindCity(%q, %q, %q) = %+v, want not found", c[0], c[1], c[2], p)
		}
	}
}

func TestGeocode(t *testing.T) {
	g := mustLoad(t)
	for _, c := range []struct {
		postal, city, state, country string
		precision                    string
		lat, lon                     float64
	}{
		{"", "Brooklyn", "NY", "US", PrecisionCity, 40.65, -73.95},
		{"73301", "", "", "", PrecisionPostalCode, 30.33, -97.77},
		{"10001-0001", "Austin", "TX", "US", PrecisionPostalCode, 40.75, -73.99}, // ZIP wins
		{"99999", "Austin", "TX", "US", PrecisionCity, 30.27, -97.74},            // unknown ZIP falls back
		{"80331", "München", "", "DE", PrecisionCity, 48.14, 11.58},              // no German postal data
	} {
		lat, lon, prec, ok := g.Geocode(c.postal, c.city, c.state, c.country)
		if !ok || prec != c.precision || !near(lat, lon, c.lat, c.lon, 0.05) {
			t.Errorf("Geocode(%q, %q, %q, %q) = %.4f,%.4f %q %v; want %q near %.2f,%.2f",
				c.postal, c.city, c.state, c.country, lat, lon, prec, ok, c.precision, c.lat, c.lon)
		}
	}
	if _, _, _, ok := g.Geocode("", "", "", ""); ok {
		t.Error("Geocode of nothing succeeded")
	}
	if _, _, _, ok := g.Geocode("00000", "Nowhereville", "TX", "US"); ok {
		t.Error("Geocode of an unknown place succeeded")
	}
}

func TestUSCities(t *testing.T) {
	g := mustLoad(t)
	cities := g.USCities(100_000)
	if len(cities) <= 250 {
		t.Fatalf("USCities(100000) has %d places, want > 250", len(cities))
	}
	if cities[0].Name != "New York City" {
		t.Errorf("first city %q, want New York City", cities[0].Name)
	}
	for i, p := range cities {
		if p.Country != "US" || p.Population < 100_000 || p.Feature == "PPLX" {
			t.Errorf("USCities includes %+v", p)
		}
		if i > 0 {
			q := cities[i-1]
			if q.Population < p.Population || (q.Population == p.Population && q.Name > p.Name) {
				t.Errorf("not sorted at %d: %s (%d) before %s (%d)", i, q.Name, q.Population, p.Name, p.Population)
			}
		}
	}
	if again := g.USCities(100_000); !slices.EqualFunc(cities, again, func(a, b Place) bool {
		return a.Name == b.Name && a.Admin1 == b.Admin1 && a.Lat == b.Lat
	}) {
		t.Error("USCities is not deterministic")
	}
}

func TestZoneAt(t *testing.T) {
	tz := mustTZ(t)
	for _, c := range []struct {
		name     string
		lat, lon float64
		want     string
	}{
		{"New York", 40.71427, -74.00597, "America/New_York"},
		{"Los Angeles", 34.05223, -118.24368, "America/Los_Angeles"},
		{"Phoenix", 33.44838, -112.07404, "America/Phoenix"},
		{"Honolulu", 21.30694, -157.85833, "Pacific/Honolulu"},
		{"London", 51.50853, -0.12574, "Europe/London"},
		{"Austin", 30.26715, -97.74306, "America/Chicago"},
		{"bad latitude", 95, 0, "UTC"},
		{"NaN", math.NaN(), 0, "UTC"},
	} {
		got := tz.ZoneAt(c.lat, c.lon)
		if got != c.want {
			t.Errorf("ZoneAt(%s) = %q, want %q", c.name, got, c.want)
		}
		if _, err := time.LoadLocation(got); err != nil {
			t.Errorf("ZoneAt(%s) = %q, which does not load: %v", c.name, got, err)
		}
	}
	// Mid-ocean points still get a loadable zone.
	for _, pt := range [][2]float64{{0, -30}, {-60, 100}, {35, -40}} {
		got := tz.ZoneAt(pt[0], pt[1])
		if _, err := time.LoadLocation(got); err != nil || got == "" {
			t.Errorf("ZoneAt(%v) = %q: %v", pt, got, err)
		}
	}
}

// TestConcurrentUse is meant for -race: the shared gazetteer, its lazily built
// name index and the time zone finder are used from many goroutines at once.
func TestConcurrentUse(t *testing.T) {
	g, tz := mustLoad(t), mustTZ(t)
	fresh, err := LoadFrom(bytes.NewReader(geodata)) // its index is not built yet
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				if p, ok := fresh.FindCity("Austin", "TX", ""); !ok || p.Admin1 != "TX" {
					t.Errorf("FindCity = %+v, %v", p, ok)
				}
				if _, _, _, ok := g.Geocode("10001", "", "", ""); !ok {
					t.Error("Geocode failed")
				}
				lat, lon := 25+float64(i), -120+float64(j)
				if z := tz.ZoneAt(lat, lon); z == "" {
					t.Errorf("ZoneAt(%v, %v) is empty", lat, lon)
				}
			}
		})
	}
	wg.Wait()
}

func gz(t testing.TB, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLoadFrom(t *testing.T) {
	const text = "geodata 1\n#tz\t1\nEurope/Berlin\n#admin1\t1\nDE\t02\tBavaria\n" +
		"#places\t2\nMünchen\tMunchen\tMunich,MUC\tDE\t02\t48.13743\t11.57549\tPPLA\t1260391\t0\n" +
		"Dorf\t\t\tDE\t02\t48.1\t11.1\tPPL\t0\t0\n" +
		"#zips\t1\n10001\tNew York\tNY\t40.7484\t-73.9967\n"
	g, err := LoadFrom(bytes.NewReader(gz(t, text)))
	if err != nil {
		t.Fatal(err)
	}
	want := Place{Name: "München", ASCIIName: "Munchen", AltNames: []string{"Munich", "MUC"}, Country: "DE", Admin1: "02",
		Lat: 48.13743, Lon: 11.57549, Feature: "PPLA", Population: 1260391, TimeZone: "Europe/Berlin"}
	if got := g.Places()[0]; got.Name != want.Name || got.ASCIIName != want.ASCIIName || !slices.Equal(got.AltNames, want.AltNames) ||
		got.Lat != want.Lat || got.Lon != want.Lon || got.Population != want.Population || got.TimeZone != want.TimeZone {
		t.Errorf("place = %+v, want %+v", got, want)
	}
	if got := g.Places()[1]; got.ASCIIName != "Dorf" || got.AltNames != nil {
		t.Errorf("place = %+v", got)
	}
	// Appending to one place's names must not clobber another's.
	_ = append(g.Places()[0].AltNames, "X")
	if p, ok := g.FindCity("muc", "", "DE"); !ok || p.Name != "München" {
		t.Errorf("FindCity(muc) = %+v, %v", p, ok)
	}
	if p, ok := g.FindCity("Dorf", "Bavaria", "DE"); !ok || p.Name != "Dorf" {
		t.Errorf("FindCity(Dorf) = %+v, %v", p, ok)
	}
	if z, ok := g.ZIP("10001"); !ok || z.Place != "New York" {
		t.Errorf("ZIP = %+v, %v", z, ok)
	}

	for name, bad := range map[string]string{
		"version":    strings.Replace(text, "geodata 1", "geodata 9", 1),
		"count":      strings.Replace(text, "#places\t2", "#places\t3", 1),
		"fields":     strings.Replace(text, "\tPPL\t0\t0", "\tPPL\t0", 1),
		"zone":       strings.Replace(text, "PPL\t0\t0", "PPL\t0\t7", 1),
		"coordinate": strings.Replace(text, "48.1\t", "north\t", 1),
		"trailing":   text + "extra\n",
	} {
		if _, err := LoadFrom(bytes.NewReader(gz(t, bad))); err == nil {
			t.Errorf("%s: LoadFrom accepted a broken file", name)
		}
	}
	if _, err := LoadFrom(strings.NewReader("not gzip")); err == nil {
		t.Error("LoadFrom accepted non-gzip input")
	}
}

func TestFold(t *testing.T) {
	golden.Cases(t, "Fold", Fold, map[string]string{
		"München":        "munchen",
		"ZÜRICH":         "zurich",
		"St. John's":     "st johns",
		"Winston–Salem":  "winston salem", // en dash
		"Winston-Salem":  "winston salem",
		"  New   York  ": "new york",
		"Łódź":           "lodz",
		"Straße":         "strasse",
		"São Paulo":      "sao paulo",
	})
}

// TestEmbeddedDataUpToDate regenerates the embedded file from the pinned npm
// packages and requires the same bytes, so a change to the generator or to
// package.json cannot go out without the file that matches it.
func TestEmbeddedDataUpToDate(t *testing.T) {
	got := golden.Regenerated(t, "geodata", "geodata.bin.gz")
	if !bytes.Equal(got, geodata) {
		t.Fatalf("internal/places/geodata.bin.gz is stale (%d bytes, regenerated %d): run `go run ./tools/geodata` and commit the result",
			len(geodata), len(got))
	}
}

// heapAfter reports how many bytes of live heap fn leaves behind.
func heapAfter(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - before.HeapAlloc
}

func BenchmarkLoad(b *testing.B) {
	var g *Gazetteer
	var heap uint64
	for b.Loop() {
		g = nil
		heap = heapAfter(func() {
			var err error
			if g, err = decode(bytes.NewReader(geodata), gzipSize(geodata)); err != nil {
				b.Fatal(err)
			}
		})
	}
	runtime.KeepAlive(g)
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
}

func BenchmarkNameIndex(b *testing.B) {
	g, err := LoadFrom(bytes.NewReader(geodata))
	if err != nil {
		b.Fatal(err)
	}
	var heap uint64
	for b.Loop() {
		g.indexOnce = sync.Once{}
		g.index = nil
		heap = heapAfter(g.BuildIndex)
	}
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
}

func BenchmarkNewTimeZones(b *testing.B) {
	var tz *TimeZones
	var heap uint64
	for b.Loop() {
		tz = nil
		heap = heapAfter(func() {
			var err error
			if tz, err = buildTimeZones(); err != nil {
				b.Fatal(err)
			}
		})
	}
	runtime.KeepAlive(tz)
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
}

func BenchmarkZoneAt(b *testing.B) {
	tz := mustTZ(b)
	for b.Loop() {
		tz.ZoneAt(40.71427, -74.00597)
	}
}

func BenchmarkFindCity(b *testing.B) {
	g := mustLoad(b)
	g.FindCity("Austin", "TX", "US")
	for b.Loop() {
		g.FindCity("Austin", "TX", "US")
	}
}

func TestMapPlaces(t *testing.T) {
	g := mustLoad(t)
	got := map[string]MapPlace{}
	for _, p := range g.MapPlaces() {
		if p.Lat > 40.5 && p.Lat < 41 && p.Lon > -74.3 && p.Lon < -73.7 {
			if old, ok := got[p.Name]; !ok || p.Population > old.Population {
				got[p.Name] = p
			}
		}
	}
	for name, kind := range map[string]string{
		"New York City": KindCity, "Brooklyn": KindCity, "Jersey City": KindCity,
		"Williamsburg": KindNeighbourhood, "Astoria": KindCity, "Hoboken": KindTown,
	} {
		p, ok := got[name]
		if !ok {
			t.Errorf("%s: not among the map places", name)
			continue
		}
		if p.Kind != kind {
			t.Errorf("%s: kind %q, want %q", name, p.Kind, kind)
		}
	}
	if p := got["Brooklyn"]; p.Population < 2_000_000 {
		t.Errorf("Brooklyn's population %d", p.Population)
	}
	for _, p := range g.MapPlaces() {
		if p.Kind == "" || p.Name == "" {
			t.Fatalf("place without kind or name: %+v", p)
		}
	}
}

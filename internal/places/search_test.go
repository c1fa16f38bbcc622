package places

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"locator/internal/golden"
	"locator/internal/places/placestest"
)

// TestSearch covers every class of query the search box understands, with
// the real answer expected first.
func TestSearch(t *testing.T) {
	g := mustLoad(t)
	for _, c := range placestest.Queries {
		res := g.Search(c.Q, 10)
		if len(res) == 0 {
			t.Errorf("%s: Search(%q) found nothing", c.Class, c.Q)
			continue
		}
		if r := res[0]; r.DisplayName != c.Want || !near(r.Lat, r.Lon, c.Lat, c.Lon, 0.5) {
			t.Errorf("%s: Search(%q)[0] = %q %.3f,%.3f; want %q near %.2f,%.2f", c.Class, c.Q, r.DisplayName, r.Lat, r.Lon, c.Want, c.Lat, c.Lon)
		}
		if len(res) > 10 {
			t.Errorf("Search(%q): %d results", c.Q, len(res))
		}
		seen := map[string]bool{}
		for _, r := range res {
			if seen[r.DisplayName] {
				t.Errorf("Search(%q): %q twice", c.Q, r.DisplayName)
			}
			seen[r.DisplayName] = true
		}
	}
	// Precise coordinates for the example of the issue.
	if r := g.Search("brooklyn", 10)[0]; !near(r.Lat, r.Lon, 40.65, -73.95, 0.01) || r.Kind != KindCity {
		t.Errorf("brooklyn = %+v", r)
	}
	if r := g.Search("Williamsburg", 10)[0]; r.Kind != KindNeighbourhood {
		t.Errorf("Williamsburg kind %q", r.Kind)
	}
	zips := g.Search("100", 10)
	if len(zips) != 10 {
		t.Fatalf("ZIP prefix: %d results", len(zips))
	}
	for i, r := range zips {
		if !strings.HasPrefix(r.DisplayName, "100") || r.Kind != KindPostalCode || (i > 0 && r.DisplayName < zips[i-1].DisplayName) {
			t.Errorf("ZIP prefix result %d: %q", i, r.DisplayName)
		}
	}
	for _, r := range g.Search("springfield", 10) {
		if !strings.HasSuffix(r.DisplayName, "United States") {
			t.Errorf("springfield: %q ranks among US towns", r.DisplayName)
		}
	}
}

func TestSearchNothing(t *testing.T) {
	g := mustLoad(t)
	for _, q := range []string{"", "   ", ",,,", "!!!", "asdfghjkl", "qqqqqqqqqqqqqqq", "99999", "1", "12", "123456", "000",
		strings.Repeat("a", 201), strings.Repeat("new york ", 30)} {
		if res := g.Search(q, 10); len(res) != 0 {
			t.Errorf("Search(%q) = %d results (first %q), want none", q, len(res), res[0].DisplayName)
		}
	}
	if res := g.Search("austin", 0); len(res) != 0 {
		t.Errorf("limit 0: %d results", len(res))
	}
	if res := g.Search("a", 3); len(res) != 3 {
		t.Errorf("limit 3: %d results", len(res))
	}
}

func TestFindCityAbbreviations(t *testing.T) {
	g := mustLoad(t)
	for _, name := range []string{"Ft Worth", "Ft. Worth", "fort worth"} {
		if p, ok := g.FindCity(name, "TX", "US"); !ok || p.Name != "Fort Worth" {
			t.Errorf("FindCity(%q, TX) = %q %v", name, p.Name, ok)
		}
	}
}

func TestAppendFoldMatchesFold(t *testing.T) {
	g := mustLoad(t)
	check := func(s string) {
		if got, want := string(appendFold(nil, s)), Fold(s); got != want {
			t.Fatalf("appendFold(%q) = %q, Fold = %q", s, got, want)
		}
	}
	for _, s := range []string{"", " -a- ", "St. John's", "A\tB", "x\x01y", "  New   York  ", "O'Fallon"} {
		check(s)
	}
	for _, p := range g.Places() {
		check(p.Name)
		check(p.ASCIIName)
		for _, a := range p.AltNames {
			check(a)
		}
	}
}

func TestCanonical(t *testing.T) {
	golden.Cases(t, "canonical", canonical, map[string]string{
		"saint louis": "st louis", "fort worth": "ft worth", "mount vernon": "mt vernon", "sainte genevieve": "ste genevieve",
		"fortaleza": "fortaleza", "port saint lucie": "port st lucie", "st louis": "st louis",
	})
}

// mixedQueries is the query set of the benchmark and the latency harness:
// whole and partly typed names, with states, ZIPs, abbreviations, accents,
// addresses and misses, weighted towards what people type.
var mixedQueries = []string{
	"brooklyn", "Austin, TX", "austin tx", "Williamsburg", "10001", "100", "NYC", "St. Louis", "Saint Louis",
	"Ft Worth", "Munchen", "München", "b", "br", "bro", "broo", "brook", "brookl", "s", "sa", "san", "san f",
	"san fran", "los angeles", "chicago", "houston tx", "phoenix", "philadelphia", "san antonio", "san diego",
	"dallas", "jacksonville fl", "portland me", "portland, oregon", "seattle", "denver", "boston ma", "miami",
	"atlanta ga", "new york", "new orleans la", "las vegas", "texas", "california", "94103", "9410", "606",
	"paris", "london", "munich germany", "springfield", "columbus oh", "kansas city", "harlem", "soho",
	"350 5th Ave, New York, NY 10118", "123 Main St, Austin, TX", "asdfghjkl", "zzzz", "s tx", "a ca",
}

func BenchmarkSearch(b *testing.B) {
	g := mustLoad(b)
	g.BuildIndex()
	i := 0
	for b.Loop() {
		g.Search(mixedQueries[i%len(mixedQueries)], 10)
		i++
	}
}

// BenchmarkSearchLatency is the in-process latency harness: p50, p90, p99
// and max per query over the mixed set, as wall time and as the CPU time of
// the thread, which other processes on a busy machine do not inflate
// (go test -run XXX -bench SearchLatency ./internal/places/).
func BenchmarkSearchLatency(b *testing.B) {
	g := mustLoad(b)
	g.BuildIndex()
	for _, q := range mixedQueries { // warm up, and let the collector finish with the build's garbage
		g.Search(q, 10)
	}
	runtime.GC()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	i := 0
	for b.Loop() {
		c0, t0 := threadCPU(), time.Now()
		g.Search(mixedQueries[i%len(mixedQueries)], 10)
		wall = append(wall, time.Since(t0))
		cpu = append(cpu, threadCPU()-c0)
		i++
	}
	report := func(name string, d []time.Duration) {
		slices.Sort(d)
		p := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))]) / 1e3 }
		b.ReportMetric(p(0.5), "p50-"+name+"-us")
		b.ReportMetric(p(0.9), "p90-"+name+"-us")
		b.ReportMetric(p(0.99), "p99-"+name+"-us")
		b.ReportMetric(p(1), "max-"+name+"-us")
	}
	report("wall", wall)
	report("cpu", cpu)
}

// threadCPU is the CPU time of the calling OS thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// --- upstream geocoder ---

type fakeUpstream struct {
	hits  atomic.Int32
	delay time.Duration
	fail  bool
	photo bool
	last  atomic.Value // the last query string
}

func (f *fakeUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.hits.Add(1)
	f.last.Store(r.URL.RawQuery)
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	if f.fail {
		http.Error(w, "boom", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if f.photo {
		fmt.Fprint(w, `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-73.98566,40.74844]},
			"properties":{"name":"Empire State Building","housenumber":"350","street":"5th Avenue","city":"New York","state":"New York","country":"United States"}}]}`)
		return
	}
	fmt.Fprint(w, `[{"lat":"40.7484405","lon":"-73.9856644","display_name":"Empire State Building, 350, 5th Avenue, Manhattan, New York, 10118, United States"}]`)
}

func newFake(t *testing.T, f *fakeUpstream, path string, o UpstreamOptions) *Upstream {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	o.URL = srv.URL + path
	u, err := NewUpstream(o)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestUpstreamNominatimAndCache(t *testing.T) {
	f := &fakeUpstream{}
	u := newFake(t, f, "/search", UpstreamOptions{})
	if u.Kind() != KindNominatim {
		t.Fatalf("kind %q", u.Kind())
	}
	s := &Service{Gazetteer: mustLoad(t), Upstream: u}
	for range 3 {
		res := s.Search(context.Background(), "350 5th Ave, New York", 10)
		if len(res) != 1 || !strings.HasPrefix(res[0].DisplayName, "Empire State Building") || !near(res[0].Lat, res[0].Lon, 40.748, -73.986, 0.001) {
			t.Fatalf("upstream answer %+v", res)
		}
	}
	if n := f.hits.Load(); n != 1 {
		t.Errorf("%d upstream requests for one query asked 3 times, want 1 (cached)", n)
	}
	if q, _ := f.last.Load().(string); !strings.Contains(q, "format=jsonv2") || !strings.Contains(q, "q=350+5th+Ave") {
		t.Errorf("query string %q", q)
	}
	// Place names never go upstream.
	if res := s.Search(context.Background(), "brooklyn", 10); res[0].DisplayName != "Brooklyn, New York, United States" || f.hits.Load() != 1 {
		t.Errorf("brooklyn: %q, %d upstream requests", res[0].DisplayName, f.hits.Load())
	}
	// Gazetteer answers are cached by the service; upstream ones by the upstream.
	if again := s.Search(context.Background(), " Brooklyn ", 10); again[0].DisplayName != "Brooklyn, New York, United States" || s.cache.len() != 1 {
		t.Errorf("service cache: %d entries", s.cache.len())
	}
}

func TestUpstreamPhoton(t *testing.T) {
	f := &fakeUpstream{photo: true}
	u := newFake(t, f, "/api", UpstreamOptions{})
	if u.Kind() != KindPhoton {
		t.Fatalf("kind %q", u.Kind())
	}
	res, err := u.Search(context.Background(), "350 5th Ave", 5)
	if err != nil || len(res) != 1 || res[0].DisplayName != "Empire State Building, 350 5th Avenue, New York, United States" ||
		!near(res[0].Lat, res[0].Lon, 40.748, -73.986, 0.001) {
		t.Fatalf("photon: %+v %v", res, err)
	}
	if q, _ := f.last.Load().(string); strings.Contains(q, "format=") {
		t.Errorf("photon got a Nominatim parameter: %q", q)
	}
	// Shape detection: a Nominatim answer under kind photon still parses.
	u2 := newFake(t, &fakeUpstream{}, "/api", UpstreamOptions{Kind: KindPhoton})
	if res, err := u2.Search(context.Background(), "350 5th Ave", 5); err != nil || len(res) != 1 {
		t.Errorf("shape detection: %+v %v", res, err)
	}
}

func TestUpstreamFailureFallsBack(t *testing.T) {
	g := mustLoad(t)
	for name, f := range map[string]*fakeUpstream{
		"failing": {fail: true},
		// Far longer than the bound below, so that only the client's
		// timeout can end the call in time, however busy the machine.
		"slow": {delay: time.Minute},
	} {
		t.Run(name, func(t *testing.T) {
			u := newFake(t, f, "/search", UpstreamOptions{Timeout: 150 * time.Millisecond})
			s := &Service{Gazetteer: g, Upstream: u}
			start := time.Now()
			res := s.Search(context.Background(), "350 5th Ave, New York, NY 10118", 10)
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("took %v despite a 150 ms timeout against a server that answers after a minute", took)
			}
			if len(res) == 0 || res[0].DisplayName != "10118, New York, NY, United States" {
				t.Fatalf("fallback answer %+v", res)
			}
			if s.cache != nil && s.cache.len() != 0 {
				t.Error("a fallback answer for an address was cached")
			}
			// The upstream is skipped for a while after failing.
			s.Search(context.Background(), "1 Other St, Austin, TX", 10)
			if n := f.hits.Load(); n != 1 {
				t.Errorf("%d upstream requests, want 1 (cool-down after a failure)", n)
			}
			lat, lon, prec, ok := s.GeocodeAddress("1 Main St", "78701", "Austin", "TX", "US")
			if !ok || prec != PrecisionPostalCode || !near(lat, lon, 30.27, -97.74, 0.05) {
				t.Errorf("GeocodeAddress with a down upstream = %v,%v %q %v", lat, lon, prec, ok)
			}
		})
	}
}

func TestServiceGeocode(t *testing.T) {
	g := mustLoad(t)
	f := &fakeUpstream{}
	s := &Service{Gazetteer: g, Upstream: newFake(t, f, "/search", UpstreamOptions{})}
	// A street address near its ZIP: the upstream's point, precision address.
	lat, lon, prec, ok := s.GeocodeAddress("350 5th Ave", "10118", "New York", "NY", "US")
	if !ok || prec != PrecisionAddress || !near(lat, lon, 40.748, -73.986, 0.001) {
		t.Errorf("GeocodeAddress = %v,%v %q %v", lat, lon, prec, ok)
	}
	// An upstream answer far from the ZIP is not believed.
	lat, lon, prec, ok = s.GeocodeAddress("350 5th Ave", "78701", "Austin", "TX", "US")
	if !ok || prec != PrecisionPostalCode || !near(lat, lon, 30.27, -97.74, 0.05) {
		t.Errorf("far answer: %v,%v %q %v", lat, lon, prec, ok)
	}
	// No house number: offline only.
	before := f.hits.Load()
	if _, _, prec, ok = s.GeocodeAddress("Main Street", "", "Austin", "TX", "US"); !ok || prec != PrecisionCity || f.hits.Load() != before {
		t.Errorf("no house number: %q %v, upstream asked %d times", prec, ok, f.hits.Load()-before)
	}
	// Postal code, then city, then the upstream.
	if _, _, prec, ok = s.Geocode("10001", "Austin", "TX", "US"); !ok || prec != PrecisionPostalCode {
		t.Errorf("postal first: %q %v", prec, ok)
	}
	if _, _, prec, ok = s.Geocode("", "Tiny Hamlet Nowhere", "NY", "US"); !ok || prec != PrecisionCity {
		t.Errorf("upstream last: %q %v", prec, ok)
	}
	offline := &Service{Gazetteer: g}
	if _, _, _, ok = offline.Geocode("", "Tiny Hamlet Nowhere", "NY", "US"); ok {
		t.Error("offline geocoded an unknown town")
	}
	if _, _, prec, ok = offline.GeocodeAddress("350 5th Ave", "10118", "", "", ""); !ok || prec != PrecisionPostalCode {
		t.Errorf("offline address: %q %v", prec, ok)
	}
}

func TestNewUpstreamChecks(t *testing.T) {
	for _, o := range []UpstreamOptions{{URL: ""}, {URL: "ftp://x/y"}, {URL: "/search"}, {URL: "http://x/search", Kind: "google"}} {
		if _, err := NewUpstream(o); err == nil {
			t.Errorf("NewUpstream(%+v) accepted", o)
		}
	}
}

func TestLRU(t *testing.T) {
	c := newLRU(2, time.Minute)
	now := time.Now()
	c.now = func() time.Time { return now }
	c.put("a", []Result{{DisplayName: "A"}})
	c.put("b", nil)
	if _, ok := c.get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	c.put("c", nil) // evicts b
	if _, ok := c.get("b"); ok {
		t.Error("b not evicted")
	}
	if r, ok := c.get("a"); !ok || r[0].DisplayName != "A" {
		t.Error("a evicted")
	}
	now = now.Add(2 * time.Minute)
	if _, ok := c.get("a"); ok {
		t.Error("a outlived its TTL")
	}
	if c.len() != 1 {
		t.Errorf("len %d", c.len())
	}
}

// --- IP location ---

func TestIPLocator(t *testing.T) {
	path := placestest.WriteMMDB(t, map[string][2]float64{"81.2.69.0/24": {51.5142, -0.0931}, "2a02:ff00::/32": {45.0, 9.0}})
	l, err := NewIPLocator(path, []string{"CloudFront-Viewer-Latitude", "CloudFront-Viewer-Longitude"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if lat, lon, ok := l.FromIP(netip.MustParseAddr("81.2.69.160")); !ok || lat != 51.5142 || lon != -0.0931 {
		t.Errorf("FromIP = %v %v %v", lat, lon, ok)
	}
	if _, _, ok := l.FromIP(netip.MustParseAddr("::ffff:81.2.69.1")); !ok {
		t.Error("IPv4-mapped address not found")
	}
	if lat, _, ok := l.FromIP(netip.MustParseAddr("2a02:ff00::1")); !ok || lat != 45 {
		t.Error("IPv6 address not found")
	}
	for _, a := range []string{"8.8.8.8", "127.0.0.1"} {
		if _, _, ok := l.FromIP(netip.MustParseAddr(a)); ok {
			t.Errorf("FromIP(%s) found", a)
		}
	}
	h := http.Header{}
	h.Set("CloudFront-Viewer-Latitude", "47.6")
	h.Set("CloudFront-Viewer-Longitude", "-122.3")
	if lat, lon, ok := l.FromHeaders(h.Get); !ok || lat != 47.6 || lon != -122.3 {
		t.Errorf("FromHeaders = %v %v %v", lat, lon, ok)
	}
	h.Set("CloudFront-Viewer-Latitude", "north")
	if _, _, ok := l.FromHeaders(h.Get); ok {
		t.Error("bad header accepted")
	}
	if l.DatabaseType() != "GeoLite2-City" {
		t.Errorf("type %q", l.DatabaseType())
	}
	if _, err := NewIPLocator(filepath.Join(t.TempDir(), "missing.mmdb"), nil); err == nil {
		t.Error("missing database accepted")
	}
	junk := filepath.Join(t.TempDir(), "junk.mmdb")
	if err := os.WriteFile(junk, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewIPLocator(junk, nil); err == nil {
		t.Error("junk database accepted")
	}
	var none *IPLocator
	if _, _, ok := none.FromIP(netip.MustParseAddr("81.2.69.160")); ok || none.HasHeaders() || none.DatabaseType() != "" {
		t.Error("nil locator answers")
	}
}

func TestAttribution(t *testing.T) {
	names := func(o AttributionOptions) (out []string) {
		for _, s := range Attribution(o) {
			out = append(out, s.Name)
		}
		return out
	}
	// OpenStreetMap always: the embedded basemap draws its seas and rivers.
	if got := names(AttributionOptions{}); len(got) != 2 || got[0] != "GeoNames" || !strings.Contains(got[1], "OpenStreetMap") {
		t.Errorf("offline: %v", got)
	}
	if got := names(AttributionOptions{UpstreamGeocoder: true, IPDatabaseType: "GeoLite2-City"}); len(got) != 3 || !strings.Contains(got[1], "OpenStreetMap") {
		t.Errorf("with upstream: %v", got)
	}
}

// BenchmarkStartupCost is what a server pays once at start: decode the
// embedded gazetteer, then build the name index; wall time of each part,
// process CPU time (both cores) and the live heap they leave
// (go test -run XXX -bench StartupCost ./internal/places/).
func BenchmarkStartupCost(b *testing.B) {
	var load, total, cpu time.Duration
	var heap uint64
	var names int
	for b.Loop() {
		var g *Gazetteer
		var r0, r1 unix.Rusage
		heap = heapAfter(func() {
			_ = unix.Getrusage(unix.RUSAGE_SELF, &r0)
			t0 := time.Now()
			var err error
			if g, err = LoadFrom(bytes.NewReader(geodata)); err != nil {
				b.Fatal(err)
			}
			load += time.Since(t0)
			g.BuildIndex()
			total += time.Since(t0)
			_ = unix.Getrusage(unix.RUSAGE_SELF, &r1)
		})
		cpu += time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
		names = len(g.index.entries)
		runtime.KeepAlive(g)
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(b.N) }
	b.ReportMetric(ms(load), "load-ms")
	b.ReportMetric(ms(total-load), "index-ms")
	b.ReportMetric(ms(cpu), "cpu-ms")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
	b.ReportMetric(float64(names), "names")
}

// BenchmarkServiceSearchCached is a repeated query: the service's cache.
func BenchmarkServiceSearchCached(b *testing.B) {
	s := &Service{Gazetteer: mustLoad(b)}
	s.Search(context.Background(), "brooklyn", 10)
	for b.Loop() {
		s.Search(context.Background(), "brooklyn", 10)
	}
}

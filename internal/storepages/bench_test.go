package storepages

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/stores"
)

// Benchmarks on the SLB-1 data set (internal/bench; SLB_SIZE=S, M or L,
// S by default), built in process: docs/performance.md ("Store pages").
//
//	SLB_SIZE=M go test -run XXX -bench 'StorePage|Sitemap' -benchtime 20000x ./internal/storepages/

var benchOnce struct {
	sync.Once
	p   *Pages
	ids []int64
	err error
}

func benchPages(b *testing.B) (*Pages, []int64) {
	b.Helper()
	benchOnce.Do(func() {
		n, err := bench.SizeFromEnv(bench.SizeS)
		if err != nil {
			benchOnce.err = err
			return
		}
		d, err := bench.NewDataset(n, bench.Clustered)
		if err != nil {
			benchOnce.err = err
			return
		}
		es, err := d.Entries()
		if err != nil {
			benchOnce.err = err
			return
		}
		ix := search.NewIndex()
		ix.PutAll(es)
		rng := rand.New(rand.NewPCG(1, 2))
		for range 10_000 {
			benchOnce.ids = append(benchOnce.ids, es[rng.IntN(len(es))].ID)
		}
		runtime.GC()
		benchOnce.p = New(ix, Options{PublicURL: "https://locator.example", StorefrontURL: "https://shop.example", Log: quiet})
		ix.Directory() // built once, as the first directory request would
	})
	if benchOnce.err != nil {
		b.Fatal(benchOnce.err)
	}
	return benchOnce.p, benchOnce.ids
}

// discard is a ResponseWriter that keeps only the status and the size.
type discard struct {
	h      http.Header
	status int
	n      int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.status = code }
func (d *discard) Write(b []byte) (int, error) { d.n += len(b); return len(b), nil }

// BenchmarkStorePage renders store pages of random stores (canonical
// paths), as a request would, and reports the latency percentiles. The
// page cache is off: every iteration renders.
func BenchmarkStorePage(b *testing.B) {
	p, ids := benchPages(b)
	old := pageCacheBytes
	pageCacheBytes = 0
	b.Cleanup(func() { pageCacheBytes = old })
	paths := make([]string, len(ids))
	for i, id := range ids {
		sd, _ := p.ix.Get(id)
		v, err := decodeStore(sd)
		if err != nil {
			b.Fatal(err)
		}
		paths[i] = v.path()
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	lat := make([]time.Duration, 0, b.N)
	bytes := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req.URL.Path = paths[i%len(paths)]
		w := &discard{h: http.Header{}}
		start := time.Now()
		p.Serve(w, req)
		lat = append(lat, time.Since(start))
		if w.status != http.StatusOK {
			b.Fatalf("%s: %d", req.URL.Path, w.status)
		}
		bytes += w.n
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(pct(0.5), "p50-us")
	b.ReportMetric(pct(0.99), "p99-us")
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/page")
}

// BenchmarkSitemapAll streams the whole sitemap (the index and every
// child) once per iteration and reports its duration and the heap's peak
// growth meanwhile (sampled every millisecond).
func BenchmarkSitemapAll(b *testing.B) {
	p, _ := benchPages(b)
	h := p.handler()
	get := func(path string) int {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		w := &discard{h: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status != 0 && w.status != http.StatusOK {
			b.Fatalf("%s: %d", path, w.status)
		}
		return w.n
	}
	runtime.GC()
	debug.FreeOSMemory()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak uint64
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				metrics.Read(s)
				peak = max(peak, s[0].Value.Uint64())
			}
		}
	})
	d := p.ix.Directory()
	children := chunks(d.Total)
	total := 0
	b.ResetTimer()
	for range b.N {
		total = get("/sitemap.xml")
		for i := 1; i <= chunks(len(directoryPaths(d))); i++ {
			total += get("/sitemaps/directory-" + strconv.Itoa(i) + ".xml")
		}
		for i := 1; i <= children; i++ {
			total += get("/sitemaps/stores-" + strconv.Itoa(i) + ".xml")
		}
	}
	b.StopTimer()
	stop()
	wg.Wait()
	b.ReportMetric(float64(d.Total), "stores")
	b.ReportMetric(float64(total)/(1<<20), "MB-xml")
	b.ReportMetric(float64(peak-min(peak, base))/(1<<20), "peak-heap-growth-MB")
}

// BenchmarkStatusLine is the status a store page computes on every
// request, cached or not (the rule, the walk to its last change, today's
// special date): a store open 09:00-21:00 on weekdays, at 14:30.
//
//	go test -run XXX -bench StatusLine ./internal/storepages/
func BenchmarkStatusLine(b *testing.B) {
	ny, _ := time.LoadLocation("America/New_York")
	s := &stores.Store{WorkingHours: week("09:00", "21:00", weekdays...),
		SpecialHours: []schedule.SpecialHour{{Date: "2026-03-12", Closed: true, Note: "Staff training"}}}
	sched := stores.WithExceptions(s)
	for b.Loop() {
		if st := storeStatus(sched, ny, fixedNow, fixedNow); !st.Open {
			b.Fatal(st)
		}
	}
}

// BenchmarkDirectory builds the directory once per iteration (a store
// changed in between, as after any write), in line.
//
//	SLB_SIZE=M go test -run XXX -bench Directory -benchtime 3x ./internal/storepages/
func BenchmarkDirectory(b *testing.B) {
	p, ids := benchPages(b)
	old := search.SlowDirectory
	search.SlowDirectory = time.Hour // always in line
	b.Cleanup(func() { search.SlowDirectory = old })
	sd, _ := p.ix.Get(ids[0])
	for b.Loop() {
		p.ix.Put(stores.Entry{ID: sd.ID, Latitude: sd.Latitude, Longitude: sd.Longitude, TimeZone: sd.Zone.String(), Doc: sd.Doc})
		if d := p.ix.Directory(); d.Gen != p.ix.Gen() {
			b.Fatal("directory not rebuilt")
		}
	}
}

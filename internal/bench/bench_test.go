package bench_test

import (
	"sync"
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/storegen"
	"locator/internal/stores"
)

// The benchmarks run on S (100k) unless SLB_SIZE asks for M, L or a number:
//
//	SLB_SIZE=M go test -run '^$' -bench . -benchtime 5x ./internal/bench/
var (
	loadOnce sync.Once
	loaded   *bench.Loaded
	loadErr  error
)

func load(b *testing.B) *bench.Loaded {
	b.Helper()
	loadOnce.Do(func() {
		n, err := bench.SizeFromEnv(bench.SizeS)
		if err != nil {
			loadErr = err
			return
		}
		loaded, loadErr = bench.Load(n, bench.Clustered)
	})
	if loadErr != nil {
		b.Fatal(loadErr)
	}
	return loaded
}

// benchMix runs the valid requests of the mix (all, or with one limit),
// one per b.N iteration, and reports the per-query p50 and p99.
func benchMix(b *testing.B, limit int, fn func(ix *search.Index, q search.Query)) {
	l := load(b)
	rs := bench.Valid(l.Mix)
	if limit > 0 {
		rs = bench.WithLimit(rs, limit)
	}
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := rs[i%len(rs)].Query
		start := time.Now()
		fn(l.Index, q)
		ds = append(ds, time.Since(start))
	}
	b.StopTimer()
	p := bench.Summarize(ds)
	b.ReportMetric(float64(p.P50.Nanoseconds())/1e3, "p50-us")
	b.ReportMetric(float64(p.P99.Nanoseconds())/1e3, "p99-us")
}

func nearest(ix *search.Index, q search.Query) { ix.Nearest(q) }

func BenchmarkNearest(b *testing.B) {
	b.Run("mix", func(b *testing.B) { benchMix(b, 0, nearest) })
	b.Run("limit50", func(b *testing.B) { benchMix(b, 50, nearest) })
	b.Run("limit20", func(b *testing.B) { benchMix(b, 20, nearest) })
}

func BenchmarkAppendJSON(b *testing.B) {
	var buf []byte
	fn := func(ix *search.Index, q search.Query) { buf = ix.AppendJSON(buf[:0], q) }
	b.Run("mix", func(b *testing.B) { benchMix(b, 0, fn) })
	b.Run("limit50", func(b *testing.B) { benchMix(b, 50, fn) })
}

// derived is a data set built once from the loaded one with each store's
// schedule changed as the demo data would have it.
type derived struct {
	once sync.Once
	ix   *search.Index
}

// index builds, the first time, the loaded data set with change applied to
// each store (i: its place in the set; e: its entry, for its services).
func (d *derived) index(l *bench.Loaded, change func(i int, e stores.Entry, s *stores.Store)) *search.Index {
	d.once.Do(func() {
		es := make([]stores.Entry, len(l.Entries))
		for i, e := range l.Entries {
			s := &stores.Store{WorkingHours: schedule.DecodeSchedule(e.Schedule)}
			change(i, e, s)
			e.Schedule = stores.EncodeStoreSchedule(s)
			es[i] = e
		}
		d.ix = search.NewIndex()
		d.ix.PutAll(es)
	})
	return d.ix
}

var excepted derived

// withExceptions is the loaded data set with the exceptions of the demo
// data (internal/seed): 55% of stores closed or on short hours on the
// holidays of the coming year plus three dates inside the 14-day window,
// 15% closed on every federal holiday, 2% temporarily closed. Most stores
// share a few schedule encodings, as in the demo data.
func withExceptions(b *testing.B, l *bench.Loaded) *search.Index {
	b.Helper()
	now := time.Now()
	var program, federal []schedule.SpecialHour
	for _, d := range []int{2, 5, 9} {
		program = append(program, schedule.SpecialHour{Date: now.AddDate(0, 0, d).Format("2006-01-02"), Start: "10:00", End: "16:00", Note: "Short day"})
	}
	for _, h := range storegen.USHolidays(now.AddDate(0, 0, 10)) {
		program = append(program, schedule.SpecialHour{Date: h.Date.Format("2006-01-02"), Closed: true, Note: h.Name})
		federal = append(federal, schedule.SpecialHour{Date: h.Date.Format("2006-01-02"), Closed: true, Note: h.Name})
	}
	closure := &schedule.Closure{From: now.AddDate(0, 0, -3).Format("2006-01-02"), Until: now.AddDate(0, 0, 20).Format("2006-01-02"), Note: "Renovation"}
	return excepted.index(l, func(i int, _ stores.Entry, s *stores.Store) {
		switch p := i % 100; {
		case p < 55:
			s.SpecialHours = program
		case p < 70:
			s.SpecialHours = federal
		case p < 72:
			s.TemporarilyClosed = closure
		}
	})
}

// BenchmarkListAnswer is the list answer with the live fields (open_now,
// next_change_at, special_hours, ...), on the SLB data set as generated
// (weekly hours only) and with the demo data's share of exceptions:
//
//	go test -run '^$' -bench ListAnswer -benchtime 20000x ./internal/bench/
func BenchmarkListAnswer(b *testing.B) {
	var buf []byte
	var total, n int
	fn := func(ix *search.Index, q search.Query) {
		buf = ix.AppendJSON(buf[:0], q)
		total, n = total+len(buf), n+1
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(total)/float64(max(n, 1)), "bytes/answer")
		total, n = 0, 0
	}
	b.Run("limit50", func(b *testing.B) {
		benchMix(b, 50, fn)
		report(b)
	})
	b.Run("limit50-exceptions", func(b *testing.B) {
		ix := withExceptions(b, load(b))
		benchMix(b, 50, func(_ *search.Index, q search.Query) { fn(ix, q) })
		report(b)
	})
}

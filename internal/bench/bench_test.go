package bench_test

import (
	"sync"
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/search"
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

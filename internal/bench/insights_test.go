//go:build linux

package bench_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/insights"
)

// BenchmarkInsightsCounting is the store list through the real HTTP
// handler, the same build with insights counting off and on, side by side
// (docs/performance.md, "Insights"): the SLB-1 mix at limit 50, every
// request from one of 1,000 addresses, one goroutine per core. The two
// handlers take turns in blocks of 100 requests, a pair of blocks
// answering the same queries, each handler first in half of the pairs. Each block is timed in CPU time of its own
// thread (getrusage RUSAGE_THREAD, the goroutine locked to it), not in wall
// time: on this shared machine other processes' load moved wall-time
// figures by +-12% between two identical handlers, while CPU time only
// counts the work of the request. It reports the CPU time per request of
// each handler, the cost of counting in the request in percent, and what
// the flush of the run's counts costs per search:
//
//	SLB_SIZE=M go test -run '^$' -bench InsightsCounting -benchtime 40000x -count 5 ./internal/bench/
func BenchmarkInsightsCounting(b *testing.B) {
	newVisitors := os.Getenv("INSIGHTS_NEW_VISITORS") != ""
	const block = 100
	l := load(b)
	rs := bench.WithLimit(bench.Valid(l.Mix), 50)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	off := insights.New(nil, insights.Options{}, log)
	off.Off()
	on := insights.New(dbtest.SQLite(b), insights.Options{}, log)
	handlers := [2]http.Handler{
		httpapi.New(httpapi.Deps{Log: log, Index: l.Index, Insights: off}),
		httpapi.New(httpapi.Deps{Log: log, Index: l.Index, Insights: on}),
	}
	var next atomic.Int64
	var cpu, count [2]atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for {
			blk := int(next.Add(1))
			// Which handler goes first in a pair alternates: the second
			// block finds the queries' data in cache.
			mode := (blk + blk/2) % 2
			start := threadCPU(b)
			n := 0
			for ; n < block && pb.Next(); n++ {
				i := blk/2*block + n // both handlers of a pair of blocks answer the same queries
				req := httptest.NewRequest(http.MethodGet, rs[i%len(rs)].RawURL, nil)
				// Every request from its own network (a visitor and a cell
				// new to the day, the most counting can cost) when
				// INSIGHTS_NEW_VISITORS is set; else 4 networks.
				req.RemoteAddr = "198.51." + strconv.Itoa(i%1000/250) + "." + strconv.Itoa(i%250) + ":4000"
				if newVisitors {
					req.RemoteAddr = "10." + strconv.Itoa(i>>8&255) + "." + strconv.Itoa(i&255) + "." + strconv.Itoa(i>>16&255) + ":4000"
				}
				req.Header.Set("User-Agent", "Mozilla/5.0 (bench)")
				rec := httptest.NewRecorder()
				handlers[mode].ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", rs[i%len(rs)].RawURL, rec.Code)
				}
			}
			cpu[mode].Add(int64(threadCPU(b) - start))
			count[mode].Add(int64(n))
			if n < block {
				return
			}
		}
	})
	b.StopTimer()
	mean := func(m int) float64 { return float64(cpu[m].Load()) / float64(max(count[m].Load(), 1)) / 1e3 }
	b.ReportMetric(mean(0), "off-cpu-us")
	b.ReportMetric(mean(1), "on-cpu-us")
	b.ReportMetric((mean(1)/mean(0)-1)*100, "cost-%")
	// The flush of everything counted (adding up, one upsert per table into
	// SQLite, in process): its CPU per search counted, and the rows written
	// per search. One flush for the whole run: every row is new, the worst
	// case (docs/performance-history.md, "Insights").
	runtime.LockOSThread()
	start := threadCPU(b)
	if err := on.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
	flush := threadCPU(b) - start
	runtime.UnlockOSThread()
	var rows int64
	for _, t := range []string{"insight_store_days", "insight_search_days"} {
		var n int64
		if err := on.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM "+t).Scan(&n); err != nil {
			b.Fatal(err)
		}
		rows += n
	}
	searches := float64(max(count[1].Load(), 1))
	b.ReportMetric(float64(flush.Nanoseconds())/searches/1e3, "flush-cpu-us/search")
	b.ReportMetric(float64(rows)/searches, "rows/search")
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

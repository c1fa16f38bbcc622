//go:build linux

package bench_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/httpapi"
)

// BenchmarkCardFlood is an unrelated search's latency while 8 connections
// ask for distinct stores' link-preview cards (/cards/{id}.png, 10-16 ms of
// CPU each to draw), against the same search with no flood, through the
// real handler on a loopback HTTP server (docs/performance.md, "Link
// preview cards"). It reports the search's median and p90 idle and under
// the flood, their ratio, and the cards answered per second (drawn or
// generic):
//
//	go test -run '^$' -bench CardFlood -benchtime 300x -count 3 ./internal/bench/
//
// CARD_FLOOD_SAME=1 asks for one card over and over instead (drawn once,
// then a cache hit): the cost of an 8-connection flood as such, for
// comparison.
func BenchmarkCardFlood(b *testing.B) {
	sameCard := os.Getenv("CARD_FLOOD_SAME") != ""
	l := load(b)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Log: log, Index: l.Index, Site: httpapi.Site{PublicURL: "http://locator.example"}}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	get := func(path string) int {
		res, err := client.Get(srv.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	rs := bench.WithLimit(bench.Valid(l.Mix), 50)
	search := func(i int) time.Duration {
		start := time.Now()
		if code := get(rs[i%len(rs)].RawURL); code != http.StatusOK {
			b.Fatalf("search: %d", code)
		}
		return time.Since(start)
	}
	measure := func() []time.Duration {
		ds := make([]time.Duration, 0, b.N)
		for i := range b.N {
			ds = append(ds, search(i))
		}
		slices.Sort(ds)
		return ds
	}
	for i := range 200 { // warm the connection and the caches
		search(i)
	}
	b.ResetTimer()
	idle := measure()

	stop := make(chan struct{})
	var next, cards atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				n := int(next.Add(1))
				if sameCard {
					n = 0
				}
				e := l.Entries[n%len(l.Entries)]
				if code := get("/cards/" + strconv.FormatInt(e.ID, 10) + ".png"); code != http.StatusOK {
					b.Errorf("card: %d", code)
					return
				}
				cards.Add(1)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // the flood under way
	floodStart := time.Now()
	flood := measure()
	floodTime := time.Since(floodStart)
	close(stop)
	wg.Wait()
	b.StopTimer()
	pct := func(ds []time.Duration, p float64) float64 {
		return float64(ds[int(float64(len(ds)-1)*p)].Microseconds()) / 1e3
	}
	b.ReportMetric(pct(idle, 0.5), "idle-p50-ms")
	b.ReportMetric(pct(idle, 0.9), "idle-p90-ms")
	b.ReportMetric(pct(flood, 0.5), "flood-p50-ms")
	b.ReportMetric(pct(flood, 0.9), "flood-p90-ms")
	b.ReportMetric(pct(flood, 0.5)/pct(idle, 0.5), "p50-ratio")
	b.ReportMetric(float64(cards.Load())/floodTime.Seconds(), "cards/s")
}

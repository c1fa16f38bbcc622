package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"time"

	"locator/internal/bench"
	"locator/internal/search"
	"locator/internal/stores"
)

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// cmdInproc measures the index in this process: its memory, the gate, the
// per-query latency of the mix and the answer sizes.
func cmdInproc(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("inproc", flag.ContinueOnError)
	data := addDataFlags(fs, "S", "S, M, L or a number of stores")
	passes := fs.Int("passes", 3, "timed passes over the 10,000 queries (after one warm-up pass)")
	gate := fs.Int("gate", 1000, "queries checked against the brute-force oracle")
	products := fs.Bool("products", false, "the product series too: the catalogue, the stock, product queries (docs/performance.md)")
	worst := fs.Int("worst", 0, "with -products, list the N product queries that cost most over their twins without the product")
	worstProfile := fs.String("worst-profile", "", "with -worst, a CPU profile of 8 s of the 200 costliest product queries into this file")
	d, err := data.parse(args)
	if err != nil {
		return err
	}
	n, sp := d.N, d.Spread
	start := time.Now()
	es, err := d.Entries()
	if err != nil {
		return err
	}
	fmt.Printf("generated %d %s stores in %s\n", n, sp, time.Since(start).Round(time.Millisecond))
	docBytes := 0
	for i := range es {
		docBytes += len(es[i].Doc)
	}
	fmt.Printf("document: %d bytes on average\n", docBytes/n)

	h0 := heapAfterGC()
	start = time.Now()
	ix := search.NewIndex()
	ix.PutAll(es)
	build := time.Since(start)
	h1 := heapAfterGC()
	fmt.Printf("index (packed R-tree alone): %.1f B/store\n", float64(ix.TreeBytes())/float64(n))
	fmt.Printf("whole Index (tree, records, id map, documents): %.0f B/store (documents %d B/store), built in %s\n",
		float64(h1-h0)/float64(n), docBytes/n, build.Round(time.Millisecond))

	pts := make([][2]float64, n)
	for i := range es {
		pts[i] = [2]float64{es[i].Latitude, es[i].Longitude}
	}
	mix := bench.QueryMix(pts, bench.MixSize)
	if *gate > 0 {
		start = time.Now()
		if err := bench.Gate(ix, bench.NewOracle(es), mix, *gate); err != nil {
			return fmt.Errorf("correctness gate FAILED (the run is void): %w", err)
		}
		fmt.Printf("correctness gate: %d queries equal the float64 haversine oracle (%s)\n", *gate, time.Since(start).Round(time.Millisecond))
	}
	var ps *productSeries
	if *products {
		if ps, err = loadProductSeries(ix, d, es, mix, *gate*bench.ProductShare/100); err != nil {
			return err
		}
	}
	// es is dead from here (the index holds its own copy of the documents),
	// so the collection below frees it.
	runtime.GC()
	// Steady state: what a server looks like after start-up.
	debug.FreeOSMemory()

	valid := bench.Valid(mix)
	var buf []byte
	variants := []struct {
		name string
		rs   []bench.Request
	}{{"mix", valid}, {"limit 50", bench.WithLimit(valid, 50)}, {"limit 20", bench.WithLimit(valid, 20)}}
	for _, v := range variants {
		bench.TimeQueries(v.rs, 1, func(q search.Query) { ix.Nearest(q) }) // warm-up
		p := bench.Summarize(bench.TimeQueries(v.rs, *passes, func(q search.Query) { ix.Nearest(q) }))
		j := bench.Summarize(bench.TimeQueries(v.rs, *passes, func(q search.Query) { buf = ix.AppendJSON(buf[:0], q) }))
		fmt.Printf("%-8s Nearest     p50 %6.1f us  p99 %6.1f us  mean %6.1f us  max %7.1f us  (%d queries)\n",
			v.name, us(p.P50), us(p.P99), us(p.Mean), us(p.Max), p.N)
		fmt.Printf("%-8s AppendJSON  p50 %6.1f us  p99 %6.1f us  mean %6.1f us  max %7.1f us\n",
			v.name, us(j.P50), us(j.P99), us(j.Mean), us(j.Max))
	}
	if ps != nil {
		ps.worst, ps.worstProfile = *worst, *worstProfile
		ps.time(ix, *passes)
	}
	for _, v := range variants {
		s := bench.ResponseSizes(ix, v.rs)
		fmt.Printf("%-8s answer bytes: identity mean %d p50 %d max %d; gzip (as sent) mean %d p50 %d max %d; zstd (as sent) mean %d p50 %d max %d\n",
			v.name, s.IdentityMean, s.IdentityP50, s.IdentityMax, s.GzipMean, s.GzipP50, s.GzipMax, s.ZstdMean, s.ZstdP50, s.ZstdMax)
	}
	runtime.KeepAlive(ix)
	return nil
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// productSeries is SLB-1's product series in this process: the stock
// loaded into the index and the product requests of the mix.
type productSeries struct {
	mix          []bench.Request // the valid mix with bench.ProductShare% product requests
	worst        int             // list this many of the costliest product queries (-worst)
	worstProfile string          // and profile them into this file (-worst-profile)
}

// loadProductSeries loads the series' catalogue and stock into ix (its
// time and memory), runs the product gate on the first gate product
// requests and returns the series' mix.
func loadProductSeries(ix *search.Index, d *bench.Dataset, es []stores.Entry, mix []bench.Request, gate int) (*productSeries, error) {
	now := time.Now().UTC().Truncate(time.Second)
	h0 := heapAfterGC()
	start := time.Now()
	rows, err := bench.LoadStock(ix, d.N, now)
	if err != nil {
		return nil, fmt.Errorf("load stock: %w", err)
	}
	took := time.Since(start)
	h1 := heapAfterGC()
	fmt.Printf("stock: %d rows of %d products generated and loaded in %s; index %.2f B/row (Products.Bytes), heap +%.2f B/row\n",
		rows, bench.CatalogSize, took.Round(time.Millisecond), float64(ix.Products().Bytes())/float64(rows), float64(h1-h0)/float64(rows))
	pmix := bench.WithProducts(mix)
	if gate > 0 {
		start = time.Now()
		po := bench.NewProductOracle(d, es, now)
		if err := bench.ProductGate(ix, po, pmix, gate); err != nil {
			return nil, fmt.Errorf("product correctness gate FAILED (the run is void): %w", err)
		}
		fmt.Printf("product correctness gate: %d product queries equal the brute-force oracle (%s)\n", gate, time.Since(start).Round(time.Millisecond))
	}
	return &productSeries{mix: bench.Valid(pmix)}, nil
}

// time measures the product requests side by side with the same requests
// without their product (same points, radius, limit and filters), and the
// whole series mix (70% plain, 30% product), each at the mix's limits and
// at limit 50. The two sets run in turns, passes times each; the rate
// compared is each set's best pass (its mean time per query), which a
// busy machine disturbs least.
func (ps *productSeries) time(ix *search.Index, passes int) {
	only := bench.ProductOnly(ps.mix)
	plain := make([]bench.Request, len(only))
	for i, r := range only {
		plain[i] = r
		plain[i].Query.Product, plain[i].Query.InStock, plain[i].Query.ProductRef = 0, false, ""
	}
	var buf []byte
	fn := func(q search.Query) { buf = ix.AppendJSON(buf[:0], q) }
	for _, limit := range []int{0, 50} {
		o, p, m := only, plain, ps.mix
		name := "mix"
		if limit > 0 {
			o, p, m = bench.WithLimit(o, limit), bench.WithLimit(p, limit), bench.WithLimit(m, limit)
			name = fmt.Sprintf("limit %d", limit)
		}
		bench.TimeQueries(p, 1, fn) // warm-up
		bench.TimeQueries(o, 1, fn)
		var all, fastest [2][]time.Duration // fastest: each query's fastest pass
		best := [2]time.Duration{1 << 62, 1 << 62}
		for range max(passes, 3) {
			for k, rs := range [2][]bench.Request{p, o} {
				ds := bench.TimeQueries(rs, 1, fn)
				all[k] = append(all[k], ds...)
				if fastest[k] == nil {
					fastest[k] = slices.Clone(ds)
				}
				for i, d := range ds {
					fastest[k][i] = min(fastest[k][i], d)
				}
				best[k] = min(best[k], bench.Summarize(slices.Clone(ds)).Mean)
			}
		}
		sp, so := bench.Summarize(all[0]), bench.Summarize(all[1])
		// all is sorted now: the mean of the fastest 99% drops the stalls
		// a busy machine adds (a preempted query takes milliseconds).
		tp, to := trimmedMean(all[0], 99), trimmedMean(all[1], 99)
		fmt.Printf("%-8s product queries (%d)  AppendJSON p50 %6.1f us  p99 %6.1f us  mean %6.1f us  best pass %6.1f us  fastest 99%% %6.1f us\n",
			name, len(o), us(so.P50), us(so.P99), us(so.Mean), us(best[1]), us(to))
		fmt.Printf("%-8s same, no product      AppendJSON p50 %6.1f us  p99 %6.1f us  mean %6.1f us  best pass %6.1f us  fastest 99%% %6.1f us\n",
			name, us(sp.P50), us(sp.P99), us(sp.Mean), us(best[0]), us(tp))
		if err := ps.listWorst(ix, o, fastest[1], fastest[0]); err != nil {
			fmt.Printf("%-8s costliest product queries: %v\n", name, err)
		}
		// Each query's fastest pass drops the stalls too, query by query:
		// the steadiest of the three ratios on a loaded machine.
		fp, fo := trimmedMean(fastest[0], 100), trimmedMean(fastest[1], 100)
		fmt.Printf("%-8s product search at %.2fx the unfiltered rate (best passes), %.2fx (fastest 99%%), %.2fx (each query's fastest pass: %.1f vs %.1f us)\n",
			name, float64(best[0])/float64(best[1]), float64(tp)/float64(to), float64(fp)/float64(fo), us(fo), us(fp))
		ms := bench.Summarize(bench.TimeQueries(m, passes, fn))
		fmt.Printf("%-8s series mix (%d%% product) AppendJSON p50 %6.1f us  p99 %6.1f us  mean %6.1f us\n", name, bench.ProductShare, us(ms.P50), us(ms.P99), us(ms.Mean))
	}
}

// trimmedMean is the mean of the first pct percent of sorted ds (of all
// of ds, sorted or not, for 100).
func trimmedMean(ds []time.Duration, pct int) time.Duration {
	n := max(1, len(ds)*pct/100)
	if n > len(ds) {
		return 0
	}
	var sum time.Duration
	for _, d := range ds[:n] {
		sum += d
	}
	return sum / time.Duration(n)
}

// listWorst prints the ps.worst product queries whose time (to, each
// query's fastest pass) exceeds most that of the same query without its
// product (tp), with what decides their cost (the product's stores,
// in_stock, the filters, the place), and the share they account for of
// the excess of every query that costs more than its twin; with
// ps.worstProfile, it first writes a CPU profile of the 200 costliest run
// over and over for 8 s.
func (ps *productSeries) listWorst(ix *search.Index, o []bench.Request, to, tp []time.Duration) error {
	if ps.worst <= 0 {
		return nil
	}
	idx := make([]int, len(o))
	var extra, over time.Duration // all of the extra; the extra of the queries that cost more
	for i := range idx {
		idx[i] = i
		extra += to[i] - tp[i]
		over += max(to[i]-tp[i], 0)
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(to[b]-tp[b], to[a]-tp[a]) })
	if ps.worstProfile != "" {
		f, err := os.Create(ps.worstProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		var buf []byte
		for end := time.Now().Add(8 * time.Second); time.Now().Before(end); {
			for _, i := range idx[:min(200, len(idx))] {
				buf = ix.AppendJSON(buf[:0], o[i].Query)
			}
		}
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return err
		}
	}
	fmt.Printf("the product queries cost %.0f us more than their twins without the product per pass (those that cost more: %.0f us); the costliest:\n", us(extra), us(over))
	var cum time.Duration
	for k, i := range idx[:min(ps.worst, len(idx))] {
		q := o[i].Query
		cum += to[i] - tp[i]
		fmt.Printf("%4d product %5d (%6d stores) in_stock=%-5v r=%2.0f limit=%2d delivery=%-5v online=%-5v curbside=%-5v at %7.3f,%8.3f: %7.1f us vs %5.1f us (%3.0f%% of the excess so far)\n",
			k+1, q.Product, ix.Products().Stores(q.Product), q.InStock, q.RadiusMiles, q.Limit, q.Delivery, q.OrderOnline, q.Curbside,
			q.Latitude, q.Longitude, us(to[i]), us(tp[i]), 100*float64(cum)/float64(over))
	}
	return nil
}

package maptiles

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// nycTiles are the tiles of zooms 8-14 a view of 1280 x 800 around New York needs (3 x 3 each).
func nycTiles() [][3]int { return tilesAround(nycLon, nycLat) }

// tilesAround are the tiles of zooms 8-14 a view of 1280 x 800 around a point needs.
func tilesAround(lon, lat float64) [][3]int {
	var out [][3]int
	for z := 8; z <= MaxLabelZoom; z++ {
		cx, cy := tileAt(z, lon, lat)
		for x := cx - 1; x <= cx+1; x++ {
			for y := cy - 1; y <= cy+1; y++ {
				out = append(out, [3]int{z, x, y})
			}
		}
	}
	return out
}

// BenchmarkTileCold builds every tile from nothing (a fresh cache each round, the labels of each
// zoom already chosen) and reports the p50 and p99 of one tile's build time.
func BenchmarkTileCold(b *testing.B) { benchmarkTileCold(b, nycTiles()) }

// BenchmarkTileColdChicago is the same around Chicago's Loop, where the tiles hold streets
// (road_major from zoom 11, road_minor from 13, road_label from 14) and Lake Michigan.
func BenchmarkTileColdChicago(b *testing.B) { benchmarkTileCold(b, tilesAround(-87.6278, 41.8819)) }

func benchmarkTileCold(b *testing.B, tiles [][3]int) {
	base := mustBasemap(b)
	for _, t := range tiles { // choose labels and simplify once (per process), outside the timing
		base.labels.chosen(t[0])
		for _, l := range base.layers {
			l.at(t[0])
		}
	}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		bm := newLoadedBasemap(base.layers, base.labels, NewCache(64<<20))
		for _, t := range tiles {
			start := time.Now()
			if _, err := bm.Tile(t[0], t[1], t[2]); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
	}
	reportPercentiles(b, times)
}

// BenchmarkTileCached reads tiles from a warm cache.
func BenchmarkTileCached(b *testing.B) {
	bm := mustBasemap(b)
	tiles := nycTiles()
	for _, t := range tiles {
		if _, err := bm.Tile(t[0], t[1], t[2]); err != nil {
			b.Fatal(err)
		}
	}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, t := range tiles {
			start := time.Now()
			_, _ = bm.Tile(t[0], t[1], t[2])
			times = append(times, time.Since(start))
		}
	}
	reportPercentiles(b, times)
}

// BenchmarkCacheMemory reports the cache's bytes and the heap it holds for the New York tiles.
func BenchmarkCacheMemory(b *testing.B) {
	base := mustBasemap(b)
	tiles := nycTiles()
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		bm := newLoadedBasemap(base.layers, base.labels, NewCache(64<<20))
		for _, t := range tiles {
			if _, err := bm.Tile(t[0], t[1], t[2]); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		s := bm.cache.Stats()
		b.ReportMetric(float64(s.Entries), "tiles")
		b.ReportMetric(float64(s.Bytes)/float64(s.Entries), "cache-B/tile")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(s.Entries), "heap-B/tile")
		runtime.KeepAlive(bm)
	}
}

func reportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	p := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(p(0.5), "p50-µs")
	b.ReportMetric(p(0.99), "p99-µs")
	b.ReportMetric(0, "ns/op")
}

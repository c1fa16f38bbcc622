package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The packed tree against a brute-force scan, through additions, removals
// and the rebuilds they trigger.
func TestPtreeWalkMatchesBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	live := map[uint32]pitem{} // by slot
	next := uint32(0)
	newItem := func() pitem {
		var lat, lon float32
		if rng.IntN(10) == 0 && len(live) > 0 { // some stores share a point
			for _, p := range live {
				lat, lon = p.lat, p.lon
				break
			}
		} else {
			lat, lon = float32(25+rng.Float64()*24), float32(-125+rng.Float64()*58)
		}
		p := pitem{lon: lon, lat: lat, item: treeItem(next, uint8(rng.IntN(8)))}
		live[next] = p
		next++
		return p
	}
	var tr ptree
	var pts []pitem
	for range 3000 {
		pts = append(pts, newItem())
	}
	tr.build(pts, false)

	check := func(step int) {
		t.Helper()
		if tr.len() != len(live) {
			t.Fatalf("step %d: len %d, want %d", step, tr.len(), len(live))
		}
		for range 20 {
			latDeg, lonDeg := 25+rng.Float64()*24, -125+rng.Float64()*58
			q := walkQuery{latDeg: latDeg, lonDeg: lonDeg, lat: latDeg * deg, lon: lonDeg * deg,
				cos: math.Cos(latDeg * deg), sin: math.Sin(latDeg * deg),
				maxA: hav(float64(1+rng.IntN(300)) / EarthRadiusMiles), want: uint32(rng.IntN(8)) << flagShift}
			var want []uint32
			for slot, p := range live {
				if p.item&q.want == q.want && pointA(q.lat, q.lon, q.cos, q.sin, p.lat, p.lon) <= q.maxA {
					want = append(want, slot)
				}
			}
			var got []uint32
			last := -1.0
			tr.walk(&q, func(item uint32, a float64) bool {
				if a < last {
					t.Fatalf("step %d: walk out of order: %g after %g", step, a, last)
				}
				last = a
				got = append(got, item&slotMask)
				return true
			})
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: walk found %d items, brute force %d", step, len(got), len(want))
			}
		}
	}
	check(0)
	rebuilds, deadSeen := 0, 0
	for step := 1; step <= 40; step++ {
		before := len(tr.pts)
		// Additions (past maxExtra now and then) and removals (some from
		// extra, some from the packed part, past the dead bound too).
		for range rng.IntN(300) {
			tr.insert(newItem())
		}
		for range rng.IntN(400) {
			for slot, p := range live {
				tr.delete(p)
				delete(live, slot)
				break
			}
		}
		tr.delete(pitem{lon: 1, lat: 1, item: 12345}) // unknown: ignored
		if len(tr.pts) != before {
			rebuilds++
		}
		deadSeen = max(deadSeen, tr.dead)
		check(step)
	}
	if rebuilds < 3 || deadSeen == 0 {
		t.Fatalf("%d rebuilds, at most %d dead: the test did not exercise them", rebuilds, deadSeen)
	}
	// emit can stop the walk.
	q := walkQuery{latDeg: 37, lonDeg: -95, lat: 37 * deg, lon: -95 * deg, cos: math.Cos(37 * deg), sin: math.Sin(37 * deg), maxA: 1}
	n := 0
	tr.walk(&q, func(uint32, float64) bool { n++; return n < 5 })
	if n != 5 {
		t.Fatalf("walk went on after emit said stop: %d", n)
	}
	// An empty tree walks nothing.
	var empty ptree
	empty.build(nil, false)
	empty.walk(&q, func(uint32, float64) bool { t.Fatal("item in an empty tree"); return false })
}

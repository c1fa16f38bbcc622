package storegen_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"locator/internal/storegen"
	"locator/internal/stores"
)

// Grid.Nearest is the brute-force nearest point, near and far from any.
func TestGridNearest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([][2]float64, 2000)
	for i := range pts {
		pts[i] = [2]float64{25 + rng.Float64()*24, -124 + rng.Float64()*57}
	}
	at := func(i int) (float64, float64) { return pts[i][0], pts[i][1] }
	g := storegen.NewGrid(len(pts), at)
	for k := 0; k < 500; k++ {
		lat, lon := 20+rng.Float64()*35, -130+rng.Float64()*70
		cosLat := math.Cos(lat * math.Pi / 180)
		best, bestD := -1, math.Inf(1)
		for i, p := range pts {
			dl, do := p[0]-lat, (p[1]-lon)*cosLat
			if d := dl*dl + do*do; d < bestD {
				best, bestD = i, d
			}
		}
		if got := g.Nearest(lat, lon); got != best {
			t.Fatalf("Nearest(%v, %v) = %d, brute force %d", lat, lon, got, best)
		}
	}
	if got := storegen.NewGrid(0, at).Nearest(40, -74); got != -1 {
		t.Fatalf("empty grid: %d, want -1", got)
	}
}

// A zero weight is never drawn; the others in proportion.
func TestPick(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	counts := make([]int, 4)
	for i := 0; i < 100_000; i++ {
		counts[storegen.Pick(rng, []int{50, 30, 20, 0})]++
	}
	if counts[3] != 0 {
		t.Fatalf("weight 0 drawn %d times", counts[3])
	}
	for i, want := range []int{50_000, 30_000, 20_000} {
		if d := counts[i] - want; d < -1500 || d > 1500 {
			t.Errorf("index %d drawn %d times, want about %d", i, counts[i], want)
		}
	}
}

// Dress fills every field it owns, and a Style without missing phones,
// bare names or "Call for hours" never makes them.
func TestDress(t *testing.T) {
	st := storegen.Style{
		First:       storegen.FirstWords,
		WeekWeights: []int{30, 20, 15, 10, 10, 8, 7, 0},
		Image:       func(*rand.Rand, int) string { return "img" },
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		s := &stores.Store{City: "Springfield"}
		st.Dress(rng, s, i+1)
		if s.Name == "" || s.PhoneNumber == "" || s.Address == "" || s.Hours == "" || len(s.WorkingHours) != 7 {
			t.Fatalf("store %d: %+v", i, s)
		}
		if s.Image != "" && s.Image != "img" {
			t.Fatalf("store %d: image %q", i, s.Image)
		}
	}
}

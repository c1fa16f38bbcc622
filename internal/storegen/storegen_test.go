package storegen_test

import (
	"math"
	"math/rand/v2"
	"slices"
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

// A phone's area code is the one of the store's part of its state.
func TestLocalAreaCodes(t *testing.T) {
	for _, c := range []struct {
		place    string
		state    string
		lat, lon float64
		want     int
	}{
		{"Midtown Manhattan", "NY", 40.754, -73.984, 212},
		{"Lower Manhattan", "NY", 40.709, -74.011, 212},
		{"Park Slope, Brooklyn", "NY", 40.672, -73.977, 718},
		{"Flushing, Queens", "NY", 40.759, -73.830, 718},
		{"Hempstead", "NY", 40.706, -73.619, 516},
		{"Buffalo", "NY", 42.886, -78.878, 716},
		{"Albany", "NY", 42.653, -73.756, 518},
		{"Jersey City", "NJ", 40.718, -74.043, 201},
		{"Newark", "NJ", 40.736, -74.172, 973},
		{"Houston", "TX", 29.760, -95.370, 713},
		{"Dallas", "TX", 32.777, -96.797, 214},
		{"El Paso", "TX", 31.762, -106.485, 915},
		{"San Francisco", "CA", 37.775, -122.419, 415},
		{"Downtown Los Angeles", "CA", 34.052, -118.244, 213},
		{"San Diego", "CA", 32.716, -117.161, 619},
		{"Chicago Loop", "IL", 41.881, -87.628, 312},
		{"Miami", "FL", 25.762, -80.192, 305},
		{"Seattle", "WA", 47.606, -122.332, 206},
		{"Anchorage", "AK", 61.218, -149.900, 907},
	} {
		got := storegen.LocalAreaCodes(c.state, c.lat, c.lon)
		if !slices.Contains(got, c.want) {
			t.Errorf("%s, %s: area codes %v, want %d among them", c.place, c.state, got, c.want)
		}
		for _, code := range got {
			if !slices.Contains(storegen.AreaCodes(c.state), code) {
				t.Errorf("%s: %d is not among %s's codes", c.place, code, c.state)
			}
		}
	}
	if got := storegen.LocalAreaCodes("ZZ", 40, -74); got != nil {
		t.Errorf("unknown state: %v", got)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	s := &stores.Store{State: "NY", Latitude: 40.754, Longitude: -73.984}
	for range 200 {
		p := storegen.PhoneAt(rng, s)
		if len(p) != 12 || !slices.Contains([]string{"+1212", "+1646", "+1332", "+1917"}, p[:5]) || p[5:10] != "55501" {
			t.Fatalf("Manhattan phone %s", p)
		}
	}
}

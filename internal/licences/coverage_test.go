package licences

import "testing"

func TestCoverageCovers(t *testing.T) {
	t.Parallel()
	// Two licences in Manhattan and one on Fiji's side of the antimeridian.
	c := NewCoverage([][2]float64{{40.7437, -73.9935}, {40.7078, -74.0015}, {-16.5, 179.95}})
	cases := []struct {
		name             string
		lat, lon, radius float64
		want             bool
	}{
		{"Manhattan, 30 miles", 40.758, -73.9855, 30, true},
		{"Hoboken, 1 mile (the box touches Manhattan's cell)", 40.744, -74.032, 1, true},
		{"Austin, 30 miles", 30.2672, -97.7431, 30, false},
		{"Philadelphia, 30 miles", 39.9526, -75.1652, 30, false},
		{"Philadelphia, 100 miles (reaches New York)", 39.9526, -75.1652, 100, true},
		{"the whole country (more box cells than covered ones)", 39.8, -98.6, 3000, true},
		{"Fiji across the antimeridian", -16.5, -179.95, 10, true},
		{"Fiji across the antimeridian, wide", -16.5, -179.95, 2000, true},
		{"a pole", 90, 0, 30, false},
	}
	for _, tc := range cases {
		if got := c.Covers(tc.lat, tc.lon, tc.radius); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	var none *Coverage
	if none.Covers(40.758, -73.9855, 30) || NewCoverage(nil).Covers(40.758, -73.9855, 30) {
		t.Error("no registry covers somewhere")
	}
}

// TestCoverageProbe covers a registry wider than the searched box, so the
// box's cells are probed one by one (across the antimeridian too).
func TestCoverageProbe(t *testing.T) {
	t.Parallel()
	var points [][2]float64
	for la := 0; la < 20; la++ {
		for lo := 0; lo < 20; lo++ {
			points = append(points, [2]float64{-18 + float64(la)*0.1 + 0.05, 178.05 + float64(lo)*0.1}) // 178°E..180°
		}
	}
	c := NewCoverage(points)
	for _, tc := range []struct {
		lat, lon float64
		want     bool
	}{{-17, 179.5, true}, {-17, -179.97, true}, {-17, -179.5, false}, {-10, 179.5, false}} {
		if got := c.Covers(tc.lat, tc.lon, 3); got != tc.want {
			t.Errorf("(%v, %v): got %v, want %v", tc.lat, tc.lon, got, tc.want)
		}
	}
}

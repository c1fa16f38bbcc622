package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The walk's fast forms must keep their promises: boxLowerA never above the
// exact term of a point in the box; pointA within 1e-9 relative of it
// within 100 miles.
func TestFastHaversineForms(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300000; i++ {
		qlat, qlon := -85+rng.Float64()*170, -180+rng.Float64()*360
		qr, qo := qlat*deg, qlon*deg
		qcos, qsin := math.Cos(qr), math.Sin(qr)
		lat0, lon0 := float32(-85+rng.Float64()*170), float32(-180+rng.Float64()*358)
		if i%2 == 0 { // near the query, where precision matters
			lat0, lon0 = float32(qlat+rng.NormFloat64()*0.5), float32(qlon+rng.NormFloat64()*0.5)
			lat0, lon0 = float32(math.Max(-89, math.Min(89, float64(lat0)))), float32(math.Max(-179, math.Min(179, float64(lon0))))
		}
		lat1 := float32(math.Min(89.9, float64(lat0)+rng.Float64()*2))
		lon1 := float32(math.Min(179.9, float64(lon0)+rng.Float64()*2))
		lb := boxLowerA(qlat, qlon, qcos, lat0, lon0, lat1, lon1)
		for k := 0; k < 6; k++ {
			plat := lat0 + (lat1-lat0)*float32(rng.Float64())
			plon := lon0 + (lon1-lon0)*float32(rng.Float64())
			if k < 2 {
				plat = []float32{lat0, lat1}[k]
			}
			exact := havTerm(qr, qo, qcos, float64(plat), float64(plon))
			if lb > exact {
				t.Fatalf("box bound %g > exact %g (q %f,%f box %f %f %f %f)", lb, exact, qlat, qlon, lat0, lon0, lat1, lon1)
			}
			fast := pointA(qr, qo, qcos, qsin, plat, plon)
			if 2*math.Asin(math.Sqrt(exact))*EarthRadiusMiles <= 100 && math.Abs(fast-exact) > 1e-9*exact+1e-300 {
				t.Fatalf("pointA %g, exact %g (q %f,%f p %f %f)", fast, exact, qlat, qlon, plat, plon)
			}
		}
	}
}

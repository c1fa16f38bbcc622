package search

import "math"

// EarthRadiusMiles is the mean Earth radius used for every distance.
const EarthRadiusMiles = 3958.7613

const deg = math.Pi / 180

// DistanceMiles is the great-circle (haversine) distance between two points.
func DistanceMiles(lat1, lon1, lat2, lon2 float64) float64 {
	return centralAngle(lat1*deg, lon1*deg, math.Cos(lat1*deg), lat2, lon2) * EarthRadiusMiles
}

// centralAngle is the haversine angle in radians from a query point (in
// radians, with its cosine precomputed) to a point in degrees.
func centralAngle(qlat, qlon, qcos, lat, lon float64) float64 {
	return 2 * math.Asin(math.Sqrt(havTerm(qlat, qlon, qcos, lat, lon)))
}

// havTerm is the haversine term a = sin²(angle/2) (0..1) of centralAngle:
// it orders points like the angle does, without asin and sqrt.
func havTerm(qlat, qlon, qcos, lat, lon float64) float64 {
	la, lo := lat*deg, lon*deg
	sdlat := math.Sin((la - qlat) / 2)
	sdlon := math.Sin((lo - qlon) / 2)
	a := sdlat*sdlat + qcos*math.Cos(la)*sdlon*sdlon
	if a > 1 {
		a = 1
	}
	return a
}

// hav is sin²(angle/2), the haversine term of an angle in radians.
func hav(angle float64) float64 {
	s := math.Sin(angle / 2)
	return s * s
}

// lonGap is the angular difference between two longitudes, 0..180 degrees.
func lonGap(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	if d > 180 {
		d = 360 - d
	}
	return d
}

// The search walk evaluates thousands of boxes and points per query; Go's
// math.Sin/Cos/Asin cost ~15 ns each and were a third of the walk. The two
// functions below work in the haversine term a = sin²(angle/2) with short
// Taylor polynomials instead:
//   - boxLowerA is a strict lower bound (every truncation errs low), so the
//     walk never skips a box that holds an answer;
//   - pointA is accurate to ~1e-10 relative within 100 miles (the largest
//     radius), which is far below the 1 m slack the walk allows for; farther
//     away it may err, but never below the latitude term, which alone puts
//     such a point beyond any radius.
// Exact distances of answers still come from centralAngle (float64 math).

// boxLowerA bounds from below the haversine term from the query (degrees,
// with qcos = cos(latitude)) to any point of the box (degrees).
func boxLowerA(qlatDeg, qlonDeg, qcos float64, minLat, minLon, maxLat, maxLon float32) float64 {
	var dlat, dlon float64
	if lo := float64(minLat); qlatDeg < lo {
		dlat = lo - qlatDeg
	} else if hi := float64(maxLat); qlatDeg > hi {
		dlat = qlatDeg - hi
	}
	if lo, hi := float64(minLon), float64(maxLon); qlonDeg < lo {
		dlon = lo - qlonDeg
	} else if qlonDeg > hi {
		dlon = qlonDeg - hi
	}
	if dlon > 180 { // the other way round the globe is shorter
		dlon = lonGap(qlonDeg, float64(minLon))
		if g := lonGap(qlonDeg, float64(maxLon)); g < dlon {
			dlon = g
		}
	}
	x, y := dlat*deg/2, dlon*deg/2 // 0..pi/2
	sx := x - x*x*x/6              // <= sin x, >= 0 on 0..pi/2
	sy := y - y*y*y/6
	far := math.Max(math.Abs(float64(minLat)), math.Abs(float64(maxLat))) * deg
	f2 := far * far
	cosFar := 1 - f2/2 + f2*f2/24 - f2*f2*f2/720 // <= cos far
	if cosFar < 0 {
		cosFar = 0
	}
	a := (sx*sx + qcos*cosFar*sy*sy) * (1 - 1e-9) // room for rounding
	return a
}

// pointA is the haversine term from the query (radians, qcos and qsin its
// latitude's cosine and sine) to a point in degrees.
func pointA(qlat, qlon, qcos, qsin float64, latDeg, lonDeg float32) float64 {
	d := float64(latDeg)*deg - qlat
	l := float64(lonDeg)*deg - qlon
	if l > math.Pi {
		l -= 2 * math.Pi
	} else if l < -math.Pi {
		l += 2 * math.Pi
	}
	x, y, d2 := d/2, l/2, d*d
	x2, y2 := x*x, y*y
	sx := x * (1 - x2/6*(1-x2/20)) // sin x to x^5
	sy := y * (1 - y2/6*(1-y2/20))
	// cos(lat) = cos(qlat+d) from cos d and sin d to d^4 and d^5.
	cosLat := qcos*(1-d2/2*(1-d2/12)) - qsin*d*(1-d2/6*(1-d2/20))
	if cosLat < 0 {
		cosLat = 0
	}
	a := sx*sx + qcos*cosLat*sy*sy
	if a > 1 {
		a = 1
	}
	return a
}

package stores

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
	la, lo := lat*deg, lon*deg
	sdlat := math.Sin((la - qlat) / 2)
	sdlon := math.Sin((lo - qlon) / 2)
	a := sdlat*sdlat + qcos*math.Cos(la)*sdlon*sdlon
	if a > 1 {
		a = 1
	}
	return 2 * math.Asin(math.Sqrt(a))
}

// boxSlack covers float32 rounding of index coordinates (<1 m) so the lower
// bound below stays a lower bound for the float64 points inside a box.
const boxSlack = 3.0 / (EarthRadiusMiles * 1609.344) // 3 m in radians

// boxLowerBound is a lower bound, in radians, of the great-circle distance
// from the query point to any point of the lat/lon box. Two bounds hold for
// every point of the box, and the larger is used:
//   - the latitude gap: a path cannot be shorter than its change of latitude;
//   - the longitude gap: the distance to the meridian great circle at
//     longitude gap d is asin(cos(qlat)*sin(d)), growing with d up to 90 deg.
func boxLowerBound(qlatDeg, qlonDeg, qcos float64, minLat, minLon, maxLat, maxLon float32) float64 {
	var dlat, dlon float64
	if lo := float64(minLat); qlatDeg < lo {
		dlat = lo - qlatDeg
	} else if hi := float64(maxLat); qlatDeg > hi {
		dlat = qlatDeg - hi
	}
	if lo, hi := float64(minLon), float64(maxLon); qlonDeg < lo || qlonDeg > hi {
		// Outside the box: the gap to the nearer edge, either way round.
		dlon = math.Min(lonGap(qlonDeg, lo), lonGap(qlonDeg, hi))
	}
	lb := dlat * deg
	if dlon > 0 {
		if dlon > 90 {
			dlon = 90
		}
		if m := math.Asin(qcos * math.Sin(dlon*deg)); m > lb {
			lb = m
		}
	}
	lb -= boxSlack
	if lb < 0 {
		return 0
	}
	return lb
}

// lonGap is the angular difference between two longitudes, 0..180 degrees.
func lonGap(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	if d > 180 {
		d = 360 - d
	}
	return d
}

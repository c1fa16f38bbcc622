package storegen

import "math"

// Grid finds the nearest of a set of points (cities, ZIP codes) by
// 1-degree cells, searching rings of cells outwards.
type Grid struct {
	cells map[[2]int][]int32
	at    func(i int) (lat, lon float64)
}

func cellOf(lat, lon float64) [2]int { return [2]int{int(math.Floor(lat)), int(math.Floor(lon))} }

// NewGrid indexes n points; at(i) is point i.
func NewGrid(n int, at func(i int) (lat, lon float64)) *Grid {
	g := &Grid{cells: make(map[[2]int][]int32), at: at}
	for i := 0; i < n; i++ {
		k := cellOf(at(i))
		g.cells[k] = append(g.cells[k], int32(i))
	}
	return g
}

// Nearest is the index of the point nearest to lat, lon (equirectangular
// distance), -1 when the grid is empty or none is within 60 degrees.
func (g *Grid) Nearest(lat, lon float64) int {
	c := cellOf(lat, lon)
	best, bestD := -1, math.Inf(1)
	cosLat := math.Cos(lat * math.Pi / 180)
	for r := 0; r < 60; r++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if max(abs(dx), abs(dy)) != r {
					continue
				}
				for _, i := range g.cells[[2]int{c[0] + dy, c[1] + dx}] {
					plat, plon := g.at(int(i))
					dl, do := plat-lat, (plon-lon)*cosLat
					if dd := dl*dl + do*do; dd < bestD {
						best, bestD = int(i), dd
					}
				}
			}
		}
		// Every cell of ring r+1 is at least r degrees of latitude or
		// r*cos(lat) of longitude away.
		if best >= 0 && math.Sqrt(bestD) <= float64(r)*cosLat {
			break
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

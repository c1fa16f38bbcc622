package seed

import "math"

// zipGrid finds the nearest postal code of a point by 0.5-degree cells.
type zipGrid struct {
	cells map[[2]int][]ZIP
}

const cell = 0.5

func key(lat, lon float64) [2]int {
	return [2]int{int(math.Floor(lat / cell)), int(math.Floor(lon / cell))}
}

func newZipGrid(zs []ZIP) *zipGrid {
	g := &zipGrid{cells: map[[2]int][]ZIP{}}
	for _, z := range zs {
		k := key(z.Lat, z.Lon)
		g.cells[k] = append(g.cells[k], z)
	}
	return g
}

// nearest returns the code of the nearest ZIP within the neighbouring cells, "" if none.
func (g *zipGrid) nearest(lat, lon float64) string {
	k := key(lat, lon)
	best, bestD := "", math.Inf(1)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			for _, z := range g.cells[[2]int{k[0] + dy, k[1] + dx}] {
				d := (z.Lat-lat)*(z.Lat-lat) + (z.Lon-lon)*(z.Lon-lon)*math.Cos(lat*math.Pi/180)*math.Cos(lat*math.Pi/180)
				if d < bestD {
					best, bestD = z.Code, d
				}
			}
		}
	}
	return best
}

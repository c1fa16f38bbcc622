package maptiles

import (
	"fmt"
	"math"
	"sync"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// Water answers whether a point lies in the basemap's "water" layer: the seas, bays, tidal
// rivers and lakes of OpenStreetMap the map draws from WaterMinZoom on, around the contiguous
// United States. The demo data asks it so that no made-up store stands in the Hudson or in Lake
// Michigan (storegen.Options.InWater). Safe for concurrent use.
type Water struct {
	shapes []shape
	// cells maps a cell of waterGrid x waterGrid over the world (Web Mercator) to the shapes
	// whose bounds touch it. The layer is cut into cells of a quarter degree already
	// (tools/basemap), so each shape sits in a cell or two.
	cells map[int][]int32
}

// waterGrid: cells of 1/4096 of the world (about 0.09 degrees of longitude), a few shapes each.
const waterGrid = 4096

// LoadWater is the embedded basemap's water layer, indexed once per process (read-only after).
func LoadWater() (*Water, error) { return loadWater() }

var loadWater = sync.OnceValues(indexWater)

func indexWater() (*Water, error) {
	layers, err := loadBasemap()
	if err != nil {
		return nil, err
	}
	for _, l := range layers {
		if l.name != "water" {
			continue
		}
		w := &Water{shapes: l.full, cells: make(map[int][]int32)}
		for i, sh := range l.full {
			x0, y0 := waterCell(sh.bound.Min)
			x1, y1 := waterCell(sh.bound.Max)
			for x := x0; x <= x1; x++ {
				for y := y0; y <= y1; y++ {
					k := y*waterGrid + x
					w.cells[k] = append(w.cells[k], int32(i))
				}
			}
		}
		return w, nil
	}
	return nil, fmt.Errorf("maptiles: the basemap has no water layer")
}

func waterCell(p orb.Point) (x, y int) {
	clamp := func(v float64) int { return max(0, min(waterGrid-1, int(math.Floor(v*waterGrid)))) }
	return clamp(p[0]), clamp(p[1])
}

// Contains tells whether lat, lon is in the water.
func (w *Water) Contains(lat, lon float64) bool {
	p := worldPoint(lon, lat)
	x, y := waterCell(p)
	for _, i := range w.cells[y*waterGrid+x] {
		sh := &w.shapes[i]
		if !sh.bound.Contains(p) {
			continue
		}
		if poly, ok := sh.geom.(orb.Polygon); ok && planar.PolygonContains(poly, p) {
			return true
		}
	}
	return false
}

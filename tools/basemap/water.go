package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/clip"
	"github.com/paulmach/orb/simplify"

	"locator/internal/maptiles/basemapfile"
)

// waterAreas are where the "water" layer draws the seas, bays and tidal rivers of
// @geo-maps/earth-seas-10m (OpenStreetMap's coastline, ~10 m) over the 1:10m land, which draws
// the Hudson and the East River as land, and the lakes, ponds and reservoirs of
// @geo-maps/earth-lakes-10m (OpenStreetMap's natural=water of 2 ha or more; rivers mapped as
// riverbanks are not in it): the contiguous United States. The layer is drawn from
// waterMinZoom (internal/maptiles), where the coarse shoreline shows.
var waterAreas = []orb.Bound{
	{Min: orb.Point{-125, 24.3}, Max: orb.Point{-66.8, 49.5}},
}

// waterCell is the side of the cells (degrees) the water is cut into: a tile then clips only
// the few cells it overlaps, not the whole coast.
const waterCell = 0.25

// waterTolerance is the Douglas-Peucker tolerance (degrees, ~5 m): below the source's error.
const waterTolerance = 0.00005

// readSeas reads a @geo-maps package's GeometryCollection of (multi)polygons.
func readSeas(path string) ([]orb.Polygon, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var gc struct {
		Geometries []struct {
			Type        string          `json:"type"`
			Coordinates json.RawMessage `json:"coordinates"`
		} `json:"geometries"`
	}
	if err := json.Unmarshal(b, &gc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []orb.Polygon
	for _, g := range gc.Geometries {
		switch g.Type {
		case "Polygon":
			var p orb.Polygon
			if err := json.Unmarshal(g.Coordinates, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			out = append(out, p)
		case "MultiPolygon":
			var mp orb.MultiPolygon
			if err := json.Unmarshal(g.Coordinates, &mp); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			out = append(out, mp...)
		}
	}
	return out, nil
}

// waterLayer cuts the seas to waterAreas, in cells of waterCell degrees (a cell all land is
// left out), simplified to waterTolerance.
func waterLayer(seas []orb.Polygon) basemapfile.Layer {
	layer := basemapfile.Layer{Name: "water", Kind: basemapfile.Polygons}
	s := simplify.DouglasPeucker(waterTolerance)
	for _, area := range waterAreas {
		var in []orb.Polygon
		for _, p := range seas {
			if c := clipPolygon(area, p); c != nil {
				in = append(in, c)
			}
		}
		cut(area, in, func(cell orb.Bound, p orb.Polygon) {
			p, ok := s.Simplify(p).(orb.Polygon)
			if !ok || len(p) == 0 || len(p[0]) < 4 || waterArea(p) < 1e-9 {
				return
			}
			f := basemapfile.Feature{}
			for _, r := range p {
				pts := make([][2]float64, len(r))
				for i, q := range r {
					pts[i] = [2]float64{q[0], q[1]}
				}
				f.Parts = append(f.Parts, encode(pts))
			}
			layer.Features = append(layer.Features, f)
		})
	}
	return layer
}

// cut splits polygons ps (already inside b) into quadrants until a side is at most waterCell,
// then emits each piece: each level clips only what the level above kept.
func cut(b orb.Bound, ps []orb.Polygon, emit func(orb.Bound, orb.Polygon)) {
	if len(ps) == 0 {
		return
	}
	if b.Max[0]-b.Min[0] <= waterCell && b.Max[1]-b.Min[1] <= waterCell {
		for _, p := range ps {
			emit(b, p)
		}
		return
	}
	mid := b.Center()
	for _, q := range []orb.Bound{
		{Min: b.Min, Max: mid}, {Min: orb.Point{mid[0], b.Min[1]}, Max: orb.Point{b.Max[0], mid[1]}},
		{Min: orb.Point{b.Min[0], mid[1]}, Max: orb.Point{mid[0], b.Max[1]}}, {Min: mid, Max: b.Max},
	} {
		var in []orb.Polygon
		for _, p := range ps {
			if c := clipPolygon(q, p); c != nil {
				in = append(in, c)
			}
		}
		cut(q, in, emit)
	}
}

// clipPolygon clips p to b (holes whose bounds miss b are dropped before clipping); nil when
// nothing, or only land, is left.
func clipPolygon(b orb.Bound, p orb.Polygon) orb.Polygon {
	if len(p) == 0 || !p[0].Bound().Intersects(b) {
		return nil
	}
	out := orb.Polygon{clip.Ring(b, orb.Clone(p[0]).(orb.Ring))}
	if len(out[0]) < 4 {
		return nil
	}
	for _, h := range p[1:] {
		if !h.Bound().Intersects(b) {
			continue
		}
		if c := clip.Ring(b, orb.Clone(h).(orb.Ring)); len(c) >= 4 {
			out = append(out, c)
		}
	}
	if waterArea(out) < 1e-12 {
		return nil
	}
	return out
}

// waterArea is p's outer ring's area less its holes' (square degrees).
func waterArea(p orb.Polygon) float64 {
	a := math.Abs(ringArea(p[0]))
	for _, h := range p[1:] {
		a -= math.Abs(ringArea(h))
	}
	return a
}

func ringArea(r orb.Ring) float64 {
	var s float64
	for i := range r {
		j := (i + 1) % len(r)
		s += r[i][0]*r[j][1] - r[j][0]*r[i][1]
	}
	return s / 2
}

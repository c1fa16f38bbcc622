package maptiles

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/gob"
	"fmt"
	"math"
	"sync"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/simplify"

	"locator/internal/maptiles/basemapfile"
)

// basemap.bin.gz: land, country, state and county lines, water, and the streets of the two
// cities that have them, built by `go run ./tools/basemap` (tools/basemap/README.md).
//
//go:embed basemap.bin.gz
var basemapData []byte

// shape is one polygon or line in world coordinates (Web Mercator, 0..1
// from the west and from the north), with its bounds.
type shape struct {
	bound orb.Bound
	geom  orb.Geometry // orb.Polygon or orb.LineString
	name  string       // the "name" property in tiles (street names of road_label), or ""
}

// geoLayer is one layer of the basemap at full detail, and simplified
// copies made on first use for the low zooms (simplifying the whole world
// for every low-zoom tile would cost more than clipping it).
type geoLayer struct {
	name    string
	polygon bool
	full    []shape
	levels  [simplifiedZooms]struct {
		once   sync.Once
		shapes []shape
	}
}

// simplifiedZooms: tiles below this zoom use data simplified for their zoom;
// from it on the sources' own detail (1:10m-1:50m) is coarser than a tile's
// pixel anyway.
const simplifiedZooms = 9

// at returns the layer's shapes for tiles of zoom z.
func (l *geoLayer) at(z int) []shape {
	if z >= simplifiedZooms {
		return l.full
	}
	lv := &l.levels[z]
	lv.once.Do(func() {
		// A quarter of a tile pixel (extent units) at this zoom, in world units.
		s := simplify.DouglasPeucker(0.25 / (extent * math.Exp2(float64(z))))
		for _, sh := range l.full {
			g := s.Simplify(orb.Clone(sh.geom))
			if g == nil || !valid(g) {
				continue
			}
			lv.shapes = append(lv.shapes, shape{bound: g.Bound(), geom: g, name: sh.name})
		}
	})
	return lv.shapes
}

func valid(g orb.Geometry) bool {
	switch g := g.(type) {
	case orb.Polygon:
		return len(g) > 0 && len(g[0]) >= 4
	case orb.LineString:
		return len(g) >= 2
	}
	return false
}

// loadBasemap is the embedded basemap decoded once per process: the layers are never changed
// after decoding (each level's simplified shapes are built under their own sync.Once), so the
// tile server and the seed's water test share one copy. Decoding costs seconds of CPU; the
// command-line tests run serve and seed many times in one process.
var loadBasemap = sync.OnceValues(decodeBasemap)

// decodeBasemap decodes the embedded file into world coordinates.
func decodeBasemap() ([]*geoLayer, error) {
	zr, err := gzip.NewReader(bytes.NewReader(basemapData))
	if err != nil {
		return nil, fmt.Errorf("maptiles: basemap: %w", err)
	}
	var f basemapfile.File
	if err := gob.NewDecoder(zr).Decode(&f); err != nil {
		return nil, fmt.Errorf("maptiles: basemap: %w", err)
	}
	if f.Version != basemapfile.Version {
		return nil, fmt.Errorf("maptiles: basemap version %d, want %d (run go run ./tools/basemap)", f.Version, basemapfile.Version)
	}
	var out []*geoLayer
	for _, l := range f.Layers {
		gl := &geoLayer{name: l.Name, polygon: l.Kind == basemapfile.Polygons}
		for _, feat := range l.Features {
			var rings []orb.Ring
			for _, part := range feat.Parts {
				rings = append(rings, decodePart(part))
			}
			if gl.polygon {
				p := orientPolygon(rings)
				if len(p) == 0 || len(p[0]) < 4 {
					continue
				}
				gl.full = append(gl.full, shape{bound: p.Bound(), geom: p})
				continue
			}
			for _, r := range rings {
				ls := orb.LineString(r)
				if len(ls) < 2 {
					continue
				}
				gl.full = append(gl.full, shape{bound: ls.Bound(), geom: ls, name: feat.Name})
			}
		}
		out = append(out, gl)
	}
	return out, nil
}

func decodePart(part []int32) orb.Ring {
	r := make(orb.Ring, 0, len(part)/2)
	var x, y int32
	for i := 0; i+1 < len(part); i += 2 {
		x += part[i]
		y += part[i+1]
		r = append(r, worldPoint(float64(x)/basemapfile.Scale, float64(y)/basemapfile.Scale))
	}
	return r
}

// orientPolygon closes the rings and winds them as vector tiles want them
// once projected (y down): the outer ring with a positive area, holes
// negative (orb calls those CCW and CW).
func orientPolygon(rings []orb.Ring) orb.Polygon {
	p := make(orb.Polygon, 0, len(rings))
	for i, r := range rings {
		if len(r) < 3 {
			continue
		}
		if !r.Closed() {
			r = append(r, r[0])
		}
		want := orb.CCW
		if i > 0 {
			want = orb.CW
		}
		if r.Orientation() != want {
			r.Reverse()
		}
		p = append(p, r)
	}
	return p
}

// maxLat is where Web Mercator's square world ends.
const maxLat = 85.0511287798066

// worldPoint projects a longitude and latitude to world coordinates: 0..1
// from the west and from the north (Web Mercator).
func worldPoint(lon, lat float64) orb.Point {
	lat = math.Max(-maxLat, math.Min(maxLat, lat))
	sin := math.Sin(lat * math.Pi / 180)
	y := 0.5 - math.Log((1+sin)/(1-sin))/(4*math.Pi)
	return orb.Point{(lon + 180) / 360, math.Max(0, math.Min(1, y))}
}

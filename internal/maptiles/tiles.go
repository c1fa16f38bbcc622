// Package maptiles serves the map's tiles: the offline basemap the binary
// builds itself as Mapbox Vector Tiles (land, water, country, state and
// county lines and, in two cities, streets from the embedded basemap file;
// place labels from the embedded gazetteer), or the tiles of a PMTiles
// archive (a street map an operator downloads once), with the MapLibre
// style that draws them.
package maptiles

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/clip"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"golang.org/x/sync/singleflight"

	"locator/internal/places"
)

const (
	// extent is the tiles' coordinate range (MVT's usual 4096).
	extent = 4096
	// buffer around each tile, in extent units, so lines and fills do not
	// end visibly at tile edges.
	buffer = 64
	// tileSize is the tiles' size in CSS pixels (MapLibre's for vector tiles).
	tileSize = 512
)

// countyMinZoom: county lines are left out below it, where they would be
// a grey haze over the states.
const countyMinZoom = 6

// layerMinZoom is the first zoom whose tiles hold a layer (0 if missing).
var layerMinZoom = map[string]int{
	"state": 2, "county": countyMinZoom, "water": WaterMinZoom,
	"road_major": roadMajorMinZoom, "road_minor": roadMinorMinZoom, "road_label": roadLabelMinZoom,
}

// The streets (only where tools/basemap found street data: central Chicago and part of San
// Francisco, see StreetAreas): main roads from zoom 11, every street from 13, their names from 14.
const (
	roadMajorMinZoom = 11
	roadMinorMinZoom = 13
	roadLabelMinZoom = 14
)

// WaterMinZoom is the first zoom of the "water" layer (OpenStreetMap's seas, bays and tidal
// rivers around the United States, tools/basemap water.go), drawn over the land: from here on the
// 1:10m shoreline is coarser than a few pixels (it draws the Hudson as land).
const WaterMinZoom = 8

// ErrNoTile is the answer for coordinates outside the tile pyramid.
var ErrNoTile = errors.New("maptiles: no such tile")

// Basemap builds the offline basemap's tiles, each once while it stays in
// its cache. Safe for concurrent use.
type Basemap struct {
	labels *labeler
	cache  *Cache
	group  singleflight.Group

	// The embedded layers are decoded in the background (0.2 s before the water's lakes and
	// the streets, 0.75 s since: docs/performance-history.md, "Map data"), so the start-up does not
	// wait for them; a tile does, until loaded is closed.
	loaded  chan struct{}
	layers  []*geoLayer
	loadErr error
}

// NewBasemap starts decoding the embedded basemap; ps are the places to label
// (places.Gazetteer.MapPlaces). Tiles are kept in a cache of cacheBytes.
func NewBasemap(ps []places.MapPlace, cacheBytes int) (*Basemap, error) {
	b := &Basemap{labels: newLabeler(ps), cache: NewCache(cacheBytes), loaded: make(chan struct{})}
	go func() {
		defer close(b.loaded)
		b.layers, b.loadErr = loadBasemap()
	}()
	return b, nil
}

// newLoadedBasemap is a Basemap over layers decoded already (the benchmarks' fresh caches).
func newLoadedBasemap(layers []*geoLayer, labels *labeler, cache *Cache) *Basemap {
	b := &Basemap{layers: layers, labels: labels, cache: cache, loaded: make(chan struct{})}
	close(b.loaded)
	return b
}

// Layers waits until the embedded layers are decoded; the error is the decoder's (an embedded
// file that does not decode: TestEmbeddedBasemapUpToDate keeps that from shipping).
func (b *Basemap) Layers() error {
	<-b.loaded
	return b.loadErr
}

// Cache is the basemap's tile cache.
func (b *Basemap) Cache() *Cache { return b.cache }

// ValidTile tells whether z/x/y is a tile of the basemap (zoom 0 to
// MaxLabelZoom).
func ValidTile(z, x, y, maxZoom int) bool {
	if z < 0 || z > maxZoom {
		return false
	}
	n := 1 << z
	return x >= 0 && x < n && y >= 0 && y < n
}

// Tile returns the gzip-compressed vector tile z/x/y, or ErrNoTile.
func (b *Basemap) Tile(z, x, y int) ([]byte, error) {
	if !ValidTile(z, x, y, MaxLabelZoom) {
		return nil, ErrNoTile
	}
	key := fmt.Sprintf("%d/%d/%d", z, x, y)
	if t, ok := b.cache.Get(key); ok {
		return t, nil
	}
	v, err, _ := b.group.Do(key, func() (any, error) {
		t, err := b.build(z, x, y)
		if err != nil {
			return nil, err
		}
		b.cache.Put(key, t)
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

// build makes tile z/x/y: the basemap's layers clipped to the tile and its
// buffer, in tile coordinates, and the labels chosen for its zoom.
func (b *Basemap) build(z, x, y int) ([]byte, error) {
	if err := b.Layers(); err != nil {
		return nil, err
	}
	n := math.Exp2(float64(z))
	pad := float64(buffer) / extent
	bound := orb.Bound{
		Min: orb.Point{(float64(x) - pad) / n, (float64(y) - pad) / n},
		Max: orb.Point{(float64(x) + 1 + pad) / n, (float64(y) + 1 + pad) / n},
	}
	toTile := func(p orb.Point) orb.Point {
		return orb.Point{math.Round((p[0]*n - float64(x)) * extent), math.Round((p[1]*n - float64(y)) * extent)}
	}
	var layers mvt.Layers
	for _, l := range b.layers {
		fc := geojson.NewFeatureCollection()
		if z < layerMinZoom[l.name] {
			layers = append(layers, newLayer(l.name, fc))
			continue
		}
		for _, sh := range l.at(z) {
			if !sh.bound.Intersects(bound) {
				continue
			}
			// orb's clip works in place on its input: give it a copy, the
			// shared shapes serve every other tile.
			g := clip.Geometry(bound, orb.Clone(sh.geom))
			if g == nil {
				continue
			}
			g = project(g, toTile)
			if g == nil {
				continue
			}
			f := geojson.NewFeature(g)
			if sh.name != "" {
				f.Properties = geojson.Properties{"name": sh.name}
			}
			fc.Append(f)
		}
		layers = append(layers, newLayer(l.name, fc))
	}
	fc := geojson.NewFeatureCollection()
	for _, i := range b.labels.chosen(z)[tileKey(x, y)] {
		lb := &b.labels.labels[i]
		f := geojson.NewFeature(toTile(orb.Point{lb.x, lb.y}))
		f.Properties = geojson.Properties{"name": lb.name, "kind": lb.kind, "size": lb.size}
		fc.Append(f)
	}
	layers = append(layers, newLayer("place", fc))
	return mvt.MarshalGzipped(layers)
}

// newLayer is a layer of the vector tile specification's version 2 (orb
// writes 1 by default; MapLibre warns on it).
func newLayer(name string, fc *geojson.FeatureCollection) *mvt.Layer {
	l := mvt.NewLayer(name, fc)
	l.Version = 2
	return l
}

// project moves a clipped geometry to tile coordinates, dropping points that
// round onto the previous one and parts left too small to draw.
func project(g orb.Geometry, fn func(orb.Point) orb.Point) orb.Geometry {
	line := func(in []orb.Point) []orb.Point {
		out := make([]orb.Point, 0, len(in))
		for _, p := range in {
			q := fn(p)
			if len(out) > 0 && out[len(out)-1] == q {
				continue
			}
			out = append(out, q)
		}
		return out
	}
	switch g := g.(type) {
	case orb.LineString:
		ls := orb.LineString(line(g))
		if len(ls) < 2 {
			return nil
		}
		return ls
	case orb.MultiLineString:
		var out orb.MultiLineString
		for _, l := range g {
			if ls := orb.LineString(line(l)); len(ls) >= 2 {
				out = append(out, ls)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case orb.Polygon:
		// Clipping may leave rings wound either way; vector tiles tell
		// outer rings from holes by their winding (positive area, y down).
		var out orb.Polygon
		for i, r := range g {
			rr := orb.Ring(line(r))
			if len(rr) < 4 || rr.Orientation() == 0 {
				if i == 0 {
					return nil
				}
				continue
			}
			if want := map[bool]orb.Orientation{true: orb.CCW, false: orb.CW}[i == 0]; rr.Orientation() != want {
				rr.Reverse()
			}
			out = append(out, rr)
		}
		return out
	case orb.MultiPolygon:
		var out orb.MultiPolygon
		for _, p := range g {
			if q, ok := project(p, fn).(orb.Polygon); ok && q != nil {
				out = append(out, q)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return nil
}

// Gunzip undoes the tiles' gzip, for clients that do not take it.
func Gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

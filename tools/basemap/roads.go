package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/clip"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/maptile"

	"locator/internal/maptiles/basemapfile"
)

// streetAreas are the only street data this machine's registries offer: the "real-world" tiles of
// @mapbox/mvt-fixtures (Mapbox Streets v7, OpenStreetMap data under the ODbL), 30 tiles of zoom 13
// over central Chicago (about 18 x 22 km, the Loop to Midway) and 9 tiles of zoom 15 over San
// Francisco (about 3.6 km square, Western Addition to Pacific Heights). Everywhere else the
// offline basemap has no streets (docs/attribution.md says so, and so does the map).
var streetAreas = []string{"chicago", "sanfrancisco"}

// majorRoads and minorRoads are the Mapbox Streets v7 road classes of the "road_major" and
// "road_minor" layers; rails, paths, ferries and the like are left out. Two layers rather than a
// class property: the map preview (web/src/features/locator/map/tileRender.ts) draws layers
// without filters, the same as MapLibre.
var (
	majorRoads = []string{"motorway", "motorway_link", "trunk", "primary", "secondary", "tertiary", "link"}
	minorRoads = []string{"street", "street_limited", "service", "pedestrian"}
)

// roadLayers reads the fixtures' tiles under dir (node_modules/@mapbox/mvt-fixtures/real-world)
// into the layers road_major, road_minor and road_label (named street centre lines, for labels
// along the street). Each tile's features are clipped to the tile itself (the tiles overlap by
// their buffer), then written in degrees.
func roadLayers(dir string) ([]basemapfile.Layer, error) {
	major := basemapfile.Layer{Name: "road_major", Kind: basemapfile.Lines}
	minor := basemapfile.Layer{Name: "road_minor", Kind: basemapfile.Lines}
	label := basemapfile.Layer{Name: "road_label", Kind: basemapfile.Lines}
	for _, area := range streetAreas {
		files, err := filepath.Glob(filepath.Join(dir, area, "*.mvt"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no tiles in %s", filepath.Join(dir, area))
		}
		slices.Sort(files) // Glob sorts already; the output must not depend on it
		for _, f := range files {
			t, err := tileOf(f)
			if err != nil {
				return nil, err
			}
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			layers, err := mvt.Unmarshal(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for _, l := range layers {
				if l.Name != "road" && l.Name != "road_label" {
					continue
				}
				own := orb.Bound{Max: orb.Point{float64(l.Extent), float64(l.Extent)}}
				for _, ft := range l.Features {
					class, _ := ft.Properties["class"].(string)
					name, _ := ft.Properties["name"].(string)
					var to *basemapfile.Layer
					switch {
					case l.Name == "road_label" && name != "":
						to = &label
					case l.Name == "road" && slices.Contains(majorRoads, class):
						to = &major
					case l.Name == "road" && slices.Contains(minorRoads, class):
						to = &minor
					default:
						continue
					}
					g := clip.Geometry(own, ft.Geometry)
					lines := asLines(g)
					if len(lines) == 0 {
						continue
					}
					feat := basemapfile.Feature{Name: name}
					for _, ls := range lines {
						pts := make([][2]float64, len(ls))
						for i, p := range ls {
							pts[i] = tilePointToLonLat(t, l.Extent, p)
						}
						feat.Parts = append(feat.Parts, encode(pts))
					}
					if to != &label {
						feat.Name = "" // the road layers carry no names: road_label does
					}
					to.Features = append(to.Features, feat)
				}
			}
		}
	}
	return []basemapfile.Layer{major, minor, label}, nil
}

// tileOf reads z/x/y from a fixture's name ("13-2100-3044.mvt").
func tileOf(path string) (maptile.Tile, error) {
	parts := strings.Split(strings.TrimSuffix(filepath.Base(path), ".mvt"), "-")
	if len(parts) != 3 {
		return maptile.Tile{}, fmt.Errorf("%s: not z-x-y.mvt", path)
	}
	var n [3]uint64
	for i, s := range parts {
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return maptile.Tile{}, fmt.Errorf("%s: %w", path, err)
		}
		n[i] = v
	}
	return maptile.New(uint32(n[1]), uint32(n[2]), maptile.Zoom(n[0])), nil
}

// tilePointToLonLat turns a point in tile units (0..extent, y down) into longitude and latitude.
func tilePointToLonLat(t maptile.Tile, extent uint32, p orb.Point) [2]float64 {
	n := float64(uint64(1) << t.Z)
	wx := (float64(t.X) + p[0]/float64(extent)) / n
	wy := (float64(t.Y) + p[1]/float64(extent)) / n
	lat := math.Atan(math.Sinh(math.Pi*(1-2*wy))) * 180 / math.Pi
	return [2]float64{wx*360 - 180, lat}
}

func asLines(g orb.Geometry) []orb.LineString {
	switch g := g.(type) {
	case orb.LineString:
		if len(g) >= 2 {
			return []orb.LineString{g}
		}
	case orb.MultiLineString:
		var out []orb.LineString
		for _, ls := range g {
			if len(ls) >= 2 {
				out = append(out, ls)
			}
		}
		return out
	}
	return nil
}

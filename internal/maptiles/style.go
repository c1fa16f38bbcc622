package maptiles

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// The URLs the styles point at, served by internal/httpapi. Root-relative:
// the app resolves them against its own origin (createMap's
// transformRequest), so every map request stays on the origin.
const (
	BasemapTilesURL = "/map/tiles/{z}/{x}/{y}.mvt"
	StreetTilesURL  = "/map/streets/{z}/{x}/{y}.mvt"
	StreetSpriteURL = "/map/sprites/streets"
)

// Basemap colours and line widths; the preview (web/src/features/locator/map/
// previewWorker.ts) reads them from this style, so both draw alike.
const (
	colorWater       = "#cde3ef"
	colorLand        = "#f2efe6"
	colorCountyLine  = "#d6d0c2"
	colorStateLine   = "#b9b3a4"
	colorCountryLine = "#9c968a"
	colorRoad        = "#ffffff"
	colorRoadMajor   = "#fdf3d2"
	colorRoadCasing  = "#d9d2c1"
	colorLabel       = "#3b3a36"
	colorLabelMinor  = "#5d5a52"
	colorHalo        = "#ffffff"
)

// LabelFont is the labels' font stack: the browser's own sans-serif face,
// drawn by MapLibre locally (no glyph server) and by the preview's canvas.
const LabelFont = "sans-serif"

type obj = map[string]any

func widthByZoom(z0, w0, z1, w1 float64) []any {
	return []any{"interpolate", []any{"linear"}, []any{"zoom"}, z0, w0, z1, w1}
}

// BasemapStyle is the MapLibre style of the offline basemap: water, land, the finer
// OpenStreetMap water from WaterMinZoom on, the streets of StreetAreas, county, state and
// country lines, street names and place labels (text-allow-overlap: the tiles hold only labels
// that do not collide, see labels.go). Its metadata "locator:streets" lists StreetAreas.
func BasemapStyle() []byte {
	style := obj{
		"version": 8,
		"name":    "Locator offline basemap",
		// Where the map has streets: the app says "no street data here" elsewhere at street zooms.
		"metadata": obj{"locator:streets": streetAreasMetadata()},
		"sources": obj{
			"basemap": obj{
				"type": "vector", "tiles": []string{BasemapTilesURL}, "minzoom": 0, "maxzoom": MaxLabelZoom,
				"attribution": "Natural Earth, US Census Bureau, © OpenStreetMap contributors, GeoNames",
			},
		},
		"layers": []obj{
			{"id": "water", "type": "background", "paint": obj{"background-color": colorWater}},
			{"id": "land", "type": "fill", "source": "basemap", "source-layer": "land", "paint": obj{"fill-color": colorLand}},
			{"id": "water-fine", "type": "fill", "source": "basemap", "source-layer": "water", "minzoom": WaterMinZoom, "paint": obj{"fill-color": colorWater}},
			// Streets, only in StreetAreas: each class a white line on a darker casing.
			{"id": "road-minor-casing", "type": "line", "source": "basemap", "source-layer": "road_minor", "minzoom": roadMinorMinZoom,
				"paint": obj{"line-color": colorRoadCasing, "line-width": widthByZoom(13, 1.6, 17, 12)}},
			{"id": "road-major-casing", "type": "line", "source": "basemap", "source-layer": "road_major", "minzoom": roadMajorMinZoom,
				"paint": obj{"line-color": colorRoadCasing, "line-width": widthByZoom(11, 1.4, 17, 16)}},
			{"id": "road-minor", "type": "line", "source": "basemap", "source-layer": "road_minor", "minzoom": roadMinorMinZoom,
				"paint": obj{"line-color": colorRoad, "line-width": widthByZoom(13, 0.8, 17, 10)}},
			{"id": "road-major", "type": "line", "source": "basemap", "source-layer": "road_major", "minzoom": roadMajorMinZoom,
				"paint": obj{"line-color": colorRoadMajor, "line-width": widthByZoom(11, 0.8, 17, 13)}},
			{"id": "county", "type": "line", "source": "basemap", "source-layer": "county", "minzoom": countyMinZoom,
				"paint": obj{"line-color": colorCountyLine, "line-width": widthByZoom(6, 0.4, 12, 1.2)}},
			{"id": "state", "type": "line", "source": "basemap", "source-layer": "state",
				"paint": obj{"line-color": colorStateLine, "line-width": widthByZoom(3, 0.5, 10, 1.5)}},
			{"id": "country", "type": "line", "source": "basemap", "source-layer": "country",
				"paint": obj{"line-color": colorCountryLine, "line-width": widthByZoom(2, 0.6, 10, 2)}},
			{"id": "road-label", "type": "symbol", "source": "basemap", "source-layer": "road_label", "minzoom": roadLabelMinZoom,
				"layout": obj{
					"symbol-placement": "line", "text-field": []any{"get", "name"}, "text-font": []string{LabelFont},
					"text-size": widthByZoom(14, 11, 17, 14), "text-max-angle": 30,
				},
				"paint": obj{"text-color": colorLabelMinor, "text-halo-color": colorHalo, "text-halo-width": 1.5}},
			{"id": "place", "type": "symbol", "source": "basemap", "source-layer": "place",
				"layout": obj{
					"text-field": []any{"get", "name"}, "text-font": []string{LabelFont},
					"text-size": []any{"get", "size"}, "text-allow-overlap": true, "text-ignore-placement": true,
					"text-max-width": 100, "text-padding": 0,
				},
				"paint": obj{
					"text-color":      []any{"match", []any{"get", "kind"}, []string{"village", "neighbourhood"}, colorLabelMinor, colorLabel},
					"text-halo-color": colorHalo, "text-halo-width": 1.5,
				}},
		},
	}
	b, err := json.Marshal(style)
	if err != nil {
		panic(err) // a literal of maps, strings and numbers always encodes
	}
	return b
}

//go:embed protomaps-layers.json
var protomapsLayers []byte

// StreetStyle is the @protomaps/basemaps "light" style (English labels;
// generated by tools/basemap/protomaps-style.mjs) over an archive's tiles.
// No glyphs URL: MapLibre draws the labels with the Noto Sans files the
// binary serves ("font-faces", fonts.go), each downloaded when a label first
// needs a codepoint it covers; codepoints none covers (CJK, Arabic...) fall
// back to the browser's fonts.
func StreetStyle(h PMHeader) ([]byte, error) {
	var layers []json.RawMessage
	if err := json.Unmarshal(protomapsLayers, &layers); err != nil {
		return nil, fmt.Errorf("maptiles: protomaps layers: %w", err)
	}
	fontFaces, err := streetFontFaces()
	if err != nil {
		return nil, err
	}
	source := obj{
		"type": "vector", "tiles": []string{StreetTilesURL},
		"minzoom": h.MinZoom, "maxzoom": h.MaxZoom,
		"attribution": `<a href="https://protomaps.com">Protomaps</a> © <a href="https://openstreetmap.org/copyright">OpenStreetMap</a>`,
	}
	if h.MinLon < h.MaxLon && h.MinLat < h.MaxLat {
		source["bounds"] = []float64{h.MinLon, h.MinLat, h.MaxLon, h.MaxLat}
	}
	return json.Marshal(obj{
		"version":    8,
		"name":       "Locator street map (Protomaps light)",
		"sprite":     StreetSpriteURL,
		"font-faces": fontFaces,
		"sources":    obj{"protomaps": source},
		"layers":     layers,
	})
}

// StreetArea is a box where the offline basemap has streets.
type StreetArea struct {
	Name string
	// West, South, East, North in degrees.
	Bounds [4]float64
}

// StreetAreas are where the embedded basemap has streets: the only street data the registries
// this project builds from offer (@mapbox/mvt-fixtures' "real-world" tiles, see
// tools/basemap/roads.go): 30 tiles of zoom 13 over central Chicago (13/2098-2102/3042-3047) and
// 9 of zoom 15 around Haight-Ashbury in San Francisco (15/5237-5239/12665-12667). Their bounds
// are those tiles', rounded outwards to 1e-5 degrees (TestStreetAreasHoldTheRoads checks that
// the roads lie inside).
var StreetAreas = []StreetArea{
	{Name: "Chicago", Bounds: [4]float64{-87.80274, 41.77131, -87.58300, 41.96766}},
	{Name: "San Francisco", Bounds: [4]float64{-122.46460, 37.75334, -122.43164, 37.77940}},
}

func streetAreasMetadata() []obj {
	out := make([]obj, 0, len(StreetAreas))
	for _, a := range StreetAreas {
		out = append(out, obj{"name": a.Name, "bounds": a.Bounds[:]})
	}
	return out
}

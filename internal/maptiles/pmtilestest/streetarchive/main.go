// Command streetarchive writes a small PMTiles archive in the Protomaps
// basemap schema around New York (land, a few roads and places), for the
// street map's browser test (web/e2e/streets.spec.mjs), which starts the
// binary with LOCATOR_PMTILES pointing at it:
//
//	go run ./internal/maptiles/pmtilestest/streetarchive -out /tmp/nyc.pmtiles
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/maptile"

	"locator/internal/maptiles/pmtilestest"
)

const (
	maxZoom = 14
	nycLon  = -74.006
	nycLat  = 40.7128
)

// features are the archive's contents in longitude/latitude, by layer of the
// Protomaps schema (the properties its style reads).
func features() map[string]*geojson.FeatureCollection {
	layers := map[string]*geojson.FeatureCollection{
		"earth": geojson.NewFeatureCollection(), "roads": geojson.NewFeatureCollection(), "places": geojson.NewFeatureCollection(),
	}
	add := func(layer string, g orb.Geometry, props geojson.Properties) {
		f := geojson.NewFeature(g)
		f.Properties = props
		layers[layer].Append(f)
	}
	add("earth", orb.Polygon{{{-75, 40}, {-73, 40}, {-73, 41.5}, {-75, 41.5}, {-75, 40}}}, geojson.Properties{"kind": "earth"})
	add("roads", orb.LineString{{-74.02, 40.70}, {-73.99, 40.75}, {-73.96, 40.80}}, geojson.Properties{"kind": "major_road", "name": "Broadway", "min_zoom": 8})
	add("roads", orb.LineString{{-74.1, 40.69}, {-73.8, 40.69}}, geojson.Properties{"kind": "highway", "name": "Expressway", "min_zoom": 5})
	// Localities: the first drawn Medium (min_zoom <= 5), the others Regular.
	place := func(kind, name string, lon, lat float64, minZoom, rank int) {
		add("places", orb.Point{lon, lat}, geojson.Properties{
			"kind": kind, "name": name, "name:en": name, "min_zoom": minZoom, "population_rank": rank, "sort_key": minZoom,
		})
	}
	place("locality", "New York", nycLon, nycLat, 2, 16)
	place("locality", "Brooklyn", -73.9442, 40.6782, 8, 14)
	place("locality", "Jersey City", -74.0776, 40.7282, 8, 13)
	place("locality", "Hoboken", -74.0324, 40.7440, 9, 11)
	// A name with a letter of the latin-ext subset (ś), drawn from that file.
	place("neighbourhood", "Kościuszko Park", -73.9900, 40.6950, 10, 8)
	return layers
}

func main() {
	out := flag.String("out", "", "the archive to write")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: streetarchive -out FILE.pmtiles")
		os.Exit(2)
	}
	var tiles []pmtilestest.Tile
	for z := 0; z <= maxZoom; z++ {
		c := maptile.At(orb.Point{nycLon, nycLat}, maptile.Zoom(z))
		r := 0
		if z >= 9 {
			r = 1 // a 3 x 3 block: a map view spans several tiles
		}
		for dx := -r; dx <= r; dx++ {
			for dy := -r; dy <= r; dy++ {
				x, y := int(c.X)+dx, int(c.Y)+dy
				if x < 0 || y < 0 || x >= 1<<z || y >= 1<<z {
					continue
				}
				data, err := tile(maptile.New(uint32(x), uint32(y), maptile.Zoom(z)))
				if err != nil {
					fmt.Fprintln(os.Stderr, "streetarchive:", err)
					os.Exit(1)
				}
				tiles = append(tiles, pmtilestest.Tile{Z: z, X: x, Y: y, Data: data})
			}
		}
	}
	archive := pmtilestest.Archive(tiles, pmtilestest.Options{
		Metadata: `{"name":"New York test extract","vector_layers":[{"id":"earth"},{"id":"roads"},{"id":"places"}]}`,
		Bounds:   [4]float64{-74.3, 40.5, -73.7, 40.95}, Center: [2]float64{nycLon, nycLat}, CenterZoom: 10,
	})
	if err := os.WriteFile(*out, archive, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "streetarchive:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d tiles, %d bytes\n", *out, len(tiles), len(archive))
}

// tile encodes the features as the gzipped vector tile t.
func tile(t maptile.Tile) ([]byte, error) {
	var layers mvt.Layers
	fcs := features()
	for _, name := range []string{"earth", "roads", "places"} {
		l := mvt.NewLayer(name, fcs[name])
		l.Version = 2
		layers = append(layers, l)
	}
	layers.ProjectToTile(t)
	// A small buffer beyond the tile's 4096 units, as extracts have.
	layers.Clip(orb.Bound{Min: orb.Point{-64, -64}, Max: orb.Point{4160, 4160}})
	layers.RemoveEmpty(1, 1)
	return mvt.MarshalGzipped(layers)
}

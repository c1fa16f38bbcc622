package maptiles

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/orb"
)

var sharedWater = sync.OnceValues(LoadWater)

func mustWater(t *testing.T) *Water {
	t.Helper()
	w, err := sharedWater()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Manhattan's west shore at store zoom (14, the tiles' last): the river where a demo store used
// to stand is water, the waterfront park and the avenues behind it are land, in the tiles the
// map draws and in Water, which keeps the demo's stores out of the river (internal/seed).
func TestManhattanWestShoreAtStoreZoom(t *testing.T) {
	b, w := mustBasemap(t), mustWater(t)
	for _, c := range []struct {
		name     string
		lat, lon float64
		want     string
	}{
		// "Haze Works Vapes" of the demo data stood here before the demo kept to land.
		{"the Hudson off West 65th Street", 40.77745, -74.0003, "water"},
		{"the Hudson off Chelsea", 40.7465, -74.0150, "water"},
		{"Riverside Park South", 40.7770, -73.9890, "land"},
		{"Twelfth Avenue at West 42nd Street", 40.7620, -73.9985, "land"},
		{"West Street at Chambers Street", 40.7170, -74.0135, "land"},
	} {
		if got := drawnAs(t, b, 14, c.lon, c.lat); got != c.want {
			t.Errorf("%s (%v, %v): drawn as %s, want %s", c.name, c.lat, c.lon, got, c.want)
		}
		if got := w.Contains(c.lat, c.lon); got != (c.want == "water") {
			t.Errorf("%s (%v, %v): Water.Contains %v, want %v", c.name, c.lat, c.lon, got, c.want == "water")
		}
	}
}

// Lakes and reservoirs (OpenStreetMap's, from @geo-maps/earth-lakes-10m) are water at store
// zoom; the 1:10m land alone draws them as land.
func TestLakesAtStoreZoom(t *testing.T) {
	b, w := mustBasemap(t), mustWater(t)
	for _, c := range []struct {
		name     string
		lat, lon float64
	}{
		{"the Central Park Reservoir", 40.7855, -73.9626},
		{"Lake Michigan off Lincoln Park", 41.9200, -87.6200},
		{"Lake Washington off Seattle", 47.6200, -122.2600},
		{"Lake Pontchartrain", 30.1500, -90.1000},
	} {
		if got := drawnAs(t, b, 14, c.lon, c.lat); got != "water" {
			t.Errorf("%s (%v, %v): drawn as %s, want water", c.name, c.lat, c.lon, got)
		}
		if !w.Contains(c.lat, c.lon) {
			t.Errorf("%s (%v, %v): not in Water", c.name, c.lat, c.lon)
		}
	}
}

// roadsAround counts the road features of the tile of zoom z holding a point, and the street
// names of its road_label layer.
func roadsAround(t *testing.T, b *Basemap, z int, lat, lon float64) (map[string]int, map[string]bool) {
	t.Helper()
	x, y := tileAt(z, lon, lat)
	_, layers := decodedTile(t, b, z, x, y)
	counts, names := map[string]int{}, map[string]bool{}
	for _, l := range layers {
		if !strings.HasPrefix(l.Name, "road_") {
			continue
		}
		for _, f := range l.Features {
			switch f.Geometry.(type) {
			case orb.LineString, orb.MultiLineString:
			default:
				t.Errorf("%s: a %s, want lines", l.Name, f.Geometry.GeoJSONType())
			}
			counts[l.Name]++
			if n, _ := f.Properties["name"].(string); n != "" {
				names[n] = true
			} else if l.Name == "road_label" {
				t.Errorf("road_label feature without a name: %v", f.Properties)
			}
		}
	}
	return counts, names
}

// Chicago's Loop at zooms 14 and 15 (overzoomed from 14) has its streets, main roads and street
// names; Austin has none (no street data ships for it: StreetAreas), and neither has zoom 10.
func TestStreetsWhereTheDataIs(t *testing.T) {
	b := mustBasemap(t)
	counts, names := roadsAround(t, b, 14, 41.8819, -87.6278) // State and Madison
	if counts["road_major"] < 50 || counts["road_minor"] < 50 || counts["road_label"] < 50 {
		t.Errorf("the Loop at zoom 14: %v", counts)
	}
	for _, n := range []string{"S State St", "W Madison St", "N Dearborn St"} {
		if !names[n] {
			t.Errorf("the Loop at zoom 14: no %q among %d street names", n, len(names))
		}
	}
	if counts, _ := roadsAround(t, b, 14, 37.7694, -122.4481); counts["road_minor"] < 20 { // Haight and Ashbury
		t.Errorf("Haight-Ashbury at zoom 14: %v", counts)
	}
	if counts, _ := roadsAround(t, b, 14, 30.2672, -97.7431); len(counts) != 0 {
		t.Errorf("Austin at zoom 14 has streets now (%v): add it to StreetAreas and the docs", counts)
	}
	if counts, _ := roadsAround(t, b, 10, 41.8819, -87.6278); len(counts) != 0 {
		t.Errorf("Chicago at zoom 10: %v, want no streets before zoom %d", counts, roadMajorMinZoom)
	}
}

// Every road lies in a StreetArea: the areas the app names as the only ones with streets.
func TestStreetAreasHoldTheRoads(t *testing.T) {
	b := mustBasemap(t)
	var areas []orb.Bound
	for _, a := range StreetAreas {
		areas = append(areas, orb.Bound{Min: worldPoint(a.Bounds[0], a.Bounds[1]), Max: worldPoint(a.Bounds[2], a.Bounds[3])})
	}
	for i := range areas { // worldPoint's y grows southwards
		areas[i].Min[1], areas[i].Max[1] = math.Min(areas[i].Min[1], areas[i].Max[1]), math.Max(areas[i].Min[1], areas[i].Max[1])
	}
	n := 0
	for _, l := range b.layers {
		if !strings.HasPrefix(l.name, "road_") {
			continue
		}
		for _, sh := range l.full {
			n++
			in := false
			for _, a := range areas {
				if a.Contains(sh.bound.Min) && a.Contains(sh.bound.Max) {
					in = true
				}
			}
			if !in {
				t.Fatalf("%s: a road at %v outside every StreetArea", l.name, sh.bound)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("%d roads", n)
	}
}

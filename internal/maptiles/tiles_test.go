package maptiles

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/planar"

	"locator/internal/places"
)

var sharedBasemap = sync.OnceValues(func() (*Basemap, error) {
	g, err := places.Load()
	if err != nil {
		return nil, err
	}
	return NewBasemap(g.MapPlaces(), 64<<20)
})

func mustBasemap(t testing.TB) *Basemap {
	t.Helper()
	b, err := sharedBasemap()
	if err == nil {
		err = b.Layers()
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tileAt is the tile of zoom z holding a point.
func tileAt(z int, lon, lat float64) (x, y int) {
	p := worldPoint(lon, lat)
	n := math.Exp2(float64(z))
	return int(p[0] * n), int(p[1] * n)
}

// decoded holds what a block of tiles shows.
type decoded struct {
	layers map[string]int // features per layer
	names  map[string]orb.Point
}

// decodedTile is tile z/x/y of b, as served and decoded; a tile that
// fails either way fails the test.
func decodedTile(t *testing.T, b *Basemap, z, x, y int) ([]byte, mvt.Layers) {
	t.Helper()
	data, err := b.Tile(z, x, y)
	if err != nil {
		t.Fatalf("tile %d/%d/%d: %v", z, x, y, err)
	}
	layers, err := mvt.UnmarshalGzipped(data)
	if err != nil {
		t.Fatalf("tile %d/%d/%d does not decode: %v", z, x, y, err)
	}
	return data, layers
}

// around decodes the 3 x 3 tiles of zoom z centred on a point.
func around(t *testing.T, b *Basemap, z int, lon, lat float64) decoded {
	t.Helper()
	cx, cy := tileAt(z, lon, lat)
	d := decoded{layers: map[string]int{}, names: map[string]orb.Point{}}
	for x := cx - 1; x <= cx+1; x++ {
		for y := cy - 1; y <= cy+1; y++ {
			_, layers := decodedTile(t, b, z, x, y)
			for _, l := range layers {
				if l.Extent != extent {
					t.Errorf("layer %s extent %d", l.Name, l.Extent)
				}
				d.layers[l.Name] += len(l.Features)
				if l.Name != "place" {
					continue
				}
				for _, f := range l.Features {
					name, _ := f.Properties["name"].(string)
					if name == "" || f.Properties["kind"] == nil || f.Properties["size"] == nil {
						t.Errorf("place feature without name, kind or size: %v", f.Properties)
					}
					p, ok := f.Geometry.(orb.Point)
					if !ok || p[0] < 0 || p[1] < 0 || p[0] >= extent || p[1] >= extent {
						t.Errorf("place %q at %v: not a point inside its tile", name, f.Geometry)
					}
					if _, dup := d.names[name]; dup && name != "" {
						// A name shows once per neighbourhood: the grid keeps same-named
						// places apart only by their boxes, so note it.
						t.Logf("name %q twice", name)
					}
					d.names[name] = p
				}
			}
		}
	}
	return d
}

const nycLon, nycLat = -74.006, 40.7128

func TestNewYorkZoom10(t *testing.T) {
	d := around(t, mustBasemap(t), 10, nycLon, nycLat)
	for _, layer := range []string{"land", "state", "county", "place"} {
		if d.layers[layer] == 0 {
			t.Errorf("no %s features at zoom 10 around New York: %v", layer, d.layers)
		}
	}
	for _, name := range []string{"New York City", "Brooklyn", "Queens", "Jersey City", "Newark", "Staten Island"} {
		if _, ok := d.names[name]; !ok {
			t.Errorf("zoom 10: no label %q; labels: %v", name, keys(d.names))
		}
	}
	// Neighbourhoods wait for closer zooms.
	if _, ok := d.names["Williamsburg"]; ok {
		t.Errorf("zoom 10 names Williamsburg")
	}
}

func TestNewYorkZoom13(t *testing.T) {
	b := mustBasemap(t)
	// Centred between Williamsburg and Astoria.
	d := around(t, b, 13, -73.94, 40.74)
	for _, name := range []string{"Williamsburg", "Astoria", "Greenpoint"} {
		if _, ok := d.names[name]; !ok {
			t.Errorf("zoom 13: no label %q; labels: %v", name, keys(d.names))
		}
	}
	if d.layers["land"] == 0 {
		t.Errorf("zoom 13: no land: %v", d.layers)
	}
}

func TestLowZooms(t *testing.T) {
	b := mustBasemap(t)
	for z := 0; z <= 4; z++ {
		x, y := tileAt(z, nycLon, nycLat)
		data, layers := decodedTile(t, b, z, x, y)
		got := map[string]int{}
		names := map[string]bool{}
		for _, l := range layers {
			got[l.Name] = len(l.Features)
			for _, f := range l.Features {
				if n, ok := f.Properties["name"].(string); ok {
					names[n] = true
				}
			}
		}
		// The tile of zoom 4 lies south of Canada and east of Mexico.
		if got["land"] == 0 || z < 4 && got["country"] == 0 || z >= 2 && got["state"] == 0 {
			t.Errorf("zoom %d: layers %v", z, got)
		}
		if z < countyMinZoom && got["county"] != 0 {
			t.Errorf("zoom %d: %d county lines", z, got["county"])
		}
		if z >= 3 && !names["New York City"] {
			t.Errorf("zoom %d: New York City not named", z)
		}
		if len(data) > 400_000 {
			t.Errorf("zoom %d tile is %d bytes", z, len(data))
		}
	}
}

// Labels chosen at one zoom stay at the next, and no two chosen labels of a
// zoom overlap.
func TestLabelsStableAndApart(t *testing.T) {
	b := mustBasemap(t)
	for z := 9; z <= 12; z++ {
		now := map[int32]bool{}
		for _, idx := range b.labels.chosen(z) {
			for _, i := range idx {
				now[i] = true
			}
		}
		for _, idx := range b.labels.chosen(z - 1) {
			for _, i := range idx {
				if !now[i] {
					t.Fatalf("zoom %d drops %q chosen at zoom %d", z, b.labels.labels[i].name, z-1)
				}
			}
		}
	}
	// Overlaps around New York at zoom 12.
	x, y := tileAt(12, nycLon, nycLat)
	var boxes []box
	scale := tileSize * math.Exp2(12)
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for _, i := range b.labels.chosen(12)[tileKey(x+dx, y+dy)] {
				lb := b.labels.labels[i]
				boxes = append(boxes, box{lb.x*scale - lb.w/2, lb.y*scale - lb.h/2, lb.x*scale + lb.w/2, lb.y*scale + lb.h/2})
			}
		}
	}
	if len(boxes) < 10 {
		t.Fatalf("only %d labels around New York at zoom 12", len(boxes))
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, o := boxes[i], boxes[j]
			if a.x0 < o.x1 && o.x0 < a.x1 && a.y0 < o.y1 && o.y0 < a.y1 {
				t.Fatalf("labels %d and %d overlap", i, j)
			}
		}
	}
}

func TestBadTiles(t *testing.T) {
	b := mustBasemap(t)
	for _, c := range [][3]int{{-1, 0, 0}, {MaxLabelZoom + 1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {3, 8, 0}, {3, 0, -1}, {30, 0, 0}} {
		if _, err := b.Tile(c[0], c[1], c[2]); err != ErrNoTile {
			t.Errorf("tile %v: %v, want ErrNoTile", c, err)
		}
	}
}

func TestCacheBound(t *testing.T) {
	c := NewCache(10_000)
	for i := range 100 {
		c.Put(string(rune('a'+i%26))+string(rune('a'+i/26)), make([]byte, 1000))
	}
	s := c.Stats()
	if s.Bytes > 10_000 || s.Entries == 0 || s.Entries > 9 {
		t.Fatalf("stats %+v", s)
	}
	// The most recent is kept, the oldest gone.
	if _, ok := c.Get("vd"); !ok {
		t.Error("most recent entry dropped")
	}
	if _, ok := c.Get("aa"); ok {
		t.Error("oldest entry kept")
	}
	c.Put("huge", make([]byte, 20_000))
	if _, ok := c.Get("huge"); ok {
		t.Error("entry over the bound kept")
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A tile does not depend on which tiles were built before it (clipping once
// damaged the shared shapes), and its polygons are wound as the vector tile
// specification says: outer rings with a positive area (y down), holes
// negative; the decoder splits polygons by that winding.
// byScore gives the order a stable sort by score and name gives, on the
// gazetteer's places (many share a name and a population).
func TestLabelsInStableOrder(t *testing.T) {
	g, err := places.Load()
	if err != nil {
		t.Fatal(err)
	}
	l := newLabeler(g.MapPlaces())
	want := slices.Clone(l.labels)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
	got := slices.Clone(want)
	byScore(got)
	slices.SortStableFunc(want, func(a, b label) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	ties := 0
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("label %d: got %+v, want %+v", i, got[i], want[i])
		}
		if i > 0 && want[i].score == want[i-1].score && want[i].name == want[i-1].name {
			ties++
		}
	}
	if ties == 0 {
		t.Fatal("no two labels tie on score and name: the test checks nothing about their order")
	}
}

func TestTilesIndependentOfOrder(t *testing.T) {
	g, err := places.Load()
	if err != nil {
		t.Fatal(err)
	}
	first, err := NewBasemap(g.MapPlaces(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	second, err := NewBasemap(g.MapPlaces(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	x11, y11 := tileAt(11, nycLon, nycLat)
	var tiles [][3]int
	for z := 8; z <= 12; z++ {
		x, y := tileAt(z, nycLon, nycLat)
		tiles = append(tiles, [3]int{z, x, y}, [3]int{z, x + 1, y}, [3]int{z, x, y + 1})
	}
	tiles = append(tiles, [3]int{11, x11 - 1, y11 - 1})
	for _, c := range tiles {
		if _, err := first.Tile(c[0], c[1], c[2]); err != nil {
			t.Fatal(err)
		}
	}
	for i := len(tiles) - 1; i >= 0; i-- {
		c := tiles[i]
		a, _ := first.Tile(c[0], c[1], c[2])
		b, err := second.Tile(c[0], c[1], c[2])
		if err != nil {
			t.Fatal(err)
		}
		la, err := mvt.UnmarshalGzipped(a)
		if err != nil {
			t.Fatal(err)
		}
		lb, _ := mvt.UnmarshalGzipped(b)
		for j := range la {
			if la[j].Name == "place" {
				continue // property order may differ
			}
			if len(la[j].Features) != len(lb[j].Features) {
				t.Fatalf("tile %v layer %s: %d features built first, %d built last", c, la[j].Name, len(la[j].Features), len(lb[j].Features))
			}
			for k := range la[j].Features {
				if !orb.Equal(la[j].Features[k].Geometry, lb[j].Features[k].Geometry) {
					t.Fatalf("tile %v layer %s feature %d differs with the build order", c, la[j].Name, k)
				}
				checkWinding(t, la[j].Features[k].Geometry)
			}
		}
	}
}

func checkWinding(t *testing.T, g orb.Geometry) {
	t.Helper()
	var polys []orb.Polygon
	switch g := g.(type) {
	case orb.Polygon:
		polys = []orb.Polygon{g}
	case orb.MultiPolygon:
		polys = g
	}
	for _, p := range polys {
		for i, r := range p {
			want := orb.CCW
			if i > 0 {
				want = orb.CW
			}
			if r.Orientation() != want {
				t.Fatalf("ring %d of a polygon wound %v", i, r.Orientation())
			}
		}
	}
}

// drawnAs is what the basemap's style paints at a point in tile z: the "water" layer over the
// "land" layer over the water background.
func drawnAs(t *testing.T, b *Basemap, z int, lon, lat float64) string {
	t.Helper()
	x, y := tileAt(z, lon, lat)
	_, layers := decodedTile(t, b, z, x, y)
	w := worldPoint(lon, lat)
	n := math.Exp2(float64(z))
	p := orb.Point{(w[0]*n - float64(x)) * extent, (w[1]*n - float64(y)) * extent}
	in := func(name string) bool {
		for _, l := range layers {
			if l.Name != name {
				continue
			}
			for _, f := range l.Features {
				switch g := f.Geometry.(type) {
				case orb.Polygon:
					if planar.PolygonContains(g, p) {
						return true
					}
				case orb.MultiPolygon:
					if planar.MultiPolygonContains(g, p) {
						return true
					}
				}
			}
		}
		return false
	}
	switch {
	case in("water"):
		return "water"
	case in("land"):
		return "land"
	}
	return "water"
}

// At street zoom (14, the tiles' last; MapLibre overzooms them) the Hudson and the East River are water and Manhattan is an island (the 1:10m
// land alone draws both rivers as land); at zoom 7 the water layer is not drawn yet.
func TestNewYorkRivers(t *testing.T) {
	b := mustBasemap(t)
	for _, c := range []struct {
		name     string
		z        int
		lat, lon float64
		want     string
	}{
		// The lead's (40.75, -74.01) lies on the Chelsea piers in OpenStreetMap's coastline;
		// mid-river is a kilometre further west.
		{"the Hudson off Midtown", 14, 40.75, -74.02, "water"},
		{"the Hudson off Midtown", 12, 40.75, -74.02, "water"},
		{"the East River at 42nd Street", 14, 40.7485, -73.9665, "water"},
		{"Upper New York Bay", 14, 40.67, -74.04, "water"},
		{"Manhattan (Upper East Side)", 14, 40.78, -73.97, "land"},
		{"Manhattan (Midtown)", 14, 40.754, -73.984, "land"},
		{"Jersey City", 14, 40.728, -74.077, "land"},
		{"Brooklyn", 14, 40.678, -73.944, "land"},
		{"the Hudson at zoom 7 (coarse land only)", 7, 40.75, -74.02, "land"},
	} {
		if got := drawnAs(t, b, c.z, c.lon, c.lat); got != c.want {
			t.Errorf("%s (%v, %v) at zoom %d: drawn as %s, want %s", c.name, c.lat, c.lon, c.z, got, c.want)
		}
	}
}

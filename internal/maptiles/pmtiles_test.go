package maptiles

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"locator/internal/maptiles/pmtilestest"
)

func TestTileID(t *testing.T) {
	for _, c := range pmtilestest.SpecExamples {
		if got := TileID(c.Z, c.X, c.Y); got != c.ID {
			t.Errorf("TileID(%d, %d, %d) = %d, want %d", c.Z, c.X, c.Y, got, c.ID)
		}
	}
}

// testArchive is a small street-map archive around New York: the offline
// basemap's own tiles at zooms 0-3 and a 3 x 3 block at zoom 10, stored as a
// real extract stores them.
func testArchive(t testing.TB, leafEvery int) []byte {
	t.Helper()
	b := mustBasemap(t)
	var tiles []pmtilestest.Tile
	add := func(z, x, y int) {
		data, err := b.Tile(z, x, y)
		if err != nil {
			t.Fatal(err)
		}
		tiles = append(tiles, pmtilestest.Tile{Z: z, X: x, Y: y, Data: data})
	}
	for z := 0; z <= 3; z++ {
		x, y := tileAt(z, nycLon, nycLat)
		add(z, x, y)
	}
	cx, cy := tileAt(10, nycLon, nycLat)
	for x := cx - 1; x <= cx+1; x++ {
		for y := cy - 1; y <= cy+1; y++ {
			add(10, x, y)
		}
	}
	return pmtilestest.Archive(tiles, pmtilestest.Options{
		LeafEvery: leafEvery, Metadata: `{"name":"test","vector_layers":[{"id":"place"}]}`,
		Bounds: [4]float64{-74.3, 40.5, -73.7, 40.95}, Center: [2]float64{-74.0, 40.71}, CenterZoom: 10,
	})
}

func TestPMTilesRead(t *testing.T) {
	b := mustBasemap(t)
	for _, leafEvery := range []int{0, 2} {
		archive := testArchive(t, leafEvery)
		p, err := NewPMTiles(bytes.NewReader(archive), int64(len(archive)))
		if err != nil {
			t.Fatal(err)
		}
		if p.Header.MinZoom != 0 || p.Header.MaxZoom != 10 || !p.Gzipped() || p.Header.CenterLat < 40.7 || p.Header.MinLon > -74.29 {
			t.Errorf("header %+v", p.Header)
		}
		meta, err := p.Metadata()
		if err != nil || !strings.Contains(string(meta), `"vector_layers"`) {
			t.Errorf("metadata %q, %v", meta, err)
		}
		cx, cy := tileAt(10, nycLon, nycLat)
		for x := cx - 1; x <= cx+1; x++ {
			for y := cy - 1; y <= cy+1; y++ {
				got, err := p.Tile(10, x, y)
				want, _ := b.Tile(10, x, y)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("leaves %d: tile 10/%d/%d: %d bytes, %v; want the stored %d bytes", leafEvery, x, y, len(got), err, len(want))
				}
			}
		}
		// A tile the extract does not hold, and tiles outside the pyramid.
		if got, err := p.Tile(10, cx+5, cy); got != nil || err != nil {
			t.Errorf("missing tile: %d bytes, %v", len(got), err)
		}
		if _, err := p.Tile(11, 0, 0); err != ErrNoTile {
			t.Errorf("zoom over the archive's: %v", err)
		}
		if _, err := p.Tile(2, 4, 0); err != ErrNoTile {
			t.Errorf("x out of range: %v", err)
		}
	}
}

func TestOpenPMTilesErrors(t *testing.T) {
	dir := t.TempDir()
	good := testArchive(t, 0)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p, err := OpenPMTiles(write("good.pmtiles", good)); err != nil {
		t.Fatalf("good archive: %v", err)
	} else {
		_ = p.Close()
	}
	v2 := slices.Clone(good)
	v2[7] = 2
	raster := slices.Clone(good)
	raster[99] = 2
	for name, c := range map[string]struct {
		path string
		want string
	}{
		"missing":   {filepath.Join(dir, "nope.pmtiles"), "no such file"},
		"empty":     {write("empty.pmtiles", nil), "too short"},
		"text":      {write("text.pmtiles", []byte(strings.Repeat("not an archive ", 20))), "magic"},
		"version 2": {write("v2.pmtiles", v2), "version 2"},
		"raster":    {write("raster.pmtiles", raster), "tile type 2"},
		"truncated": {write("cut.pmtiles", good[:200]), "beyond the end"},
		"garbled":   {write("garbled.pmtiles", slices.Concat(good[:pmHeaderLen], bytes.Repeat([]byte{0xff}, len(good)-pmHeaderLen))), "root directory"},
	} {
		p, err := OpenPMTiles(c.path)
		if err == nil {
			_ = p.Close()
			t.Errorf("%s: opened", name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", name, err, c.want)
		}
	}
}

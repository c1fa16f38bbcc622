package maptiles

import (
	"bytes"
	"testing"

	"locator/internal/golden"
)

func TestEmbeddedBasemapUpToDate(t *testing.T) {
	got := golden.Regenerated(t, "basemap", "basemap.bin.gz")
	if !bytes.Equal(got, basemapData) {
		t.Fatalf("internal/maptiles/basemap.bin.gz is stale (%d bytes, regenerated %d): run `go run ./tools/basemap` and commit the result",
			len(basemapData), len(got))
	}
}

func TestBasemapLayers(t *testing.T) {
	layers, err := loadBasemap()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, l := range layers {
		got[l.name] = len(l.full)
		for _, sh := range l.full {
			if sh.bound.Min[0] < 0 || sh.bound.Max[0] > 1 || sh.bound.Min[1] < 0 || sh.bound.Max[1] > 1 {
				t.Fatalf("%s: shape outside the world: %v", l.name, sh.bound)
			}
		}
	}
	// Natural Earth 1:50m countries' shared borders, the 49 borders between
	// US states, thousands of county lines.
	if got["land"] < 1000 || got["country"] < 200 || got["state"] < 49 || got["county"] < 5000 {
		t.Fatalf("layers %v", got)
	}
}

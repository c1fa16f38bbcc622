package maptiles

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestEmbeddedBasemapUpToDate(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(root, "tools", "basemap", "node_modules")
	if _, err := os.Stat(in); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: run `npm ci --no-audit --no-fund` in tools/basemap before the tests", in)
		}
		t.Skipf("%s is missing; run `npm ci --no-audit --no-fund` in tools/basemap to check the embedded data", in)
	}
	out := filepath.Join(t.TempDir(), "basemap.bin.gz")
	cmd := exec.Command("go", "run", "./tools/basemap", "-in", in, "-out", out)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./tools/basemap: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
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

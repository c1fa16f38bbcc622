// Command basemap reduces the boundary files of the npm packages pinned in
// tools/basemap/package.json (Natural Earth countries from world-atlas, US
// Census nation, states and counties from us-atlas, OpenStreetMap seas and
// lakes from @geo-maps, the streets of two cities from @mapbox/mvt-fixtures)
// to the one compressed file that internal/maptiles embeds
// (internal/maptiles/basemap.bin.gz).
//
// The output is deterministic: the same inputs give the same bytes, so a test
// can tell when the committed file is stale. Run from the repository root:
//
//	(cd tools/basemap && npm ci --no-audit --no-fund)
//	go run ./tools/basemap
//
// The format is maptiles.File (gob, gzip without name or mtime); see
// internal/maptiles/data.go.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"locator/internal/maptiles/basemapfile"
)

func main() {
	in := flag.String("in", "tools/basemap/node_modules", "directory holding the installed npm packages")
	out := flag.String("out", "internal/maptiles/basemap.bin.gz", "output file")
	flag.Parse()
	log.SetFlags(0)
	b, err := Build(*in)
	if err != nil {
		log.Fatalf("basemap: %v", err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatalf("basemap: %v", err)
	}
	log.Printf("basemap: wrote %s (%d bytes)", *out, len(b))
}

// Build reads the packages under dir and returns the gzip-compressed file.
func Build(dir string) ([]byte, error) {
	world, err := readTopology(filepath.Join(dir, "world-atlas", "countries-50m.json"))
	if err != nil {
		return nil, err
	}
	us, err := readTopology(filepath.Join(dir, "us-atlas", "counties-10m.json"))
	if err != nil {
		return nil, err
	}
	var f basemapfile.File
	f.Version = basemapfile.Version

	// Land: every country but the United States from Natural Earth (1:50m),
	// the United States from the Census Bureau's nation outline, which has
	// the finer shoreline (harbours, sounds, barrier islands).
	land := basemapfile.Layer{Name: "land", Kind: basemapfile.Polygons}
	for _, g := range world.Objects["countries"].Geometries {
		if g.ID == "840" {
			continue
		}
		land.Features = append(land.Features, world.polygons(g, "")...)
	}
	for _, g := range us.Objects["nation"].Geometries {
		land.Features = append(land.Features, us.polygons(g, "")...)
	}
	f.Layers = append(f.Layers, land,
		basemapfile.Layer{Name: "country", Kind: basemapfile.Lines, Features: world.borders(world.Objects["countries"].Geometries, nil)},
		basemapfile.Layer{Name: "state", Kind: basemapfile.Lines, Features: us.borders(us.Objects["states"].Geometries, nil)},
		// County lines inside states only: state lines are drawn over them anyway.
		basemapfile.Layer{Name: "county", Kind: basemapfile.Lines, Features: us.borders(us.Objects["counties"].Geometries, func(a, b geometry) bool {
			return len(a.ID) == 5 && len(b.ID) == 5 && a.ID[:2] == b.ID[:2]
		})},
	)

	seas, err := readSeas(filepath.Join(dir, "@geo-maps", "earth-seas-10m", "map.geo.json"))
	if err != nil {
		return nil, err
	}
	// The lakes, ponds and reservoirs of OpenStreetMap (natural=water) join the seas in one
	// layer: the map draws both alike, and the demo's stores keep out of both (maptiles.Land).
	lakes, err := readSeas(filepath.Join(dir, "@geo-maps", "earth-lakes-10m", "map.geo.json"))
	if err != nil {
		return nil, err
	}
	f.Layers = append(f.Layers, waterLayer(append(seas, lakes...)))

	roads, err := roadLayers(filepath.Join(dir, "@mapbox", "mvt-fixtures", "real-world"))
	if err != nil {
		return nil, err
	}
	f.Layers = append(f.Layers, roads...)

	var raw bytes.Buffer
	if err := gob.NewEncoder(&raw).Encode(&f); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

type geometry struct {
	Type       string          `json:"type"`
	ID         string          `json:"id"`
	Arcs       json.RawMessage `json:"arcs"`
	Properties struct {
		Name string `json:"name"`
	} `json:"properties"`
	Geometries []geometry `json:"geometries"`
}

type topology struct {
	Transform *struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][2]float64      `json:"arcs"`
	Objects map[string]geometry `json:"objects"`
	decoded [][][2]float64
}

func readTopology(path string) (*topology, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t topology
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Quantized arcs are delta-encoded integers.
	t.decoded = make([][][2]float64, len(t.Arcs))
	for i, arc := range t.Arcs {
		out := make([][2]float64, len(arc))
		var x, y float64
		for j, p := range arc {
			if t.Transform != nil {
				x += p[0]
				y += p[1]
				out[j] = [2]float64{x*t.Transform.Scale[0] + t.Transform.Translate[0], y*t.Transform.Scale[1] + t.Transform.Translate[1]}
			} else {
				out[j] = p
			}
		}
		t.decoded[i] = out
	}
	return &t, nil
}

// arc returns arc i's points, reversed for a negative index (~i).
func (t *topology) arc(i int) [][2]float64 {
	if i >= 0 {
		return t.decoded[i]
	}
	a := t.decoded[^i]
	out := make([][2]float64, len(a))
	for j := range a {
		out[j] = a[len(a)-1-j]
	}
	return out
}

func (t *topology) ring(arcs []int) [][2]float64 {
	var out [][2]float64
	for k, i := range arcs {
		pts := t.arc(i)
		if k > 0 && len(pts) > 0 {
			pts = pts[1:] // arcs share their end points
		}
		out = append(out, pts...)
	}
	return out
}

// polygons returns one feature per polygon (outer ring, then holes).
func (t *topology) polygons(g geometry, name string) []basemapfile.Feature {
	var polys [][][]int
	switch g.Type {
	case "Polygon":
		var p [][]int
		if err := json.Unmarshal(g.Arcs, &p); err != nil {
			log.Fatalf("basemap: polygon %s: %v", g.ID, err)
		}
		polys = [][][]int{p}
	case "MultiPolygon":
		if err := json.Unmarshal(g.Arcs, &polys); err != nil {
			log.Fatalf("basemap: multipolygon %s: %v", g.ID, err)
		}
	default:
		return nil
	}
	var out []basemapfile.Feature
	for _, p := range polys {
		f := basemapfile.Feature{Name: name}
		for _, r := range p {
			f.Parts = append(f.Parts, encode(t.ring(r)))
		}
		out = append(out, f)
	}
	return out
}

// borders returns the arcs two different geometries share (each once), as
// lines, joined where one ends and the next begins; keep (when set) chooses
// which neighbours' shared arcs count.
func (t *topology) borders(geoms []geometry, keep func(a, b geometry) bool) []basemapfile.Feature {
	users := make([][]int, len(t.decoded))
	for gi, g := range geoms {
		var rings [][]int
		switch g.Type {
		case "Polygon":
			var p [][]int
			_ = json.Unmarshal(g.Arcs, &p)
			rings = p
		case "MultiPolygon":
			var mp [][][]int
			_ = json.Unmarshal(g.Arcs, &mp)
			for _, p := range mp {
				rings = append(rings, p...)
			}
		}
		for _, r := range rings {
			for _, i := range r {
				if i < 0 {
					i = ^i
				}
				users[i] = append(users[i], gi)
			}
		}
	}
	var out []basemapfile.Feature
	for i, u := range users {
		if len(u) != 2 || u[0] == u[1] {
			continue
		}
		if keep != nil && !keep(geoms[u[0]], geoms[u[1]]) {
			continue
		}
		out = append(out, basemapfile.Feature{Parts: [][]int32{encode(t.decoded[i])}})
	}
	return out
}

// encode stores points as delta-encoded integers of 1e-5 degrees (about a
// metre, far below the sources' precision), which gob writes as varints.
func encode(pts [][2]float64) []int32 {
	out := make([]int32, 0, 2*len(pts))
	var px, py int32
	for _, p := range pts {
		x := int32(math.Round(p[0] * basemapfile.Scale))
		y := int32(math.Round(p[1] * basemapfile.Scale))
		out = append(out, x-px, y-py)
		px, py = x, y
	}
	return out
}

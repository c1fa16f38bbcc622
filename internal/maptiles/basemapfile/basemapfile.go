// Package basemapfile is the layout of internal/maptiles/basemap.bin.gz,
// shared by its writer (tools/basemap) and its reader (internal/maptiles): a
// gob-encoded File, gzip-compressed.
package basemapfile

// Version is File.Version; bump it with both sides when the layout changes.
const Version = 1

// Scale: coordinates are integers of 1/Scale degrees.
const Scale = 1e5

// Kind says how a layer's parts are read.
type Kind uint8

const (
	// Polygons: each feature is one polygon, outer ring first, then holes.
	Polygons Kind = 1
	// Lines: each part is a line.
	Lines Kind = 2
)

// File is the whole basemap.
type File struct {
	Version int
	Layers  []Layer
}

// Layer is one named set of features of one kind.
type Layer struct {
	Name     string
	Kind     Kind
	Features []Feature
}

// Feature is one polygon or a set of lines; each part holds longitude and
// latitude pairs in 1/Scale degrees, each pair the difference from the
// previous one (the first from 0, 0).
type Feature struct {
	Name  string
	Parts [][]int32
}

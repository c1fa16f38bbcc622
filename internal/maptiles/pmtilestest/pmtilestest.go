// Package pmtilestest writes small PMTiles v3 archives for tests, as
// extract tools write them: gzip-compressed directories and tiles, entries
// in Hilbert order, optionally spread over leaf directories. It shares no
// code with the reader (internal/maptiles); both are checked against the
// specification's examples (SpecExamples: TestTileID there, TestID here).
package pmtilestest

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"slices"
)

// Tile is one tile of an archive; Data is stored as given (gzip-compressed
// vector tile bytes for an archive the server accepts).
type Tile struct {
	Z, X, Y int
	Data    []byte
}

// Options shape the archive.
type Options struct {
	// LeafEvery > 0 puts the entries in leaf directories of that many
	// entries, the root directory pointing at them.
	LeafEvery int
	Metadata  string // JSON; "{}" when empty
	// Bounds (west, south, east, north) and centre in degrees.
	Bounds     [4]float64
	Center     [2]float64
	CenterZoom uint8
}

// SpecExamples are the PMTiles specification's examples of tile ids.
var SpecExamples = []struct {
	Z    uint8
	X, Y uint32
	ID   uint64
}{{0, 0, 0, 0}, {1, 0, 0, 1}, {1, 0, 1, 2}, {1, 1, 1, 3}, {1, 1, 0, 4}, {2, 1, 3, 11}, {3, 3, 0, 26}, {20, 0, 0, 366503875925}}

// ID is a tile's PMTiles id (the specification's Hilbert numbering).
func ID(z uint8, x, y uint32) uint64 {
	var base uint64
	for i := range z {
		base += uint64(1) << (2 * uint64(i))
	}
	// Hilbert index of (x, y) on a 2^z grid, the classic xy2d.
	n := uint32(1) << z
	var d uint64
	for s := n / 2; s > 0; s /= 2 {
		rx := uint32(0)
		if x&s != 0 {
			rx = 1
		}
		ry := uint32(0)
		if y&s != 0 {
			ry = 1
		}
		d += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		if ry == 0 {
			if rx == 1 {
				x, y = n-1-x, n-1-y
			}
			x, y = y, x
		}
	}
	return base + d
}

type entry struct {
	id        uint64
	offset    uint64
	length    uint64
	runLength uint64
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

func directory(es []entry) []byte {
	b := binary.AppendUvarint(nil, uint64(len(es)))
	var last uint64
	for _, e := range es {
		b = binary.AppendUvarint(b, e.id-last)
		last = e.id
	}
	for _, e := range es {
		b = binary.AppendUvarint(b, e.runLength)
	}
	for _, e := range es {
		b = binary.AppendUvarint(b, e.length)
	}
	for i, e := range es {
		if i > 0 && e.offset == es[i-1].offset+es[i-1].length {
			b = binary.AppendUvarint(b, 0)
		} else {
			b = binary.AppendUvarint(b, e.offset+1)
		}
	}
	return b
}

// Archive returns the bytes of an archive holding tiles.
func Archive(tiles []Tile, o Options) []byte {
	tiles = slices.Clone(tiles)
	slices.SortFunc(tiles, func(a, b Tile) int {
		ia, ib := ID(uint8(a.Z), uint32(a.X), uint32(a.Y)), ID(uint8(b.Z), uint32(b.X), uint32(b.Y))
		switch {
		case ia < ib:
			return -1
		case ia > ib:
			return 1
		}
		return 0
	})
	var data []byte
	var entries []entry
	minZ, maxZ := 30, 0
	for _, t := range tiles {
		entries = append(entries, entry{id: ID(uint8(t.Z), uint32(t.X), uint32(t.Y)), offset: uint64(len(data)), length: uint64(len(t.Data)), runLength: 1})
		data = append(data, t.Data...)
		minZ, maxZ = min(minZ, t.Z), max(maxZ, t.Z)
	}
	root, leaves := entries, []byte(nil)
	if o.LeafEvery > 0 {
		root = nil
		for i := 0; i < len(entries); i += o.LeafEvery {
			chunk := entries[i:min(len(entries), i+o.LeafEvery)]
			d := gz(directory(chunk))
			root = append(root, entry{id: chunk[0].id, offset: uint64(len(leaves)), length: uint64(len(d))})
			leaves = append(leaves, d...)
		}
	}
	rootBytes := gz(directory(root))
	meta := o.Metadata
	if meta == "" {
		meta = "{}"
	}
	metaBytes := gz([]byte(meta))
	h := make([]byte, 127)
	copy(h, "PMTiles")
	h[7] = 3
	le := binary.LittleEndian
	off := uint64(len(h))
	for i, n := range []uint64{uint64(len(rootBytes)), uint64(len(metaBytes)), uint64(len(leaves)), uint64(len(data))} {
		le.PutUint64(h[8+16*i:], off)
		le.PutUint64(h[16+16*i:], n)
		off += n
	}
	le.PutUint64(h[72:], uint64(len(tiles)))
	le.PutUint64(h[80:], uint64(len(tiles)))
	le.PutUint64(h[88:], uint64(len(tiles)))
	h[96] = 1 // clustered
	h[97] = 2 // directories: gzip
	h[98] = 2 // tiles: gzip
	h[99] = 1 // vector tiles
	h[100], h[101] = uint8(minZ), uint8(maxZ)
	deg := func(at int, v float64) { le.PutUint32(h[at:], uint32(int32(v*1e7))) }
	for i, v := range o.Bounds {
		deg(102+4*i, v)
	}
	h[118] = o.CenterZoom
	deg(119, o.Center[0])
	deg(123, o.Center[1])
	return slices.Concat(h, rootBytes, metaBytes, leaves, data)
}

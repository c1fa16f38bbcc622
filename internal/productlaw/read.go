package productlaw

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/catalog"
	"locator/internal/tabfile"
)

// Limits bound what a directory file may cost. The published lists hold
// hundreds to a few thousand products.
type Limits = tabfile.Limits

// DefaultLimits are the command's.
var DefaultLimits = Limits{Bytes: 64 << 20, Rows: 200_000}

// maxField bounds a field's characters: product names of the lists are
// far shorter.
const maxField = 300

// Report is what an import did.
type Report struct {
	State   string             `json:"state"`
	Rows    int                `json:"rows"`    // good rows (written when Written)
	Removed int                `json:"removed"` // the state's former rows, replaced
	Written bool               `json:"written"` // false: the file wrote nothing (refused rows without SkipBad)
	Failed  int                `json:"failed"`
	Errors  []tabfile.RowError `json:"errors"`  // the first tabfile.MaxRowErrors, by line
	Ignored []string           `json:"ignored"` // columns of the file the definition does not read
}

// Entry is one listed product of a directory file.
type Entry struct {
	Line                                                           int
	GTIN, Brand, Name, Manufacturer, Category, Flavour, Submission string
	NameKey                                                        string // what a product without a listed GTIN is matched by
}

// entryKey is the key a directory row is listed under when its row names
// no GTIN, and a catalogue product is looked up by: brand and name, and
// the row's flavour when the list gives it in a column of its own and the
// name does not already say it ("Alto Pods" + "Golden Tobacco" lists the
// catalogue's "Vuse Alto Pods Golden Tobacco", not every Alto pod).
func entryKey(brand, name, flavour string) string {
	if f := words(flavour); f != "" && !strings.Contains(" "+words(name)+" ", " "+f+" ") {
		name += " " + flavour
	}
	return nameKey(brand, name)
}

// Read reads a directory file in the state's published layout (CSV or
// TSV with a header line; tabfile): its good entries and the report of the
// refused rows. A file that cannot be read (size, a header without every
// column of the definition, a column twice) is an error: the layout
// changed or it is another state's file, and reading on would list
// nothing or the wrong thing.
func (s *State) Read(r io.Reader, lim Limits) ([]Entry, *Report, error) {
	tr, err := tabfile.NewReader(r, lim.Bytes)
	if err != nil {
		return nil, nil, fileError(err, lim)
	}
	rep := &Report{State: s.State, Errors: []tabfile.RowError{}, Ignored: []string{}}
	col, err := s.header(tr.Header, rep)
	if err != nil {
		return nil, nil, err
	}
	var out []Entry
	first := map[string]int{} // GTIN, else name key -> the line that listed it
	for {
		rec, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fileError(err, lim)
		}
		if rec.Err != "" {
			rep.fail(rec.Line, rec.Err)
			continue
		}
		if len(out) >= lim.Rows {
			return nil, nil, apperr.Invalidf("the file has more than %d rows", lim.Rows)
		}
		e, msg := s.entry(rec, col)
		if msg == "" {
			k := e.GTIN
			if k == "" {
				k = "name:" + e.NameKey
			}
			if l, ok := first[k]; ok {
				msg = fmt.Sprintf("repeats the product of line %d", l)
			} else {
				first[k] = rec.Line
			}
		}
		if msg != "" {
			rep.fail(rec.Line, msg)
			continue
		}
		out = append(out, e)
	}
	rep.Rows = len(out)
	return out, rep, nil
}

func (rep *Report) fail(line int, msg string) {
	tabfile.AddRowError(&rep.Errors, &rep.Failed, line, msg)
}

// header finds each defined column in the file (tabfile lower-cases the
// header; the definition's names are compared the same way).
func (s *State) header(header []string, rep *Report) (map[string]int, error) {
	at := map[string]int{}
	for i, h := range header {
		if _, ok := at[h]; ok {
			return nil, apperr.Invalidf("header: column %q appears twice", h)
		}
		at[h] = i
	}
	col := map[string]int{}
	var missing []string
	read := map[string]bool{}
	for _, f := range directoryFields {
		name, ok := s.Columns[f]
		if !ok {
			continue
		}
		i, ok := at[strings.ToLower(strings.TrimSpace(name))]
		if !ok {
			missing = append(missing, fmt.Sprintf("%q", name))
			continue
		}
		col[f] = i
		read[header[i]] = true
	}
	if len(missing) > 0 {
		return nil, apperr.Invalidf("header: the file has no column %s: it is not in the layout of %s's directory (%s)",
			strings.Join(missing, ", "), s.Name, s.layout())
	}
	for _, h := range header {
		if !read[h] && h != "" {
			rep.Ignored = append(rep.Ignored, h)
		}
	}
	return col, nil
}

// layout names the definition's columns.
func (s *State) layout() string {
	var cs []string
	for _, f := range directoryFields {
		if c, ok := s.Columns[f]; ok {
			cs = append(cs, c)
		}
	}
	return strings.Join(cs, ", ")
}

// entry reads one record, or says why it is refused.
func (s *State) entry(rec tabfile.Record, col map[string]int) (Entry, string) {
	get := func(f string) string {
		if i, ok := col[f]; ok {
			return rec.Field(i)
		}
		return ""
	}
	e := Entry{Line: rec.Line, Brand: get("brand"), Name: get("name"), Manufacturer: get("manufacturer"),
		Category: get("category"), Flavour: get("flavour"), Submission: get("submission")}
	for _, f := range []struct{ field, v string }{
		{"brand", e.Brand}, {"name", e.Name}, {"manufacturer", e.Manufacturer},
		{"category", e.Category}, {"flavour", e.Flavour}, {"submission", e.Submission},
	} {
		if utf8.RuneCountInString(f.v) > maxField {
			return e, fmt.Sprintf("%s is longer than %d characters", s.Columns[f.field], maxField)
		}
	}
	if words(e.Brand) == "" {
		return e, fmt.Sprintf("%s is empty", s.Columns["brand"])
	}
	if words(e.Name) == "" {
		return e, fmt.Sprintf("%s is empty", s.Columns["name"])
	}
	if g := get("gtin"); g != "" {
		n, err := catalog.NormaliseGTIN(g)
		if err != nil {
			return e, s.Columns["gtin"] + ": " + err.Error()
		}
		e.GTIN = n
	}
	e.NameKey = entryKey(e.Brand, e.Name, e.Flavour)
	return e, ""
}

func fileError(err error, l Limits) error {
	if errors.Is(err, tabfile.ErrTooLarge) {
		return apperr.New(apperr.TooLarge, "the file is too large (more than %d MB)", l.Bytes>>20)
	}
	return apperr.Invalidf("%s", err.Error())
}

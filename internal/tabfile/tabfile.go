// Package tabfile reads the tables operators hand the importers (CSV or
// TSV with a header line) one physical line at a time, so that one broken
// row costs that row only and no row, however hostile, costs more memory
// than MaxLineBytes. A record must fit on its line: a quote left open at
// the end of a line is that row's error, not a field that swallows the
// rest of the file (catalogue and feed fields never hold a line break).
package tabfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxLineBytes bounds one line; a longer one is refused without being held.
const MaxLineBytes = 64 << 10

// ErrTooLarge is the error of a file over its size bound.
var ErrTooLarge = errors.New("the file is too large")

// Reader hands out the records of a CSV or TSV file.
type Reader struct {
	br     *bufio.Reader
	line   int
	Comma  byte     // ',' or '\t', from the header line
	Header []string // trimmed column names
}

// NewReader reads the header of r, at most limit bytes in all: past that,
// reading fails with ErrTooLarge (a cut file would read as a shorter valid
// one). The delimiter is a tab when the header holds one, else a comma. A
// UTF-8 byte order mark is skipped; an empty file or a header that cannot be
// read is an error.
func NewReader(r io.Reader, limit int64) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(&LimitReader{R: r, Left: limit}, MaxLineBytes)}
	if b, err := rd.br.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = rd.br.Discard(3)
	}
	for {
		n, text, bad, err := rd.next()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the file is empty")
		}
		if err != nil {
			return nil, err
		}
		if bad == "" && strings.TrimSpace(text) == "" {
			continue
		}
		if bad != "" {
			return nil, fmt.Errorf("header (line %d): %s", n, bad)
		}
		if strings.IndexByte(text, '\t') >= 0 {
			rd.Comma = '\t'
		} else {
			rd.Comma = ','
		}
		fields, err := rd.split(text)
		if err != nil {
			return nil, fmt.Errorf("header (line %d): %w", n, err)
		}
		for i := range fields {
			fields[i] = strings.ToLower(strings.TrimSpace(fields[i]))
		}
		rd.Header = fields
		return rd, nil
	}
}

// Limits bound what an imported file may cost: its size in bytes and its
// rows. Each importer sets its own defaults.
type Limits struct {
	Bytes int64
	Rows  int
}

// MaxRowErrors is how many refused rows an importer lists (all are counted).
const MaxRowErrors = 1000

// AddRowError counts a refused row in *failed and lists it in *list while
// the list holds fewer than MaxRowErrors; it says whether it was listed.
func AddRowError(list *[]RowError, failed *int, line int, msg string) bool {
	*failed++
	if len(*list) >= MaxRowErrors {
		return false
	}
	*list = append(*list, RowError{Line: line, Message: msg})
	return true
}

// RowError is one row an importer refused: Line counts the header as
// line 1 (in a JSON file, the item's position from 1), Message says why.
// The importers of catalogue, stock feeds, state directories and licence
// registries all report with it.
type RowError struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (e RowError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message) }

// Record is one data line: its number in the file (from 1, the header
// counted) and its fields, trimmed, one per column of the header (missing
// ones empty), or why it could not be read.
type Record struct {
	Line   int
	Fields []string
	Err    string
}

// Column returns the index of the header's column name, or -1.
func (rd *Reader) Column(name string) int {
	for i, h := range rd.Header {
		if h == name {
			return i
		}
	}
	return -1
}

// Field returns the field at column i (Column), "" for -1.
func (r Record) Field(i int) string {
	if i < 0 || i >= len(r.Fields) {
		return ""
	}
	return r.Fields[i]
}

// Next returns the next record; io.EOF at the end. Blank lines are skipped.
// Only a failure to read the file (ErrTooLarge, an I/O error) is an error.
func (rd *Reader) Next() (Record, error) {
	for {
		n, text, bad, err := rd.next()
		if err != nil {
			return Record{}, err
		}
		if bad != "" {
			return Record{Line: n, Err: bad}, nil
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		fields, err := rd.split(text)
		if err != nil {
			return Record{Line: n, Err: err.Error()}, nil
		}
		if len(fields) > len(rd.Header) {
			return Record{Line: n, Err: fmt.Sprintf("the line has %d fields, the header %d", len(fields), len(rd.Header))}, nil
		}
		for i, f := range fields {
			fields[i] = strings.TrimSpace(f)
		}
		return Record{Line: n, Fields: fields}, nil
	}
}

// next reads one physical line without its line end, or bad when the line
// is too long, not UTF-8 or holds a NUL byte.
func (rd *Reader) next() (n int, text, bad string, err error) {
	b, err := rd.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		rd.line++
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = rd.br.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, "", "", fileErr(err)
		}
		return rd.line, "", fmt.Sprintf("the line is longer than %d KB", MaxLineBytes>>10), nil
	}
	if err != nil && (!errors.Is(err, io.EOF) || len(b) == 0) {
		if errors.Is(err, io.EOF) {
			return 0, "", "", io.EOF
		}
		return 0, "", "", fileErr(err)
	}
	rd.line++
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	switch {
	case !utf8.Valid(b):
		return rd.line, "", "the line is not valid UTF-8 (save the file as UTF-8)", nil
	case bytes.IndexByte(b, 0) >= 0:
		return rd.line, "", "the line holds a NUL byte", nil
	}
	return rd.line, string(b), "", nil
}

func fileErr(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return ErrTooLarge
	}
	return fmt.Errorf("read file: %w", err)
}

// split splits one line. CSV follows RFC 4180 within the line: a field is
// plain (no quote in it) or quoted, with "" for a quote. TSV fields are
// taken as they are, as the local inventory feed's TSV writes them.
func (rd *Reader) split(s string) ([]string, error) {
	if rd.Comma == '\t' {
		return strings.Split(s, "\t"), nil
	}
	return SplitCSV(s)
}

// LimitReader is io.LimitReader that fails with ErrTooLarge past its limit
// instead of ending the file there.
type LimitReader struct {
	R    io.Reader
	Left int64
}

func (l *LimitReader) Read(p []byte) (int, error) {
	if l.Left <= 0 {
		// One byte more tells a file of exactly the limit from a larger one.
		var b [1]byte
		n, err := l.R.Read(b[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.Left {
		p = p[:l.Left]
	}
	n, err := l.R.Read(p)
	l.Left -= int64(n)
	return n, err
}

// ErrUnclosed is SplitCSV's answer to a quoted field that does not close on
// the text it was given: a broken record, or (where a reader allows it, as
// the licence sources' reader does) a field that goes on on the next line.
var ErrUnclosed = errors.New("a quote is not closed on its line (a quote missing or not doubled)")

// SplitCSV splits one record the way RFC 4180 (and encoding/csv) does: a
// field is plain (no quote in it) or quoted, with "" for a quote.
func SplitCSV(s string) ([]string, error) {
	var fields []string
	for {
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for {
				j := strings.IndexByte(s[i:], '"')
				if j < 0 {
					return nil, fmt.Errorf("field %d: %w", len(fields)+1, ErrUnclosed)
				}
				b.WriteString(s[i : i+j])
				i += j + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			fields = append(fields, b.String())
			s = s[i:]
			if s == "" {
				return fields, nil
			}
			if s[0] != ',' {
				return nil, fmt.Errorf("field %d goes on after its closing quote (a quote inside a field must be doubled)", len(fields))
			}
			s = s[1:]
			continue
		}
		j := strings.IndexByte(s, ',')
		f := s
		if j >= 0 {
			f = s[:j]
		}
		if strings.IndexByte(f, '"') >= 0 {
			return nil, fmt.Errorf("field %d holds a quote but is not quoted", len(fields)+1)
		}
		fields = append(fields, f)
		if j < 0 {
			return fields, nil
		}
		s = s[j+1:]
	}
}

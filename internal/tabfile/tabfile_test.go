package tabfile

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func records(t *testing.T, r *Reader) []Record {
	t.Helper()
	var out []Record
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		out = append(out, rec)
	}
}

// A TSV file (a tab in the header) splits on tabs and keeps quotes; the
// byte order mark and CRLF line ends are dropped; blank lines are skipped
// but counted.
func TestTSV(t *testing.T) {
	r, err := NewReader(strings.NewReader("\xEF\xBB\xBFStore_Code\tid\r\n\r\nS1\t\"a\"\r\n"), 1<<20)
	if err != nil || r.Comma != '\t' || strings.Join(r.Header, "|") != "store_code|id" {
		t.Fatalf("header: %v %q %q", err, r.Comma, r.Header)
	}
	recs := records(t, r)
	if len(recs) != 1 || recs[0].Line != 3 || recs[0].Field(r.Column("store_code")) != "S1" || recs[0].Field(r.Column("id")) != `"a"` || recs[0].Field(r.Column("gtin")) != "" {
		t.Fatalf("records: %+v", recs)
	}
}

// Past its limit a file fails with ErrTooLarge, not a shorter file; a file
// of exactly the limit reads whole.
func TestLimit(t *testing.T) {
	body := "a,b\n1,2\n"
	r, err := NewReader(strings.NewReader(body), int64(len(body)))
	must(t, err)
	if recs := records(t, r); len(recs) != 1 {
		t.Fatalf("exact limit: %+v", recs)
	}
	r, err = NewReader(strings.NewReader(body+"3,4\n"), int64(len(body)))
	must(t, err)
	if _, err := r.Next(); err != nil {
		t.Fatalf("first: %v", err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("past the limit: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Any bytes read as records or errors, never a panic, and every line of a
// record is counted.
func FuzzReader(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a\tb\n\"x\ty\n", "a,b\n\"1\"x,2\n\"open,3\n", "\xEF\xBB\xBFa\n\xff\n\x00\n", "", "\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(strings.NewReader(string(b)), 1<<16)
		if err != nil {
			return
		}
		last := 0
		for {
			rec, err := r.Next()
			if err != nil {
				return
			}
			if rec.Line <= last || (rec.Err == "" && len(rec.Fields) > len(r.Header)) {
				t.Fatalf("record %+v after line %d, header %q", rec, last, r.Header)
			}
			last = rec.Line
		}
	})
}

// AddRowError lists the first MaxRowErrors refused rows and counts all.
func TestAddRowErrorListsTheFirstAndCountsAll(t *testing.T) {
	var list []RowError
	failed := 0
	for line := 2; line < MaxRowErrors+5; line++ {
		listed := AddRowError(&list, &failed, line, "bad")
		if listed != (line-2 < MaxRowErrors) {
			t.Fatalf("line %d: listed %v with %d listed", line, listed, len(list))
		}
	}
	if len(list) != MaxRowErrors || failed != MaxRowErrors+3 || list[0] != (RowError{Line: 2, Message: "bad"}) {
		t.Fatalf("listed %d, failed %d, first %+v", len(list), failed, list[0])
	}
	if got := list[1].Error(); got != "line 3: bad" {
		t.Fatalf("Error() = %q", got)
	}
}

package httpbody

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func TestNegotiate(t *testing.T) {
	for _, c := range []struct {
		accept string
		want   Encoding
	}{
		{"", Identity},
		{"gzip", Gzip},
		{"x-gzip", Gzip},
		{"GZIP", Gzip},
		{"zstd", Zstd},
		{"gzip, deflate, br, zstd", Zstd}, // Chrome, Firefox: zstd at equal weight
		{"gzip, deflate, br", Gzip},       // Safari
		{"gzip, deflate", Gzip},
		{"deflate, br", Identity}, // nothing offered
		{"compress", Identity},
		{"unknown-coding;q=1", Identity},
		{"identity", Identity},
		{"gzip;q=0", Identity},
		{"gzip;q=0.0, zstd;q=0", Identity},
		{"gzip; q=0", Identity},
		{"gzip;Q=0.000", Identity},
		{"zstd;q=0, gzip", Gzip},
		{"zstd;q=0.5, gzip", Gzip},
		{"zstd;q=0.5, gzip;q=0.4", Zstd},
		{"zstd;q=0.500, gzip;q=0.501", Gzip},
		{"gzip;q=1.0", Gzip},
		{"*", Zstd},
		{"*;q=0", Identity},
		{"*;q=0, gzip", Gzip},
		{"gzip;q=0, *", Zstd},
		{"zstd;q=0, *;q=0.3", Gzip},
		{"gzip;q=0.5, identity", Identity}, // identity weighs more
		{"gzip;q=0.5, identity;q=0.5", Gzip},
		{"gzip, identity;q=0", Gzip},
		{"identity;q=0", Identity}, // nothing acceptable: identity anyway
		{" gzip ,, zstd ;q=0 ", Gzip},
		{"gzip;level=9;q=0.2, zstd;q=0.1", Gzip},
		{"gzip;q=", Identity},
		{"gzip;q=2", Identity}, // not a qvalue: counts as 0
		{";;;,,,", Identity},
	} {
		if got := Negotiate(c.accept); got != c.want {
			t.Errorf("Negotiate(%q) = %q, want %q", c.accept, got, c.want)
		}
	}
}

func TestNegotiateAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Negotiate("gzip, deflate, br, zstd;q=0.9, *;q=0.1") }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func decode(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	switch coding {
	case "":
		return b
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	case "zstd":
		zr, err := zstd.NewReader(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		out, err := zr.DecodeAll(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Fatalf("coding %q", coding)
	return nil
}

func TestWrite(t *testing.T) {
	big := bytes.Repeat([]byte(`{"id":1,"name":"A store","open_now":true},`), 200)
	small := []byte(`{"physical_stores":[],"has_more":false}`)
	for _, c := range []struct {
		method, accept string
		body           []byte
		coding         string
	}{
		{http.MethodGet, "", big, ""},
		{http.MethodGet, "gzip", big, "gzip"},
		{http.MethodGet, "gzip, deflate, br, zstd", big, "zstd"},
		{http.MethodGet, "gzip;q=0, zstd;q=0", big, ""},
		{http.MethodGet, "br", big, ""},
		{http.MethodGet, "gzip, zstd", small, ""}, // too small to gain
		{http.MethodHead, "gzip", big, "gzip"},
		{http.MethodHead, "", big, ""},
	} {
		r := httptest.NewRequest(c.method, "/x", nil)
		if c.accept != "" {
			r.Header.Set("Accept-Encoding", c.accept)
		}
		rec := httptest.NewRecorder()
		WriteStatus(rec, r, http.StatusTeapot, "application/json", c.body)
		h := rec.Header()
		if rec.Code != http.StatusTeapot || h.Get("Content-Type") != "application/json" || h.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s %q: %d %v", c.method, c.accept, rec.Code, h)
		}
		if got := h.Get("Content-Encoding"); got != c.coding {
			t.Fatalf("%s %q: Content-Encoding %q, want %q", c.method, c.accept, got, c.coding)
		}
		// HEAD: the headers of the GET, no body.
		get := httptest.NewRecorder()
		gr := httptest.NewRequest(http.MethodGet, "/x", nil)
		gr.Header = r.Header
		WriteStatus(get, gr, http.StatusTeapot, "application/json", c.body)
		if cl := h.Get("Content-Length"); cl != strconv.Itoa(get.Body.Len()) {
			t.Fatalf("%s %q: Content-Length %s, GET body %d bytes", c.method, c.accept, cl, get.Body.Len())
		}
		if c.method == http.MethodHead {
			if rec.Body.Len() != 0 {
				t.Fatalf("HEAD %q: %d body bytes", c.accept, rec.Body.Len())
			}
			continue
		}
		if got := decode(t, c.coding, rec.Body.Bytes()); !bytes.Equal(got, c.body) {
			t.Fatalf("%s %q: decodes to %d bytes, want the %d sent", c.method, c.accept, len(got), len(c.body))
		}
		if c.coding != "" && rec.Body.Len() >= len(c.body)/4 {
			t.Fatalf("%q: %d bytes for %d", c.accept, rec.Body.Len(), len(c.body))
		}
	}
}

// countingWriter counts Write calls.
type countingWriter struct {
	*httptest.ResponseRecorder
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) { c.writes++; return c.ResponseRecorder.Write(p) }

func TestWriteIsOneWrite(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 8000)
	for _, accept := range []string{"", "gzip", "zstd"} {
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		r.Header.Set("Accept-Encoding", accept)
		w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
		Write(w, r, "text/plain", big)
		if w.writes != 1 {
			t.Fatalf("%q: %d writes", accept, w.writes)
		}
	}
}

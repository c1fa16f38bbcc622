package bench_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"

	"locator/internal/bench"
	"locator/internal/httpapi"
	"locator/internal/httpbody"
)

// TestGate is the SLB-1 correctness gate on the S data set (100k clustered
// stores): the first 1,000 queries of the mix must equal the brute-force float64 oracle, and every invalid request of
// the mix must answer 400 through the real HTTP handler.
// Under -race it takes ~40 s, nearly all of it generating and rendering the
// 100k documents; the 1,000 oracle queries cost ~6 s of it.
func TestGate(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 100k stores")
	}
	l, err := bench.Load(bench.SizeS, bench.Clustered)
	if err != nil {
		t.Fatal(err)
	}
	if n := l.Index.Len(); n != bench.SizeS {
		t.Fatalf("index holds %d stores, want %d", n, bench.SizeS)
	}
	o := bench.NewOracle(l.Entries)
	if err := bench.Gate(l.Index, o, l.Mix, 1000); err != nil {
		t.Fatal(err)
	}

	h := httpapi.New(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Index: l.Index})
	valid := 0
	for i, r := range l.Mix {
		if !r.Invalid && i%50 != 0 {
			continue
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, r.RawURL, nil))
		if r.Invalid {
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400", r.RawURL, rec.Code)
			}
			continue
		}
		valid++
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", r.RawURL, rec.Code, rec.Body)
		}
		var ans struct {
			Stores []struct {
				ID int64 `json:"id"`
			} `json:"physical_stores"`
			HasMore bool `json:"has_more"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
			t.Fatalf("%s: %v", r.RawURL, err)
		}
		hits, more := l.Index.Nearest(r.Query)
		if len(ans.Stores) != len(hits) || ans.HasMore != more {
			t.Fatalf("%s: HTTP answers %d stores (more %v), index %d (more %v)", r.RawURL, len(ans.Stores), ans.HasMore, len(hits), more)
		}
		for k := range hits {
			if ans.Stores[k].ID != hits[k].ID {
				t.Fatalf("%s: store %d is %d over HTTP, %d in the index", r.RawURL, k, ans.Stores[k].ID, hits[k].ID)
			}
		}
	}
	if valid == 0 {
		t.Fatal("no valid request checked over HTTP")
	}
	checkEncodings(t, h, l.Mix)
}

// checkEncodings: for the first 1,000 valid queries of the mix, the answer
// sent with each coding the server offers decodes to exactly the plain
// answer (fetched before and after it, since the live fields may change
// on the minute between two requests).
func checkEncodings(t *testing.T, h http.Handler, mix []bench.Request) {
	t.Helper()
	get := func(url, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, url, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s (%q): status %d", url, accept, rec.Code)
		}
		return rec
	}
	zr, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	decode := func(coding string, b []byte) []byte {
		switch coding {
		case "":
			return b
		case "gzip":
			gr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			out, err := io.ReadAll(gr)
			if err != nil {
				t.Fatal(err)
			}
			return out
		case "zstd":
			out, err := zr.DecodeAll(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		t.Fatalf("unexpected coding %q", coding)
		return nil
	}
	n, compressed := 0, map[string]int{}
	for _, r := range bench.Valid(mix) {
		if n == 1000 {
			break
		}
		n++
		for _, c := range httpbody.Offered {
			before := get(r.RawURL, "").Body.Bytes()
			rec := get(r.RawURL, c.String())
			got := rec.Header().Get("Content-Encoding")
			if want := c.String(); len(before) >= httpbody.MinSize && got != want {
				t.Fatalf("%s: asked for %s, got %q", r.RawURL, want, got)
			}
			if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(rec.Body.Len()) {
				t.Fatalf("%s (%s): Content-Length %s for %d bytes", r.RawURL, c, cl, rec.Body.Len())
			}
			plain := decode(got, rec.Body.Bytes())
			if !bytes.Equal(plain, before) && !bytes.Equal(plain, get(r.RawURL, "").Body.Bytes()) {
				t.Fatalf("%s: the %s answer decodes to %d bytes that differ from the plain answer (%d bytes)", r.RawURL, c, len(plain), len(before))
			}
			if got != "" {
				compressed[got]++
			}
		}
	}
	for _, c := range httpbody.Offered {
		if compressed[c.String()] == 0 {
			t.Errorf("no answer of the %d was sent with %s", n, c)
		}
	}
}

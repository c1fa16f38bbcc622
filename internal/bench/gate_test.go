package bench_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"locator/internal/bench"
	"locator/internal/httpapi"
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
}

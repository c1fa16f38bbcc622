package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"locator/internal/httpapi"
	"locator/internal/search"
	"locator/internal/stores"
)

// FuzzListStores throws arbitrary query strings at the search handler: the
// answer is always 200 with a store list or 400 with a message, never a
// panic or a 500. The test command runs it for a bounded time.
func FuzzListStores(f *testing.F) {
	ix := search.NewIndex()
	ix.PutAll([]stores.Entry{
		{ID: 1, Latitude: 40.71, Longitude: -74.0, TimeZone: "America/New_York", Schedule: "1 09:00 17:00", Doc: []byte(`{"id":1}`)},
		{ID: 2, Latitude: 40.72, Longitude: -74.01, Delivery: true, TimeZone: "Bad/Zone", Schedule: "5 18:00 02:00", Doc: []byte(`{"id":2}`)},
		{ID: 3, Latitude: -89.9, Longitude: 179.99, Curbside: true, TimeZone: "UTC", Doc: []byte(`{"id":3}`)},
	})
	srv := httpapi.New(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Index: ix})
	for _, seed := range []string{
		"latitude=40.71&longitude=-74&radius=30",
		"latitude=40.71&longitude=-74&radius=30&limit=1&is_delivery_available=true",
		"latitude=40.71&longitude=-74&radius=30&is_open_now=true&is_curdside_pickup_available=1",
		"latitude=-90&longitude=180&radius=100",
		"latitude=90&longitude=-180&radius=0.0001",
		"latitude=1e308&longitude=-74&radius=30",
		"latitude=40&latitude=41&longitude=-74&radius=30",
		"latitude=%zz",
		"latitude=0x1p-2&longitude=0&radius=1",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		req := httptest.NewRequest(http.MethodGet, "/api/store/physical-store/list-physical-store/", nil)
		req.URL.RawQuery = q
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("%q: %d, body is not JSON: %v", q, rec.Code, err)
		}
		switch rec.Code {
		case http.StatusOK:
			if _, ok := body["physical_stores"].([]any); !ok {
				t.Fatalf("%q: 200 without physical_stores", q)
			}
		case http.StatusBadRequest:
			if m, _ := body["message"].(string); m == "" {
				t.Fatalf("%q: 400 without a message", q)
			}
		default:
			t.Fatalf("%q: status %d", q, rec.Code)
		}
	})
}

package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/orb/encoding/mvt"

	"locator/internal/httpapi"
	"locator/internal/maptiles"
	"locator/internal/maptiles/pmtilestest"
	"locator/internal/places"
)

var sharedBasemap = sync.OnceValues(func() (*maptiles.Basemap, error) {
	g, err := places.Load()
	if err != nil {
		return nil, err
	}
	return maptiles.NewBasemap(g.MapPlaces(), 16<<20)
})

func mapServer(t testing.TB, streets *maptiles.PMTiles) *httpapi.Server {
	t.Helper()
	b, err := sharedBasemap()
	if err != nil {
		t.Fatal(err)
	}
	return httpapi.New(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Site: httpapi.Site{Basemap: b, Streets: streets}})
}

// nycTile is the tile of zoom z holding New York City.
func nycTile(z int) (x, y int) {
	lat := 40.7128 * math.Pi / 180
	n := math.Exp2(float64(z))
	x = int((-74.006 + 180) / 360 * n)
	y = int((1 - math.Log(math.Tan(lat)+1/math.Cos(lat))/math.Pi) / 2 * n)
	return x, y
}

func mapGet(t *testing.T, h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestMapStyleOffline(t *testing.T) {
	t.Parallel()
	h := mapServer(t, nil)
	for _, path := range []string{"/map/style.json", "/map/basemap.json"} {
		rec := mapGet(t, h, path)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d %v", path, rec.Code, rec.Header())
		}
		var style struct {
			Version int            `json:"version"`
			Glyphs  string         `json:"glyphs"`
			Sources map[string]any `json:"sources"`
			Layers  []struct {
				ID          string `json:"id"`
				SourceLayer string `json:"source-layer"`
			} `json:"layers"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &style); err != nil {
			t.Fatal(err)
		}
		src, _ := style.Sources["basemap"].(map[string]any)
		tiles, _ := src["tiles"].([]any)
		if style.Version != 8 || style.Glyphs != "" || len(tiles) != 1 || tiles[0] != "/map/tiles/{z}/{x}/{y}.mvt" {
			t.Fatalf("%s: version %d, glyphs %q, source %v", path, style.Version, style.Glyphs, src)
		}
		got := map[string]bool{}
		for _, l := range style.Layers {
			got[l.SourceLayer] = true
		}
		for _, want := range []string{"land", "country", "state", "county", "place"} {
			if !got[want] {
				t.Errorf("%s: no layer draws %s", path, want)
			}
		}
		// Revalidation by ETag.
		if etag := rec.Header().Get("ETag"); etag == "" {
			t.Error("no ETag")
		} else if again := mapGet(t, h, path, "If-None-Match", etag); again.Code != http.StatusNotModified {
			t.Errorf("If-None-Match: %d", again.Code)
		}
	}
}

func TestMapTiles(t *testing.T) {
	t.Parallel()
	h := mapServer(t, nil)
	names := map[string]bool{}
	cx, cy := nycTile(10)
	for x := cx - 1; x <= cx+1; x++ {
		for y := cy - 1; y <= cy+1; y++ {
			path := "/map/tiles/10/" + strconvI(int64(x)) + "/" + strconvI(int64(y)) + ".mvt"
			rec := mapGet(t, h, path, "Accept-Encoding", "gzip, br")
			hd := rec.Header()
			if rec.Code != http.StatusOK || hd.Get("Content-Type") != "application/vnd.mapbox-vector-tile" ||
				hd.Get("Content-Encoding") != "gzip" || hd.Get("Cache-Control") != "public, max-age=86400" || hd.Get("ETag") == "" {
				t.Fatalf("%s: %d %v", path, rec.Code, hd)
			}
			layers, err := mvt.UnmarshalGzipped(rec.Body.Bytes())
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, l := range layers {
				if l.Name == "place" {
					for _, f := range l.Features {
						names[f.Properties["name"].(string)] = true
					}
				}
			}
		}
	}
	for _, want := range []string{"Brooklyn", "Queens", "Jersey City"} {
		if !names[want] {
			t.Errorf("zoom 10 around New York: no %s among %v", want, names)
		}
	}
	// A client without gzip gets the plain tile; .pbf is the same tile.
	rec := mapGet(t, h, "/map/tiles/0/0/0.pbf")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "" {
		t.Fatalf("plain tile: %d %v", rec.Code, rec.Header())
	}
	if _, err := mvt.Unmarshal(rec.Body.Bytes()); err != nil {
		t.Fatalf("plain tile: %v", err)
	}
}

func TestMapBadPaths(t *testing.T) {
	t.Parallel()
	h := mapServer(t, nil)
	for path, want := range map[string]int{
		"/map/tiles/15/0/0.mvt":                               http.StatusNotFound, // beyond the basemap's zooms
		"/map/tiles/3/8/0.mvt":                                http.StatusNotFound, // x past 2^z
		"/map/tiles/3/0/8.mvt":                                http.StatusNotFound,
		"/map/tiles/99999999999/0/0.mvt":                      http.StatusBadRequest,
		"/map/tiles/a/0/0.mvt":                                http.StatusBadRequest,
		"/map/tiles/1/0/-1.mvt":                               http.StatusBadRequest,
		"/map/tiles/01/0/0.mvt":                               http.StatusBadRequest,
		"/map/tiles/+1/0/0.mvt":                               http.StatusBadRequest, // strconv would read 1
		"/map/tiles/1/+0/0.mvt":                               http.StatusBadRequest,
		"/map/tiles/1/0/+0.mvt":                               http.StatusBadRequest,
		"/map/tiles/1/0/0.png":                                http.StatusBadRequest,
		"/map/tiles/1/0/0":                                    http.StatusBadRequest,
		"/map/tiles/1/0.mvt":                                  http.StatusNotFound,
		"/map/tiles/1/0/0/0.mvt":                              http.StatusNotFound,
		"/map/nothing":                                        http.StatusNotFound,
		"/map/streets/0/0/0.mvt":                              http.StatusNotFound, // no archive configured
		"/map/sprites/streets.json":                           http.StatusNotFound,
		"/map/fonts/noto-sans-latin-400-normal.woff2":         http.StatusNotFound, // fonts of the street style only
		"/map/tiles/1/0/0.mvt?x=" + "1":                       http.StatusOK,
		"/map/tiles/1/1/1.mvt%00":                             http.StatusBadRequest,
		"/map/tiles/1/%2e%2e/0.mvt":                           http.StatusBadRequest,
		"/map/tiles/1/0/" + strings.Repeat("9", 300) + ".mvt": http.StatusBadRequest,
	} {
		rec := mapGet(t, h, path)
		if rec.Code != want {
			t.Errorf("%s: %d, want %d (%s)", path, rec.Code, want, rec.Body)
			continue
		}
		if want != http.StatusOK {
			var body struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Message == "" {
				t.Errorf("%s: body %q is not a JSON message", path, rec.Body)
			}
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/map/style.json", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST style: %d", rec.Code)
	}
}

func TestMapStreetsFromPMTiles(t *testing.T) {
	t.Parallel()
	b, err := sharedBasemap()
	if err != nil {
		t.Fatal(err)
	}
	// The extract: the basemap's own tiles at zooms 0-2 and New York's at 10.
	var tiles []pmtilestest.Tile
	for z := 0; z <= 2; z++ {
		x, y := nycTile(z)
		data, err := b.Tile(z, x, y)
		if err != nil {
			t.Fatal(err)
		}
		tiles = append(tiles, pmtilestest.Tile{Z: z, X: x, Y: y, Data: data})
	}
	x10, y10 := nycTile(10)
	want, err := b.Tile(10, x10, y10)
	if err != nil {
		t.Fatal(err)
	}
	tiles = append(tiles, pmtilestest.Tile{Z: 10, X: x10, Y: y10, Data: want})
	path := filepath.Join(t.TempDir(), "nyc.pmtiles")
	if err := os.WriteFile(path, pmtilestest.Archive(tiles, pmtilestest.Options{LeafEvery: 2, Bounds: [4]float64{-74.3, 40.5, -73.7, 40.95}}), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := maptiles.OpenPMTiles(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	h := mapServer(t, p)

	rec := mapGet(t, h, "/map/style.json")
	var style struct {
		Sprite    string `json:"sprite"`
		FontFaces map[string][]struct {
			URL          string   `json:"url"`
			UnicodeRange []string `json:"unicode-range"`
		} `json:"font-faces"`
		Sources map[string]struct {
			Tiles   []string  `json:"tiles"`
			MaxZoom int       `json:"maxzoom"`
			Bounds  []float64 `json:"bounds"`
		} `json:"sources"`
		Layers []map[string]any `json:"layers"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &style); err != nil {
		t.Fatal(err)
	}
	src := style.Sources["protomaps"]
	if rec.Code != http.StatusOK || len(src.Tiles) != 1 || src.Tiles[0] != "/map/streets/{z}/{x}/{y}.mvt" || src.MaxZoom != 10 ||
		len(src.Bounds) != 4 || style.Sprite != "/map/sprites/streets" || len(style.Layers) < 50 {
		t.Fatalf("street style: %d sprite %q source %+v, %d layers", rec.Code, style.Sprite, src, len(style.Layers))
	}
	// The offline basemap's style stays available for the preview.
	if rec := mapGet(t, h, "/map/basemap.json"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"basemap"`) {
		t.Errorf("basemap style: %d", rec.Code)
	}

	rec = mapGet(t, h, "/map/streets/10/"+strconvI(int64(x10))+"/"+strconvI(int64(y10))+".mvt", "Accept-Encoding", "gzip")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.String() != string(want) {
		t.Fatalf("street tile: %d %v, %d bytes", rec.Code, rec.Header(), rec.Body.Len())
	}
	// A tile the extract does not cover is empty, not an error.
	if rec := mapGet(t, h, "/map/streets/10/0/0.mvt"); rec.Code != http.StatusNoContent {
		t.Errorf("tile outside the extract: %d", rec.Code)
	}
	if rec := mapGet(t, h, "/map/streets/11/0/0.mvt"); rec.Code != http.StatusNotFound {
		t.Errorf("zoom past the archive: %d", rec.Code)
	}
	for _, f := range []string{"streets.json", "streets@2x.json", "streets.png", "streets@2x.png"} {
		rec := mapGet(t, h, "/map/sprites/"+f)
		if rec.Code != http.StatusOK || rec.Body.Len() == 0 {
			t.Errorf("sprite %s: %d", f, rec.Code)
		}
		if strings.HasSuffix(f, ".json") && !strings.Contains(rec.Body.String(), `"townspot"`) {
			t.Errorf("sprite %s lacks townspot: %s", f, rec.Body)
		}
	}
	if rec := mapGet(t, h, "/map/sprites/other.json"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown sprite: %d", rec.Code)
	}

	// The labels' fonts: every file of the style's font-faces is served.
	if len(style.FontFaces["Noto Sans Regular"]) == 0 || len(style.FontFaces["Noto Sans Medium"]) == 0 || len(style.FontFaces["Noto Sans Italic"]) == 0 {
		t.Fatalf("font-faces: %+v", style.FontFaces)
	}
	for name, faces := range style.FontFaces {
		for _, f := range faces {
			rec := mapGet(t, h, f.URL, "Accept-Encoding", "gzip")
			hd := rec.Header()
			if rec.Code != http.StatusOK || hd.Get("Content-Type") != "font/woff2" || hd.Get("Content-Encoding") != "" ||
				hd.Get("Cache-Control") != "public, max-age=604800" || hd.Get("ETag") == "" ||
				!strings.HasPrefix(rec.Body.String(), "wOF2") || hd.Get("Content-Length") != strconvI(int64(rec.Body.Len())) {
				t.Fatalf("%s: %s: %d %v, %.4q", name, f.URL, rec.Code, hd, rec.Body.String())
			}
			if again := mapGet(t, h, f.URL, "If-None-Match", hd.Get("ETag")); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
				t.Errorf("%s If-None-Match: %d, %d bytes", f.URL, again.Code, again.Body.Len())
			}
		}
	}
	req := httptest.NewRequest(http.MethodHead, style.FontFaces["Noto Sans Regular"][0].URL, nil)
	head := httptest.NewRecorder()
	h.ServeHTTP(head, req)
	if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("Content-Type") != "font/woff2" {
		t.Errorf("HEAD font: %d, %d bytes, %v", head.Code, head.Body.Len(), head.Header())
	}
	for _, bad := range []string{
		"/map/fonts/noto-sans-latin-900-normal.woff2", "/map/fonts/faces.json", "/map/fonts/OFL.txt", "/map/fonts/",
		"/map/fonts/%2e%2e%2fstyle.go", "/map/fonts/..%2Ffonts.go", "/map/fonts/a/b.woff2",
		"/map/fonts/" + strings.Repeat("a", 500) + ".woff2",
	} {
		rec := mapGet(t, h, bad)
		var body struct {
			Message string `json:"message"`
		}
		if rec.Code != http.StatusNotFound || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Message == "" {
			t.Errorf("%s: %d %q, want 404 with a JSON message", bad, rec.Code, rec.Body)
		}
	}
	if rec := mapGet(t, h, "/map/fonts/x%00.woff2"); rec.Code != http.StatusBadRequest {
		t.Errorf("NUL in a font path: %d %q, want 400", rec.Code, rec.Body)
	}
	post := httptest.NewRecorder()
	h.ServeHTTP(post, httptest.NewRequest(http.MethodPost, style.FontFaces["Noto Sans Regular"][0].URL, nil))
	if post.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST font: %d", post.Code)
	}
}

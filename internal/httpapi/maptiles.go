package httpapi

import (
	"encoding/hex"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"locator/internal/apperr"
	"locator/internal/maptiles"
)

// The map's own routes (outside /api: MapLibre fetches them, they are not
// JSON calls), registered on the root mux:
//
//	GET /map/style.json                   the app's style: the offline basemap, or the street map of LOCATOR_PMTILES
//	GET /map/basemap.json                 the offline basemap's style (the preview draws it)
//	GET /map/tiles/{z}/{x}/{y}.mvt        the offline basemap's vector tiles (.pbf too)
//	GET /map/streets/{z}/{x}/{y}.mvt      the PMTiles archive's tiles
//	GET /map/sprites/streets[@2x].{json,png}  the street style's icons
//	GET /map/fonts/{file}.woff2           the street style's label fonts (Noto Sans, its "font-faces")
//
// Errors are JSON {"message"} like the API's: 400 for a malformed path, 404
// for a tile outside the pyramid or a file that does not exist.
func (s *Server) mapRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /map/style.json", s.handle(s.mapStyle))
	m.HandleFunc("GET /map/basemap.json", s.handle(s.basemapStyle))
	m.HandleFunc("GET /map/tiles/{z}/{x}/{y}", s.handle(s.basemapTile))
	m.HandleFunc("GET /map/streets/{z}/{x}/{y}", s.handle(s.streetTile))
	m.HandleFunc("GET /map/sprites/{file}", s.handle(s.streetSprite))
	m.HandleFunc("GET /map/fonts/{file}", s.handle(s.streetFont))
	m.HandleFunc("/map/", s.handle(func(w http.ResponseWriter, r *http.Request) error {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeMessage(w, http.StatusMethodNotAllowed, "method not allowed")
			return nil
		}
		return apperr.New(apperr.NotFound, "not found: %s", r.URL.Path)
	}))
}

// Tiles change only with the binary (or the archive file): browsers keep
// them a day and then revalidate by ETag.
const tileCacheControl = "public, max-age=86400"

func (s *Server) mapStyle(w http.ResponseWriter, r *http.Request) error {
	if s.Streets != nil {
		b, err := s.streetStyle()
		if err != nil {
			return err
		}
		serveBytes(w, r, "application/json", "no-cache", b, false)
		return nil
	}
	return s.basemapStyle(w, r)
}

var basemapStyleJSON = sync.OnceValue(maptiles.BasemapStyle)

func (s *Server) basemapStyle(w http.ResponseWriter, r *http.Request) error {
	if s.Basemap == nil {
		return apperr.New(apperr.NotFound, "the offline basemap is not served")
	}
	serveBytes(w, r, "application/json", "no-cache", basemapStyleJSON(), false)
	return nil
}

// tileCoords reads z, x and "y.mvt" (or "y.pbf") from the path.
func tileCoords(r *http.Request) (z, x, y int, err error) {
	file := r.PathValue("y")
	ys, ok := strings.CutSuffix(file, ".mvt")
	if !ok {
		ys, ok = strings.CutSuffix(file, ".pbf")
	}
	if !ok {
		return 0, 0, 0, apperr.Invalidf("a tile path is /z/x/y.mvt")
	}
	num := func(v string) (int, bool) {
		if v == "" || len(v) > 10 || (len(v) > 1 && v[0] == '0') || strings.Trim(v, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 0
	}
	var okZ, okX, okY bool
	z, okZ = num(r.PathValue("z"))
	x, okX = num(r.PathValue("x"))
	y, okY = num(ys)
	if !okZ || !okX || !okY {
		return 0, 0, 0, apperr.Invalidf("tile coordinates are whole numbers from 0: /z/x/y.mvt")
	}
	return z, x, y, nil
}

func (s *Server) basemapTile(w http.ResponseWriter, r *http.Request) error {
	if s.Basemap == nil {
		return apperr.New(apperr.NotFound, "the offline basemap is not served")
	}
	z, x, y, err := tileCoords(r)
	if err != nil {
		return err
	}
	if !maptiles.ValidTile(z, x, y, maptiles.MaxLabelZoom) {
		return apperr.New(apperr.NotFound, "no tile %d/%d/%d: zoom 0-%d, x and y below 2^zoom", z, x, y, maptiles.MaxLabelZoom)
	}
	t, err := s.Basemap.Tile(z, x, y)
	if err != nil {
		return err
	}
	serveBytes(w, r, "application/vnd.mapbox-vector-tile", tileCacheControl, t, true)
	return nil
}

func (s *Server) streetTile(w http.ResponseWriter, r *http.Request) error {
	if s.Streets == nil {
		return apperr.New(apperr.NotFound, "no street map is configured (LOCATOR_PMTILES)")
	}
	z, x, y, err := tileCoords(r)
	if err != nil {
		return err
	}
	h := s.Streets.Header
	if !maptiles.ValidTile(z, x, y, int(h.MaxZoom)) || z < int(h.MinZoom) {
		return apperr.New(apperr.NotFound, "no tile %d/%d/%d: the archive has zooms %d-%d", z, x, y, h.MinZoom, h.MaxZoom)
	}
	t, err := s.Streets.Tile(z, x, y)
	if err != nil {
		return err
	}
	if t == nil {
		// Outside the extract: an empty tile, which MapLibre draws as nothing
		// (a 404 would be logged as an error in the browser for every one).
		w.Header().Set("Cache-Control", tileCacheControl)
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	serveBytes(w, r, "application/vnd.mapbox-vector-tile", tileCacheControl, t, s.Streets.Gzipped())
	return nil
}

func (s *Server) streetSprite(w http.ResponseWriter, r *http.Request) error {
	if s.Streets == nil {
		return apperr.New(apperr.NotFound, "no street map is configured (LOCATOR_PMTILES)")
	}
	file := r.PathValue("file")
	ratio := 1
	name, ext, _ := strings.Cut(file, ".")
	if base, ok := strings.CutSuffix(name, "@2x"); ok {
		name, ratio = base, 2
	}
	if name != "streets" || (ext != "json" && ext != "png") {
		return apperr.New(apperr.NotFound, "not found: %s", r.URL.Path)
	}
	sp, err := maptiles.StreetSprite(ratio)
	if err != nil {
		return err
	}
	if ext == "json" {
		serveBytes(w, r, "application/json", tileCacheControl, sp.JSON, false)
	} else {
		serveBytes(w, r, "image/png", tileCacheControl, sp.PNG, false)
	}
	return nil
}

// The font files change only with the binary and are larger than a tile:
// browsers keep them a week, then revalidate by ETag.
const fontCacheControl = "public, max-age=604800"

// streetFont serves a file of the street style's font-faces (like the
// sprites, only while that style is the one served).
func (s *Server) streetFont(w http.ResponseWriter, r *http.Request) error {
	if s.Streets == nil {
		return apperr.New(apperr.NotFound, "no street map is configured (LOCATOR_PMTILES)")
	}
	b, ok := maptiles.StreetFont(r.PathValue("file"))
	if !ok {
		return apperr.New(apperr.NotFound, "no font file %q", r.PathValue("file"))
	}
	serveBytes(w, r, "font/woff2", fontCacheControl, b, false)
	return nil
}

// serveBytes answers b with an ETag (a 304 when the client has it); a
// gzipped body goes out as it is to clients that take gzip (every browser)
// and is unpacked for the others.
func serveBytes(w http.ResponseWriter, r *http.Request, contentType, cacheControl string, b []byte, gzipped bool) {
	h := w.Header()
	hash := fnv.New64a()
	_, _ = hash.Write(b)
	etag := `"` + hex.EncodeToString(hash.Sum(nil)) + `"`
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", cacheControl)
	h.Set("ETag", etag)
	if gzipped {
		h.Set("Vary", "Accept-Encoding")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if gzipped {
		if acceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
		} else if raw, err := maptiles.Gunzip(b); err == nil {
			b = raw
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

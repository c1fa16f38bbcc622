package httpapi

import (
	"compress/gzip"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"locator/internal/apperr"
	"locator/internal/stores"
)

// ParseListQuery decodes the search parameters (exported for the SLB-1
// PostGIS baseline, which must read queries by the same rules). Every parameter may appear
// more than once only with the same value; flags accept true/false/1/0.
func ParseListQuery(raw string) (stores.Query, error) {
	var q stores.Query
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return q, apperr.Invalidf("malformed query string")
	}
	one := func(name string) (string, bool, error) {
		vs, ok := vals[name]
		if !ok {
			return "", false, nil
		}
		for _, v := range vs[1:] {
			if v != vs[0] {
				return "", false, apperr.Invalidf("%s is given more than once with different values", name)
			}
		}
		return strings.TrimSpace(vs[0]), true, nil
	}
	num := func(name string, dst *float64) error {
		v, ok, err := one(name)
		if err != nil {
			return err
		}
		if !ok || v == "" {
			return apperr.Invalidf("%s is required", name)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return apperr.Invalidf("%s must be a number", name)
		}
		*dst = f
		return nil
	}
	flag := func(name string, dst *bool) error {
		v, ok, err := one(name)
		if err != nil || !ok {
			return err
		}
		switch strings.ToLower(v) {
		case "true", "1":
			*dst = true
		case "false", "0", "":
			*dst = false
		default:
			return apperr.Invalidf("%s must be true or false", name)
		}
		return nil
	}
	if err := num("latitude", &q.Latitude); err != nil {
		return q, err
	}
	if err := num("longitude", &q.Longitude); err != nil {
		return q, err
	}
	if err := num("radius", &q.RadiusMiles); err != nil {
		return q, err
	}
	if v, ok, err := one("limit"); err != nil {
		return q, err
	} else if ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > stores.MaxLimit {
			return q, apperr.Invalidf("limit must be a whole number from 1 to %d", stores.MaxLimit)
		}
		q.Limit = n
	}
	var curbA, curbB bool
	for _, f := range []struct {
		name string
		dst  *bool
	}{
		{"is_delivery_available", &q.Delivery},
		{"is_order_online_available", &q.OrderOnline},
		{"is_curdside_pickup_available", &curbA}, // the spec's spelling
		{"is_curbside_pickup_available", &curbB},
		{"is_open_now", &q.OpenNow},
	} {
		if err := flag(f.name, f.dst); err != nil {
			return q, err
		}
	}
	_, hasA := vals["is_curdside_pickup_available"]
	_, hasB := vals["is_curbside_pickup_available"]
	if hasA && hasB && curbA != curbB {
		return q, apperr.Invalidf("is_curdside_pickup_available and is_curbside_pickup_available disagree")
	}
	q.Curbside = curbA || curbB
	return q, q.Validate()
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// listStores answers the nearest published stores from the in-memory index.
func (s *Server) listStores(w http.ResponseWriter, r *http.Request) {
	q, err := ParseListQuery(r.URL.RawQuery)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	bp := bufPool.Get().(*[]byte)
	body := s.Index.AppendJSON((*bp)[:0], q)
	WriteBody(w, r, body)
	*bp = body
	if cap(body) <= 1<<20 { // don't keep rare huge buffers
		bufPool.Put(bp)
	}
}

// WriteBody writes a JSON body, gzipped when the client accepts it and the
// body is big enough to gain from it (exported for the SLB-1 baseline).
func WriteBody(w http.ResponseWriter, r *http.Request, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Vary", "Accept-Encoding")
	if len(body) < 1400 || !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
		return
	}
	h.Set("Content-Encoding", "gzip")
	gz := gzipPool.Get().(*gzip.Writer)
	gz.Reset(w)
	_, _ = gz.Write(body)
	_ = gz.Close()
	gzipPool.Put(gz)
}

func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.Invalidf("store id must be a positive whole number")
	}
	return id, nil
}

// getStore answers one published store as search shows it, without
// distance (a shared link to a store opens it directly).
func (s *Server) getStore(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	doc, err := s.Stores.PublishedDoc(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	WriteBody(w, r, doc)
}

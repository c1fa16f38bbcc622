// Package jsonbody writes pre-rendered JSON answers, gzipped when that pays:
// the store search answers tens of kilobytes from memory, and the HTTP API
// and the PostGIS baseline (tools/slb) must send them the same way.
package jsonbody

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// Write writes a JSON body, gzipped when the client accepts it and the
// body is big enough to gain from it.
func Write(w http.ResponseWriter, r *http.Request, body []byte) {
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

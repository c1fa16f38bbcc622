package httpapi

import (
	"net/http"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/httpbody"
	"locator/internal/insights"
	"locator/internal/search"
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// listStores answers the nearest published stores from the in-memory index.
func (s *Server) listStores(w http.ResponseWriter, r *http.Request) error {
	q, err := search.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return err
	}
	bp := bufPool.Get().(*[]byte)
	var first [insights.FirstPage]int64
	body, ids := s.Index.AppendJSONFirst((*bp)[:0], q, first[:0], insights.FirstPage)
	httpbody.JSON(w, r, body)
	s.countSearch(r, &q, ids)
	*bp = body
	if cap(body) <= 1<<20 { // don't keep rare huge buffers
		bufPool.Put(bp)
	}
	return nil
}

// withID adapts a handler of one store: it runs h with the path's store id.
func withID(h func(w http.ResponseWriter, r *http.Request, id int64) error) handler {
	return given(func(_ http.ResponseWriter, r *http.Request) (int64, error) { return pathID(r) }, h)
}

func pathID(r *http.Request) (int64, error) {
	id, ok := parseID(r.PathValue("id"))
	if !ok {
		return 0, apperr.Invalidf("store id must be a positive whole number")
	}
	return id, nil
}

// getStore answers one published store as search shows it, without
// distance (a shared link to a store opens it directly).
func (s *Server) getStore(w http.ResponseWriter, r *http.Request, id int64) error {
	doc, err := s.Stores.PublishedDoc(r.Context(), id)
	if err != nil {
		return err
	}
	httpbody.JSON(w, r, search.WithRules(doc, time.Now()))
	return nil
}

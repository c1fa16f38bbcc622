package httpapi

import (
	"net/http"
	"strconv"
	"sync"

	"locator/internal/answercache"
	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/httpbody"
	"locator/internal/insights"
	"locator/internal/search"
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// listStores answers the nearest published stores from the in-memory index.
// A compressed answer is kept for the rest of its minute (Answers, see
// internal/answercache): shoppers who pick the same place get a copy.
func (s *Server) listStores(w http.ResponseWriter, r *http.Request) error {
	q, err := search.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return err
	}
	if q.ProductRef != "" {
		p, err := s.findProduct(q.ProductRef)
		if err != nil {
			return err
		}
		q.Product = p.ID
	}
	if q.Compliant && s.Licences != nil {
		cov := s.Licences.Coverage()
		q.Covered = func(lat, lon float64) bool { return cov.Covers(lat, lon, 0) }
	}
	coding := httpbody.Negotiate(r.Header.Get("Accept-Encoding"))
	q.Now = s.Clock.Now()
	epoch := answercache.Epoch{Minute: q.Now.Unix() / 60, Gen: s.Index.AnswerGen()}
	if coding != httpbody.Identity {
		if e, ok := s.Answers.Get(epoch, r.URL.RawQuery, uint8(coding)); ok {
			httpbody.WriteEncoded(w, r, http.StatusOK, "application/json", coding, e.Body)
			s.countSearch(r, &q, e.IDs)
			s.countPartnerSearch(r, &q, len(e.IDs))
			return nil
		}
	}
	bp := bufPool.Get().(*[]byte)
	var first [insights.FirstPage]int64
	body, ids := s.Index.AppendJSONFirst((*bp)[:0], q, first[:0], insights.FirstPage)
	body = appendLicenceRegistry(body, s.licenceCovered(&q))
	if len(body) < httpbody.MinSize {
		coding = httpbody.Identity
	}
	httpbody.WriteWith(w, r, http.StatusOK, "application/json", coding, body, func(out []byte) {
		if s.Answers != nil && s.Index.AnswerGen() == epoch.Gen { // no store or stock changed while the answer was built
			s.Answers.Put(epoch, r.URL.RawQuery, uint8(coding), out, ids)
		}
	})
	s.countSearch(r, &q, ids)
	s.countPartnerSearch(r, &q, len(ids))
	*bp = body
	if cap(body) <= 1<<20 { // don't keep rare huge buffers
		bufPool.Put(bp)
	}
	return nil
}

// licenceCovered reports whether a loaded licence registry covers part of
// the searched area: where none does, the "Licence verified" filter can
// keep nothing, and the app says so instead of showing an unexplained
// empty list (docs/licences.md, "Where no registry covers the area").
func (s *Server) licenceCovered(q *search.Query) bool {
	return s.Licences != nil && s.Licences.Coverage().Covers(q.Latitude, q.Longitude, q.RadiusMiles)
}

// appendLicenceRegistry adds "licence_registry" to the answer object body
// (the index's answer, which ends with its closing brace). A cached answer
// keeps it for the rest of its minute, as it keeps the stores.
func appendLicenceRegistry(body []byte, covered bool) []byte {
	body = append(body[:len(body)-1], `,"licence_registry":`...)
	body = strconv.AppendBool(body, covered)
	return append(body, '}')
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
//
// The database answers first (it also knows permanently closed stores and
// a change the index has not polled yet); while it cannot be reached the
// search index, which holds the same document, answers instead, so a
// shared link works through an outage as search does.
func (s *Server) getStore(w http.ResponseWriter, r *http.Request, id int64) error {
	now := s.Clock.Now()
	doc, err := s.Stores.PublishedDoc(r.Context(), id)
	if err != nil && db.Unavailable(err) && s.Index != nil {
		if live, ok := s.Index.LiveDoc(id, now); ok {
			s.log.WarnContext(r.Context(), "store card from the search index: database unavailable", "err", err, "store", id)
			doc, err = live, nil
		}
	}
	if err != nil {
		return err
	}
	httpbody.JSON(w, r, search.WithRules(doc, now))
	return nil
}

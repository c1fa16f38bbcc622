package httpapi

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// readyAfter is how many readiness checks in a row must find the database
// well (its ping answered, no request failed for it since the check
// before) before a replica that found it unwell says ready again. Checks,
// not seconds: a balancer polling every second takes the replica back
// after three good answers, and a database that fails one request in three
// keeps it out instead of flapping it in and out.
const readyAfter = 3

// dbHealth is the database's state as /readyz tells it.
type dbHealth struct {
	failures atomic.Uint64 // requests answered 503 for their database (writeError)

	mu    sync.Mutex
	seen  uint64 // failures at the last check
	clean int    // checks in a row that found the database well
}

// check is one readiness check with the ping's outcome: "" when the
// database is well, else why not.
func (h *dbHealth) check(pingOK bool) string {
	f := h.failures.Load()
	h.mu.Lock()
	defer h.mu.Unlock()
	failed := f != h.seen
	h.seen = f
	switch {
	case !pingOK:
		h.clean = 0
		return "database unreachable"
	case failed:
		// The ping answered, but requests did not get their answers in
		// time: a slow database, which a ping alone would call well.
		h.clean = 0
		return "database too slow"
	case h.clean < readyAfter:
		h.clean++
		if h.clean < readyAfter {
			return "database recovering"
		}
	}
	return ""
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.Version})
}

// readiness is /readyz's answer. Not ready, it names each reason
// ("draining", "database unreachable", "database too slow", "database
// recovering", "database disk full", "search index loading") and joins them
// in message, as every error answer has one.
type readiness struct {
	Status   string   `json:"status"` // "ready" or "not ready"
	Message  string   `json:"message,omitempty"`
	NotReady []string `json:"notReady,omitempty"`
}

// readyz is ready when the server is not draining, the database answers a
// ping and the search index is loaded: two flags and one round trip.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	var not []string
	if s.draining.Load() {
		not = append(not, "draining")
	}
	if s.DB != nil {
		ctx, cancel := context.WithTimeout(r.Context(), s.DBTimeout)
		defer cancel()
		err := s.DB.Ping(ctx)
		if err != nil {
			s.log.Warn("readiness: database unreachable", "err", err)
		}
		if why := s.dbHealth.check(err == nil); why != "" {
			not = append(not, why)
		} else if f, ok := s.DB.(interface{ DiskFull() bool }); ok && f.DiskFull() {
			// Reads go on, but every write fails: say so, so an operator
			// (and a balancer with another replica) can tell.
			not = append(not, "database disk full")
		}
	}
	if s.Syncer != nil && !s.Syncer.Ready() {
		not = append(not, "search index loading")
	}
	if len(not) > 0 {
		writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "not ready", Message: strings.Join(not, "; "), NotReady: not})
		return
	}
	writeJSON(w, http.StatusOK, readiness{Status: "ready"})
}

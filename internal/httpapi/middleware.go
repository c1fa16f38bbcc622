package httpapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"locator/internal/db"
)

type ctxKey int

const requestKey ctxKey = 1

// request is what observe keeps of a request in its context: the id, and
// the route pattern that served it (noteRoute), for the metrics.
type request struct {
	id, route string
}

func requestID(ctx context.Context) string {
	if rq, ok := ctx.Value(requestKey).(*request); ok {
		return rq.id
	}
	return ""
}

// noteRoute tells observe which pattern of mux served a request: a
// ServeMux sets r.Pattern on the request it is given, and the API's own
// mux, given the same request, overwrites "/api/" with its finer pattern.
func noteRoute(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if rq, ok := r.Context().Value(requestKey).(*request); ok {
				rq.route = r.Pattern
			}
		}()
		mux.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status and size written.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// observe gives every request an id (kept from X-Request-Id when sane),
// logs method, path, status, duration and id, counts it in the metrics by
// route pattern, and turns a panic into a 500 JSON answer instead of a
// dropped connection.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if len(id) == 0 || len(id) > 64 || !printable(id) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		rec := &statusRecorder{ResponseWriter: w}
		rq := &request{id: id}
		r = r.WithContext(context.WithValue(r.Context(), requestKey, rq))
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler { //nolint:errorlint // recover() hands back the sentinel itself; net/http compares it the same way
					panic(v)
				}
				s.log.Error("panic", "value", v, "request_id", id, "path", r.URL.Path, "stack", string(debug.Stack()))
				if rec.status == 0 {
					writeMessage(rec, http.StatusInternalServerError, "Something went wrong on our side. Please try again.")
				}
			}
			elapsed := time.Since(start)
			// The path only: query strings may carry tokens.
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", rec.status), slog.Int("bytes", rec.bytes),
				slog.Duration("duration", elapsed), slog.String("request_id", id))
			s.metrics.ObserveHTTP(rq.route, cmp.Or(rec.status, http.StatusOK), elapsed)
		}()
		next.ServeHTTP(rec, r)
	})
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// lifecycle bounds every database call a request makes (DBTimeout), and
// while draining asks the client to close the connection after the answer.
func (s *Server) lifecycle(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.draining.Load() {
			w.Header().Set("Connection", "close")
		}
		next.ServeHTTP(w, r.WithContext(db.WithCallTimeout(r.Context(), s.DBTimeout)))
	})
}

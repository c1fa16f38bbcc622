package httpapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"locator/internal/db"
	"locator/internal/httpconn"
)

type ctxKey int

const requestKey ctxKey = 1

// request is what observe keeps of a request, in one allocation: the id,
// the route pattern that served it (noteRoute), for the metrics, whether a
// session cookie was read (sessionCookie), and the status and size written
// (it is the ResponseWriter the handlers below observe write to).
type request struct {
	http.ResponseWriter
	req         *http.Request
	id, route   string
	sessionRead bool
	status      int
	bytes       int
}

func requestOf(ctx context.Context) *request {
	rq, _ := ctx.Value(requestKey).(*request)
	return rq
}

func requestID(ctx context.Context) string {
	if rq := requestOf(ctx); rq != nil {
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
			if rq := requestOf(r.Context()); rq != nil {
				rq.route = r.Pattern
			}
		}()
		mux.ServeHTTP(w, r)
	})
}

func (s *request) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *request) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if s.bytes == 0 && len(b) >= httpconn.MinJoin && wholeBody(s.Header(), len(b)) {
		// The body in one Write (httpbody's answers): its headers and
		// bytes leave in one write to the socket (internal/httpconn).
		httpconn.Join(s.req, s.status, len(b))
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

func (s *request) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// wholeBody says whether a first Write of n bytes is the whole body h
// declares.
func wholeBody(h http.Header, n int) bool {
	v := h["Content-Length"]
	if len(v) != 1 {
		return false
	}
	m, err := strconv.Atoi(v[0])
	return err == nil && m == n
}

// Access logs (LOCATOR_ACCESS_LOG): the metrics count every request
// whatever the setting; the log line per request costs ~8% of a search's
// CPU, so by default only a sample of them is logged.
const (
	AccessLogAll    = "all"    // a line per request
	AccessLogSample = "sample" // every error (5xx), every slow request, 1 in accessLogEvery of the others
	AccessLogOff    = "off"    // errors (5xx) and slow requests only
)

const (
	accessLogEvery = 100
	accessLogSlow  = time.Second
)

// logged says whether the access log keeps this request.
func (s *Server) logged(status int, elapsed time.Duration) bool {
	switch {
	case s.AccessLog == AccessLogAll, s.AccessLog == "", status >= 500, elapsed >= accessLogSlow:
		return true
	case s.AccessLog == AccessLogOff:
		return false
	}
	return s.accessCount.Add(1)%accessLogEvery == 1
}

// observe gives every request an id (kept from X-Request-Id when sane),
// logs method, path, status, duration and id (see logged), counts it in
// the metrics by route pattern, and turns a panic into a 500 JSON answer
// instead of a dropped connection.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if len(id) == 0 || len(id) > 64 || !printable(id) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			var x [16]byte
			hex.Encode(x[:], b[:])
			id = string(x[:])
		}
		w.Header()["X-Request-Id"] = []string{id}
		rq := &request{ResponseWriter: w, id: id}
		r = r.WithContext(context.WithValue(r.Context(), requestKey, rq))
		rq.req = r
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler { //nolint:errorlint // recover() hands back the sentinel itself; net/http compares it the same way
					panic(v)
				}
				s.log.Error("panic", "value", v, "request_id", id, "path", r.URL.Path, "stack", string(debug.Stack()))
				if rq.status == 0 {
					writeMessage(rq, http.StatusInternalServerError, "Something went wrong on our side. Please try again.")
				}
			}
			elapsed := time.Since(start)
			status := cmp.Or(rq.status, http.StatusOK)
			if s.logged(status, elapsed) {
				// The path only: query strings may carry tokens.
				s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
					slog.String("method", r.Method), slog.String("path", r.URL.Path),
					slog.Int("status", rq.status), slog.Int("bytes", rq.bytes),
					slog.Duration("duration", elapsed), slog.String("request_id", id))
			}
			s.metrics.ObserveHTTP(rq.route, status, elapsed)
		}()
		next.ServeHTTP(rq, r)
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

// lifecycle bounds the database calls a request makes to DBTimeout in all
// (db.WithRequestBudget: the README's "answers within 2 s" holds however
// many calls a request makes), and while draining asks the client to close
// the connection after the answer.
func (s *Server) lifecycle(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.draining.Load() {
			w.Header().Set("Connection", "close")
		}
		next.ServeHTTP(w, r.WithContext(db.WithRequestBudget(r.Context(), s.DBTimeout)))
	})
}

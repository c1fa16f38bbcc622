package httpapi

import (
	"log/slog"
	"mime"
	"net/http"
	"time"

	"locator/internal/httpconn"
)

// MaxHeaderBytes bounds a request's line and headers. The limits
// middleware enforces it so the refusal is a JSON 431 like every other
// error; the http.Server's own bound (maxHeaderRead) sits far above, because
// net/http answers plain text past it before any handler runs.
const MaxHeaderBytes = 32 << 10

// maxHeaderRead is what net/http reads of the headers at most, a
// connection's memory bound; as large as a request body may be.
const maxHeaderRead = MaxBodyBytes

// NewHTTPServer is the production http.Server for handler: timeouts that
// keep slow clients from holding connections, the header bound above, and
// the hooks that let a large answer leave in one write when it serves an
// httpconn.Listener (internal/httpconn). A caller that sets its own
// ConnState calls httpconn.Settle from it.
func NewHTTPServer(handler http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		ConnContext:       httpconn.ConnContext,
		ConnState:         httpconn.Settle,
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    maxHeaderRead,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// headerBytes counts the request line and header lines as they arrived
// (net/http moves Host out of the header map).
func headerBytes(r *http.Request) int {
	n := len(r.Method) + 1 + len(r.RequestURI) + 1 + len(r.Proto) + 2
	n += len("Host: ") + len(r.Host) + 2
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return n
}

// sendsNonJSON reports a request that carries a body in anything but
// application/json (parameters such as charset allowed). The API reads
// only JSON, and refusing the rest keeps plain-text and form posts, which
// a browser sends without asking, away from the handlers.
func sendsNonJSON(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	if r.ContentLength == 0 {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err != nil || mt != "application/json"
}

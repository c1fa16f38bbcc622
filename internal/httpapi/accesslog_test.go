package httpapi

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The access log setting decides which requests get a line; errors always do.
func TestAccessLogSetting(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		setting  string
		min, max int // lines of 300 answers (404)
	}{
		{AccessLogAll, 300, 300},
		{"", 300, 300},
		{AccessLogSample, 3, 3},
		{AccessLogOff, 0, 0},
	} {
		var buf bytes.Buffer
		s := New(Deps{Log: slog.New(slog.NewTextHandler(&buf, nil)), Network: Network{AccessLog: c.setting}})
		for range 300 {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/no-such-route", nil))
			if rec.Code != http.StatusNotFound {
				t.Fatalf("%d", rec.Code)
			}
		}
		if n := strings.Count(buf.String(), "msg=request"); n < c.min || n > c.max {
			t.Errorf("%q: %d lines for 300 requests, want %d-%d", c.setting, n, c.min, c.max)
		}
		// A 5xx is logged whatever the setting.
		buf.Reset()
		panicky := s.observe(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
		rec := httptest.NewRecorder()
		panicky.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
		if rec.Code != http.StatusInternalServerError || !strings.Contains(buf.String(), "msg=request") || !strings.Contains(buf.String(), "status=500") {
			t.Errorf("%q: a 500 is not logged: %d %s", c.setting, rec.Code, buf.String())
		}
	}
}

// The middleware allocates what it must and no more: a guard against
// per-request header values and context layers creeping back.
func TestMiddlewareAllocations(t *testing.T) {
	s := New(Deps{Log: slog.New(slog.DiscardHandler), Network: Network{AccessLog: AccessLogOff}})
	r := httptest.NewRequest(http.MethodGet, "/api/no-such-route", nil)
	r.Header.Set("X-Request-Id", "fixed-id")
	h := s.observe(s.lifecycle(s.securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))))
	w := &nopWriter{h: http.Header{}}
	n := testing.AllocsPerRun(200, func() {
		clear(w.h)
		h.ServeHTTP(w, r)
	})
	// request, its context value and request copy; lifecycle's context
	// value and request copy; privateWriter; the X-Request-Id value; the
	// deferred closure.
	if n > 9 {
		t.Fatalf("%v allocations per request", n)
	}
	t.Logf("%v allocations per request", n)
}

type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteHeader(int)             {}

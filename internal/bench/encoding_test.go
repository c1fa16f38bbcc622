package bench_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"locator/internal/bench"
	"locator/internal/httpapi"
	"locator/internal/httpbody"
	"locator/internal/search"
)

// BenchmarkAnswerEncoding is the limit-50 list answer rendered and then
// encoded each way the server could send it, with the bytes and the CPU
// time per answer (render and encode; "plain" is the render alone):
// the figures behind httpbody's choices (docs/performance-history.md, series F).
//
//	go test -run '^$' -bench AnswerEncoding -benchtime 5000x ./internal/bench/
func BenchmarkAnswerEncoding(b *testing.B) {
	var buf, out []byte
	var zb bytes.Buffer
	std1, _ := stdgzip.NewWriterLevel(&zb, stdgzip.BestSpeed)
	std6, _ := stdgzip.NewWriterLevel(&zb, stdgzip.DefaultCompression)
	kp1, _ := gzip.NewWriterLevel(&zb, gzip.BestSpeed)
	zf1, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(1<<20), zstd.WithEncoderConcurrency(1))
	zdef, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithWindowSize(1<<20), zstd.WithEncoderConcurrency(1))
	stream := func(w interface {
		io.Writer
		Reset(io.Writer)
		Close() error
	}) func([]byte) int {
		return func(p []byte) int {
			zb.Reset()
			w.Reset(&zb)
			_, _ = w.Write(p)
			_ = w.Close()
			return zb.Len()
		}
	}
	for _, c := range []struct {
		name string
		enc  func([]byte) int
	}{
		{"plain", func(p []byte) int { return len(p) }},
		{"stdgzip-1", stream(std1)},
		{"stdgzip-6", stream(std6)},
		{"gzip-1", stream(kp1)},
		{"zstd-fastest-1", func(p []byte) int { out = zf1.EncodeAll(p, out[:0]); return len(out) }},
		{"httpbody-gzip", func(p []byte) int { out = httpbody.Encode(out[:0], httpbody.Gzip, p); return len(out) }},
		{"httpbody-zstd", func(p []byte) int { out = httpbody.Encode(out[:0], httpbody.Zstd, p); return len(out) }},
		{"zstd-default-1", func(p []byte) int { out = zdef.EncodeAll(p, out[:0]); return len(out) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			total, n := 0, 0
			c0 := cpuTime()
			benchMix(b, 50, func(ix *search.Index, q search.Query) {
				buf = ix.AppendJSON(buf[:0], q)
				total += c.enc(buf)
				n++
			})
			b.ReportMetric(float64(total)/float64(max(n, 1)), "bytes/answer")
			b.ReportMetric((cpuTime()-c0).Seconds()*1e6/float64(max(n, 1)), "cpu-us/answer")
		})
	}
}

// nopWriter is a ResponseWriter that keeps the headers and drops the body.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteHeader(int)             {}

// BenchmarkAnswerWrite is the answer path after the index: the limit-50
// answer rendered and sent with httpbody.Write, as a plain client and as a
// browser (Accept-Encoding: gzip, deflate, br, zstd) and a gzip-only
// client ask.
func BenchmarkAnswerWrite(b *testing.B) {
	var buf []byte
	for _, c := range []struct{ name, accept string }{
		{"plain", ""},
		{"browser", "gzip, deflate, br, zstd"},
		{"gzip", "gzip"},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, "/api/store/physical-store/list-physical-store/", nil)
			if c.accept != "" {
				r.Header.Set("Accept-Encoding", c.accept)
			}
			w := &nopWriter{h: http.Header{}}
			n := 0
			c0 := cpuTime()
			benchMix(b, 50, func(ix *search.Index, q search.Query) {
				buf = ix.AppendJSON(buf[:0], q)
				clear(w.h)
				httpbody.Write(w, r, "application/json", buf)
				n++
			})
			b.ReportMetric((cpuTime()-c0).Seconds()*1e6/float64(max(n, 1)), "cpu-us/answer")
		})
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine the
// work done, apart from waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkListHandler is the whole list call through the server's
// handler (middleware, routing, query parsing, search, answer), limit 50,
// as wrk sends it and as a browser does, with the CPU time per request:
//
//	go test -run '^$' -bench ListHandler -benchtime 5000x ./internal/bench/
func BenchmarkListHandler(b *testing.B) {
	l := load(b)
	h := httpapi.New(httpapi.Deps{Log: slog.New(slog.DiscardHandler), Index: l.Index, Network: httpapi.Network{AccessLog: httpapi.AccessLogOff}})
	rs := bench.WithLimit(bench.Valid(l.Mix), 50)
	for _, c := range []struct {
		name   string
		header [][2]string
	}{
		{"plain", nil},
		{"browser", [][2]string{
			{"Accept", "*/*"}, {"Sec-Fetch-Site", "same-origin"}, {"Sec-Fetch-Mode", "cors"}, {"Sec-Fetch-Dest", "empty"},
			{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
			{"Accept-Encoding", "gzip, deflate, br, zstd"}, {"Accept-Language", "en-US,en;q=0.9"},
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			reqs := make([]*http.Request, 0, 1000)
			for _, r := range rs[:1000] {
				req := httptest.NewRequest(http.MethodGet, r.RawURL, nil)
				for _, kv := range c.header {
					req.Header.Set(kv[0], kv[1])
				}
				reqs = append(reqs, req)
			}
			w := &nopWriter{h: http.Header{}}
			c0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				clear(w.h)
				h.ServeHTTP(w, reqs[i%len(reqs)])
			}
			b.ReportMetric((cpuTime()-c0).Seconds()*1e6/float64(b.N), "cpu-us/req")
		})
	}
}

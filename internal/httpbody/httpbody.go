// Package httpbody sends a whole answer held in memory (the HTTP API and
// the PostGIS baseline of tools/slb send theirs the same way): compressed with
// the content coding the client prefers among the ones that pay (zstd,
// gzip), with its Content-Length, in one write. The store search answers
// tens of kilobytes of JSON from memory; the store pages and directories
// are rendered into a buffer before they are sent. Answers that are
// compressed data already (map tiles) do not come here.
package httpbody

import (
	"net/http"
	"runtime"
	"strconv"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Encoding is a content coding the server may answer with.
type Encoding uint8

const (
	Identity Encoding = iota
	Gzip
	Zstd
)

// Offered lists the codings the server compresses with, for tests.
var Offered = []Encoding{Gzip, Zstd}

// String is the coding's name as Content-Encoding spells it ("" for identity).
func (e Encoding) String() string {
	switch e {
	case Gzip:
		return "gzip"
	case Zstd:
		return "zstd"
	}
	return ""
}

// MinSize is the smallest body worth compressing: below it the answer fits
// one TCP segment anyway and the coding's header and CPU are pure cost.
const MinSize = 1400

// Negotiate picks the coding for an Accept-Encoding value (RFC 9110
// 12.5.3): the acceptable coding (q > 0, named or by "*") with the highest
// weight, zstd before gzip at equal weight (smaller and cheaper, see
// docs/performance-history.md series F); identity when nothing is acceptable, when
// identity itself weighs more, or when the header is absent. It does not
// allocate.
func Negotiate(accept string) Encoding {
	if accept == "" {
		return Identity
	}
	qGzip, qZstd, qIdentity, qStar := -1, -1, -1, -1 // thousandths; -1: not named
	for i := 0; i < len(accept); {
		// one element: token [; q=value] [, ...]
		for i < len(accept) && (accept[i] == ' ' || accept[i] == '\t' || accept[i] == ',') {
			i++
		}
		start := i
		for i < len(accept) && accept[i] != ',' && accept[i] != ';' && accept[i] != ' ' && accept[i] != '\t' {
			i++
		}
		token := accept[start:i]
		q := 1000
		for i < len(accept) && accept[i] != ',' {
			if accept[i] == ';' {
				j := i + 1
				for j < len(accept) && (accept[j] == ' ' || accept[j] == '\t') {
					j++
				}
				if j+1 < len(accept) && (accept[j] == 'q' || accept[j] == 'Q') && accept[j+1] == '=' {
					var n int
					q, n = parseQ(accept[j+2:])
					i = j + 2 + n
					continue
				}
			}
			i++
		}
		switch {
		case equalFold(token, "gzip"), equalFold(token, "x-gzip"):
			qGzip = max(qGzip, q)
		case equalFold(token, "zstd"):
			qZstd = max(qZstd, q)
		case equalFold(token, "identity"):
			qIdentity = q
		case token == "*":
			qStar = q
		}
	}
	if qGzip < 0 {
		qGzip = max(qStar, 0)
	}
	if qZstd < 0 {
		qZstd = max(qStar, 0)
	}
	if qIdentity < 0 {
		qIdentity = 1 // identity is acceptable unless refused; weighs least
	}
	best, qBest := Identity, 0
	if qZstd > qBest {
		best, qBest = Zstd, qZstd
	}
	if qGzip > qBest {
		best, qBest = Gzip, qGzip
	}
	if best != Identity && qIdentity > qBest {
		return Identity
	}
	return best
}

// parseQ reads a qvalue ("1", "0.5", "0.125"; anything else counts as 0)
// in thousandths, and how many bytes it took.
func parseQ(s string) (q, n int) {
	if n < len(s) && (s[n] == '0' || s[n] == '1') {
		q = int(s[n]-'0') * 1000
		n++
		if n < len(s) && s[n] == '.' {
			n++
			for scale := 100; n < len(s) && s[n] >= '0' && s[n] <= '9'; scale /= 10 {
				q += int(s[n]-'0') * scale
				n++
			}
		}
	}
	return min(q, 1000), n
}

func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// gzip at level 1: klauspost's costs about half the standard library's
// at the same level for these answers, and makes them 9% smaller.
//
// As many encoders as cores, each request borrowing one: encoding never
// waits on anything but a core, so more would not run more at once, and
// every extra one's tables would push the others' out of the CPU caches
// (zstd with 64 encoders for 64 connections cost 1.6-2.3x the CPU per
// answer of 2 encoders in a parallel benchmark).
var gzipWriters = func() chan *gzip.Writer {
	c := make(chan *gzip.Writer, runtime.GOMAXPROCS(0))
	for range cap(c) {
		w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
		c <- w
	}
	return c
}()

// zstdEncoder serves EncodeAll from any goroutine, with one encoder per
// core (as above). The fastest level: ~10% less CPU per list answer than
// the default level for 9% more bytes (still 1.2x of gzip -6), and no
// checksum (RFC 9659 asks for none; TCP and TLS guard the bytes). A 1 MB window keeps within what RFC 9659 asks
// browsers to decode (8 MB) and bounds memory.
var zstdEncoder = sync.OnceValue(func() *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(1<<20),
		zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)), zstd.WithEncoderCRC(false))
	if err != nil {
		panic(err) // only for invalid options
	}
	return e
})

// sliceWriter appends to a byte slice (the gzip writer's destination).
type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) { s.b = append(s.b, p...); return len(p), nil }

// Encode appends body encoded with e to dst.
func Encode(dst []byte, e Encoding, body []byte) []byte {
	switch e {
	case Zstd:
		return zstdEncoder().EncodeAll(body, dst)
	case Gzip:
		sw := sliceWriter{b: dst}
		gz := <-gzipWriters
		gz.Reset(&sw)
		_, _ = gz.Write(body)
		_ = gz.Close()
		gz.Reset(nil)
		gzipWriters <- gz
		return sw.b
	}
	return append(dst, body...)
}

var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// Header values built once: setting a map entry to a shared slice
// allocates nothing.
var (
	varyValue   = []string{"Accept-Encoding"}
	jsonType    = []string{"application/json"}
	codingValue = map[Encoding][]string{Gzip: {"gzip"}, Zstd: {"zstd"}}
)

// For is the coding Write uses for body in answer to r.
func For(r *http.Request, body []byte) Encoding {
	if len(body) < MinSize {
		return Identity
	}
	return Negotiate(r.Header.Get("Accept-Encoding"))
}

// JSON sends a pre-rendered JSON body as a 200 answer (Write).
func JSON(w http.ResponseWriter, r *http.Request, body []byte) {
	Write(w, r, "application/json", body)
}

// Write sends body as a 200 answer with the given Content-Type, compressed when the client accepts a coding and the
// body is big enough, with Content-Length, in one write. A HEAD request
// gets the same headers and no body.
func Write(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	WriteStatus(w, r, http.StatusOK, contentType, body)
}

// WriteStatus is Write with a status.
func WriteStatus(w http.ResponseWriter, r *http.Request, status int, contentType string, body []byte) {
	WriteWith(w, r, status, contentType, For(r, body), body, nil)
}

// WriteWith sends body encoded with e (identity: as it is), as WriteStatus
// does. When e is a coding, kept (if not nil) is called with the encoded
// bytes before they are sent; they are reused afterwards, so it must copy
// what it keeps (the search's answer cache does).
func WriteWith(w http.ResponseWriter, r *http.Request, status int, contentType string, e Encoding, body []byte, kept func(encoded []byte)) {
	if e == Identity {
		WriteEncoded(w, r, status, contentType, Identity, body)
		return
	}
	bp := buffers.Get().(*[]byte)
	out := Encode((*bp)[:0], e, body)
	if kept != nil {
		kept(out)
	}
	WriteEncoded(w, r, status, contentType, e, out)
	*bp = out
	if cap(out) <= 1<<20 { // don't keep rare huge buffers
		buffers.Put(bp)
	}
}

// WriteEncoded sends a body already encoded with e (Encode, or a cached
// copy of its output) with the headers Write gives it, in one write.
func WriteEncoded(w http.ResponseWriter, r *http.Request, status int, contentType string, e Encoding, encoded []byte) {
	h := w.Header()
	switch contentType {
	case "":
	case "application/json":
		h["Content-Type"] = jsonType
	default:
		h["Content-Type"] = []string{contentType}
	}
	h["Vary"] = varyValue
	if e != Identity {
		h["Content-Encoding"] = codingValue[e]
	}
	h["Content-Length"] = []string{strconv.Itoa(len(encoded))}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(encoded)
	}
}

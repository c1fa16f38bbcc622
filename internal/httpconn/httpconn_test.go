package httpconn

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// capture is a Listener that remembers the connections it accepted.
type capture struct {
	Listener
	mu    sync.Mutex
	conns []*Conn
}

func (l *capture) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if jc, ok := c.(*Conn); ok {
		l.mu.Lock()
		l.conns = append(l.conns, jc)
		l.mu.Unlock()
	}
	return c, err
}

// serve runs handler behind a capturing Listener with the hooks the
// production server sets (internal/httpapi.NewHTTPServer).
func serve(t *testing.T, handler http.HandlerFunc) (string, *capture) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &capture{Listener: Listener{ln}}
	srv := &http.Server{Handler: handler, ConnContext: ConnContext, ConnState: Settle}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String(), l
}

func body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}

// writesOf is how many write calls the one connection made so far (0
// before the first request).
func (l *capture) writesOf(t *testing.T) int {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	switch len(l.conns) {
	case 0:
		return 0
	case 1:
		return int(l.conns[0].writes.Load())
	}
	t.Fatalf("%d connections, want 1 (keep-alive)", len(l.conns))
	return 0
}

func TestJoinSendsHeadersAndBodyInOneWrite(t *testing.T) {
	url, l := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		b := body(n)
		w.Header().Set("Content-Length", strconv.Itoa(n))
		w.WriteHeader(http.StatusOK)
		if r.URL.Query().Get("join") == "1" {
			Join(r, http.StatusOK, n)
		}
		_, _ = w.Write(b)
	})
	client := &http.Client{Timeout: 5 * time.Second}
	// One connection for every request, so the write counts add up.
	client.Transport = &http.Transport{MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1}
	for _, tc := range []struct {
		n      int
		join   bool
		writes int
	}{
		{100, true, 1},         // under MinJoin: one write already, Join does nothing
		{MinJoin - 1, true, 2}, // headers + body over 4 KB: two writes, Join stays off below MinJoin
		{MinJoin, true, 1},     // the second write comes when the request ends: still joined
		{6000, true, 1},        // the rest fits the buffer: joined at the end of the request
		{60000, true, 1},       // the rest leaves in the same Write: joined at once
		{60000, false, 2},      // without Join: net/http's two writes
		{3 << 20, true, 1},     // more than the socket takes at once: one writev call, which loops
		{MinJoin + 10, false, 2},
	} {
		before := l.writesOf(t)
		join := "0"
		if tc.join {
			join = "1"
		}
		resp, err := client.Get(url + "/?n=" + strconv.Itoa(tc.n) + "&join=" + join)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, body(tc.n)) {
			t.Fatalf("n=%d join=%v: body of %d bytes differs", tc.n, tc.join, len(got))
		}
		// The count moved before the response's last byte left.
		if writes := l.writesOf(t) - before; writes != tc.writes {
			t.Errorf("n=%d join=%v: %d write calls, want %d", tc.n, tc.join, writes, tc.writes)
		}
	}
}

// A handler that arms Join and then writes a short body (against Join's
// contract) still gets its answer out: Settle sends the held write when the
// response is done, instead of leaving the client waiting.
func TestSettleSendsWhatJoinHeld(t *testing.T) {
	url, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		Join(r, http.StatusOK, 10000)
		_, _ = w.Write([]byte("short"))
	})
	client := &http.Client{Timeout: 5 * time.Second}
	for range 2 {
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != "short" {
			t.Fatalf("got %q", got)
		}
	}
}

// Join does nothing where no body follows, or on a connection that is not
// a *Conn.
func TestJoinLeavesOtherAnswersAlone(t *testing.T) {
	url, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10000")
		w.WriteHeader(http.StatusNotModified)
		Join(r, http.StatusNotModified, 10000)
	})
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("status %d", resp.StatusCode)
	}
	resp, err = client.Head(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	Join(r, http.StatusOK, 1<<20) // no connection in the context: no panic
}

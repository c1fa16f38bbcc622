package httpapi_test

import (
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"locator/internal/db/dbtest"
	"locator/internal/httpconn"
)

type connsSeen struct {
	httpconn.Listener
	mu    sync.Mutex
	conns []*httpconn.Conn
}

func (l *connsSeen) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if jc, ok := c.(*httpconn.Conn); ok {
		l.mu.Lock()
		l.conns = append(l.conns, jc)
		l.mu.Unlock()
	}
	return c, err
}

func (l *connsSeen) writes(t *testing.T) int64 {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.conns) > 1 {
		t.Fatalf("%d connections, want one kept alive", len(l.conns))
	}
	if len(l.conns) == 0 {
		return 0
	}
	return l.conns[0].Writes()
}

// The server cmd/locator runs (NewHTTPServer on an httpconn.Listener)
// sends every answer httpbody writes, headers and body, in one write to
// the socket, with the body intact; answers of any size, on one
// connection kept alive.
func TestAnswersLeaveInOneWrite(t *testing.T) {
	t.Parallel()
	f := newFixture(t, dbtest.SQLite(t))
	ln := listen(t)
	seen := &connsSeen{Listener: httpconn.Listener{Listener: ln}}
	serveReal(t, f.srv, seen)
	base := "http://" + ln.Addr().String()
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxConnsPerHost: 1, DisableCompression: true}}
	large := 0
	for _, c := range []struct{ path, coding string }{
		{"/api/store/physical-store/list-physical-store/?latitude=40.75&longitude=-73.99&radius=100&limit=100", ""},
		{"/api/store/physical-store/list-physical-store/?latitude=40.75&longitude=-73.99&radius=100&limit=100", "gzip"},
		{"/api/store/physical-store/" + itoa(f.nearID), ""},
		{"/healthz", ""},
		{"/stores/ny", ""},
	} {
		before := seen.writes(t)
		req, _ := http.NewRequest(http.MethodGet, base+c.path, nil)
		if c.coding != "" {
			req.Header.Set("Accept-Encoding", c.coding)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", c.path, res.StatusCode)
		}
		if res.ContentLength >= 0 && int64(len(b)) != res.ContentLength {
			t.Fatalf("%s: %d bytes of %d", c.path, len(b), res.ContentLength)
		}
		if len(b) >= httpconn.MinJoin {
			large++
		}
		// Every answer here is written whole by httpbody: one write each,
		// large or not.
		if w := seen.writes(t) - before; w != 1 {
			t.Errorf("%s (%s, %d bytes): %d writes to the socket, want 1", c.path, c.coding, len(b), w)
		}
	}
	if large < 2 {
		t.Fatalf("only %d answers over %d bytes: the test no longer sends large answers", large, httpconn.MinJoin)
	}
}

// Package httpconn sends a large HTTP/1.1 answer, headers and body, in one
// write to the socket.
//
// net/http buffers a connection's output in 4 KB: an answer longer than
// that leaves in two write calls, the headers with the body's first bytes,
// then the rest, and the client wakes up for each. A handler that holds its
// whole body in memory (internal/httpbody) calls Join before its one Write;
// the connection then keeps the first of net/http's two writes (a copy of at
// most 4 KB, in a pooled buffer) and sends it with the second in one writev. Everything else
// passes through untouched.
package httpconn

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// MinJoin is the smallest body Join acts on: net/http's connection buffer
// (4 KB). A smaller answer already leaves in one write, when net/http
// flushes at the end of the request, so there would be no second write to
// join the first to.
const MinJoin = 4 << 10

// Listener wraps the TCP connections a net.Listener accepts in Conn.
type Listener struct{ net.Listener }

// Accept returns the next connection, a *Conn when it is TCP.
func (l Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		return &Conn{TCPConn: tc}, nil
	}
	return c, nil
}

// Conn is a TCP connection that can join two writes into one. Only the
// connection's own goroutine writes to it (net/http serves an HTTP/1.1
// connection's requests one after another on one goroutine), so it needs no
// lock.
type Conn struct {
	*net.TCPConn
	armed  bool
	held   *[]byte // the first write while armed, in a buffer from heldBufs
	bufs   [2][]byte
	vec    net.Buffers
	writes atomic.Int64 // write or writev calls made (Writes)
}

// heldBufs lends the copy of a held write for the moment between the two
// writes, so an idle connection keeps no buffer of its own.
var heldBufs = sync.Pool{New: func() any { b := make([]byte, 0, MinJoin); return &b }}

// release returns the held buffer.
func (c *Conn) release() {
	if cap(*c.held) <= MinJoin {
		*c.held = (*c.held)[:0]
		heldBufs.Put(c.held)
	}
	c.held = nil
}

// Writes is how many write calls the connection made to the socket (a
// writev counts once): what the tests check.
func (c *Conn) Writes() int64 { return c.writes.Load() }

// Write sends p, or, when Join armed the connection, keeps the first write
// and sends it with the next.
func (c *Conn) Write(p []byte) (int, error) {
	if !c.armed {
		c.writes.Add(1)
		return c.TCPConn.Write(p)
	}
	if c.held == nil {
		c.held = heldBufs.Get().(*[]byte)
		*c.held = append(*c.held, p...)
		return len(p), nil
	}
	c.armed = false
	held := len(*c.held)
	c.bufs = [2][]byte{*c.held, p}
	c.vec = c.bufs[:]
	c.writes.Add(1)
	n, err := c.vec.WriteTo(c.TCPConn)
	c.bufs, c.vec = [2][]byte{}, nil
	c.release()
	if n -= int64(held); n < 0 {
		n = 0
	}
	return int(n), err
}

// Settle sends what a connection still holds, which only happens when a
// handler armed Join and then wrote nothing (a bug, but not one that should
// leave a client waiting). Chain it into the http.Server's ConnState hook:
// net/http reports StateIdle once a response is flushed.
func Settle(c net.Conn, st http.ConnState) {
	if st == http.StateNew || st == http.StateActive {
		return
	}
	jc, ok := c.(*Conn)
	if !ok || !jc.armed {
		return
	}
	jc.armed = false
	if jc.held != nil {
		jc.writes.Add(1)
		_, _ = jc.TCPConn.Write(*jc.held)
		jc.release()
	}
}

type ctxKey struct{}

// ConnContext is an http.Server ConnContext hook that makes a *Conn
// reachable from its requests' contexts.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if jc, ok := c.(*Conn); ok {
		return context.WithValue(ctx, ctxKey{}, jc)
	}
	return ctx
}

// Join tells r's connection that the handler's next Write is a whole body
// of bodyLen bytes (sent with status), so the headers and the body leave in
// one write. It does nothing for bodies under MinJoin, for HEAD, 1xx, 204
// and 304 (no body is written) and when the connection is not a *Conn
// (HTTP/2, tests with httptest.ResponseRecorder).
// Call it right before the one Write of the body, after the headers are
// set, and write the body whole: anything written after it would join the
// wrong write.
func Join(r *http.Request, status, bodyLen int) {
	if bodyLen < MinJoin || r.Method == http.MethodHead || r.ProtoMajor != 1 ||
		status < 200 || status == http.StatusNoContent || status == http.StatusNotModified {
		return
	}
	if c, ok := r.Context().Value(ctxKey{}).(*Conn); ok {
		c.armed = true
	}
}

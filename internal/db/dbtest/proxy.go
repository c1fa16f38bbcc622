package dbtest

import (
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"locator/internal/db"
)

// Mode is what a Proxy does with connections.
type Mode int

const (
	// Pass forwards traffic both ways.
	Pass Mode = iota
	// Refuse closes every connection and refuses new ones, as a stopped
	// server does.
	Refuse
	// Hang accepts connections and forwards nothing either way, as a server
	// behind a dead network path does: callers wait until they give up.
	Hang
)

// Proxy is a TCP proxy in front of a database server that a test switches
// between Pass, Refuse and Hang, to play outages without touching the
// shared server.
type Proxy struct {
	t      testing.TB
	target string
	addr   string // kept across Refuse, so URLs stay valid

	mu      sync.Mutex
	mode    Mode
	ln      net.Listener
	conns   map[net.Conn]struct{}
	changed chan struct{} // closed on every mode change
	closed  bool
	delay   time.Duration // see SetDelay
}

// NewProxy listens on a free loopback port and forwards to target
// (host:port). It is closed when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy: listen: %v", err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}, changed: make(chan struct{})}
	p.serve(ln)
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Set switches the mode.
func (p *Proxy) Set(m Mode) {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == m {
		return
	}
	p.mode = m
	close(p.changed)
	p.changed = make(chan struct{})
	switch {
	case m == Refuse:
		p.ln.Close()
		p.ln = nil
		for c := range p.conns {
			c.Close()
		}
	case p.ln == nil:
		// Back from Refuse: listen on the same port again.
		var ln net.Listener
		var err error
		for range 50 {
			if ln, err = net.Listen("tcp", p.addr); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			p.t.Fatalf("proxy: listen again on %s: %v", p.addr, err)
		}
		p.serve(ln)
	}
}

// SetDelay holds every chunk the database sends for d (0: none) while
// passing: each round trip takes d longer, as a slow database (or network)
// answers.
func (p *Proxy) SetDelay(d time.Duration) {
	p.mu.Lock()
	p.delay = d
	p.mu.Unlock()
}

// serve accepts on ln until it is closed; the caller holds mu or owns p.
func (p *Proxy) serve(ln net.Listener) {
	p.ln = ln
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !p.track(c) {
				return
			}
			go p.handle(c)
		}
	}()
}

// track remembers c, to close on Refuse; when refusing already it closes
// c and says false.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.mode == Refuse {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// open waits while the proxy hangs; false when it refuses or is closed.
func (p *Proxy) open() bool {
	for {
		p.mu.Lock()
		m, ch, closed := p.mode, p.changed, p.closed
		p.mu.Unlock()
		switch {
		case closed || m == Refuse:
			return false
		case m == Pass:
			return true
		}
		<-ch
	}
}

func (p *Proxy) handle(c net.Conn) {
	defer p.untrack(c)
	if !p.open() {
		return
	}
	up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		return
	}
	if !p.track(up) {
		return
	}
	defer p.untrack(up)
	done := make(chan struct{}, 2)
	go func() { p.pump(up, c, false); done <- struct{}{} }()
	go func() { p.pump(c, up, true); done <- struct{}{} }()
	<-done // one side ended: end both
}

// pump copies src to dst, holding each chunk while the proxy hangs, and
// an answer (from the database) for the delay.
func (p *Proxy) pump(dst, src net.Conn, answer bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.open() {
				return
			}
			p.mu.Lock()
			delay := p.delay
			p.mu.Unlock()
			if answer && delay > 0 {
				time.Sleep(delay)
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	close(p.changed)
	p.changed = make(chan struct{})
	if p.ln != nil {
		p.ln.Close()
	}
	for c := range p.conns {
		c.Close()
	}
}

// ProxiedPostgres opens a migrated, empty PostgreSQL schema reached through
// a Proxy the test controls.
func ProxiedPostgres(t testing.TB) (*db.DB, *Proxy) {
	t.Helper()
	u, _ := NewSchema(t)
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatalf("parse %s: %v", u, err)
	}
	p := NewProxy(t, pu.Host)
	pu.Host = p.Addr()
	return open(t, pu.String()), p
}

// WithinBound runs fn and waits at most limit for it, so a call that
// would hang through an outage fails the test instead of hanging it. It
// returns how long fn took.
func WithinBound(t testing.TB, limit time.Duration, fn func()) time.Duration {
	t.Helper()
	start := time.Now()
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
		return time.Since(start)
	case <-time.After(limit):
		t.Fatalf("still waiting after %v: the call is not bounded", limit)
		return 0
	}
}

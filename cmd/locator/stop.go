package main

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// unreadGrace is how long a stopping server waits, after closing its
// listener, for connections it accepted to send their request.
const unreadGrace = 2 * time.Second

// unread tracks the connections accepted whose first request has not been
// read. http.Server.Shutdown drops a request it reads after it began, so
// serve closes the listener first and calls Shutdown once these requests
// are in (or unreadGrace passed): a client that connected just before the
// close still gets its answer.
type unread struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is an http.Server ConnState hook.
func (u *unread) track(c net.Conn, st http.ConnState) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.conns == nil {
		u.conns = map[net.Conn]struct{}{}
	}
	if st == http.StateNew {
		u.conns[c] = struct{}{}
	} else {
		delete(u.conns, c)
	}
}

// wait returns once every connection tracked has sent its request, or
// after limit.
func (u *unread) wait(limit time.Duration) {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		u.mu.Lock()
		n := len(u.conns)
		u.mu.Unlock()
		if n == 0 {
			return
		}
	}
}

package secret

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"locator/internal/apperr"
)

// Gate bounds how many argon2id computations run at once. Each one holds
// the hasher's memory (19 MiB by default) and a core for ~40 ms, so without
// a bound a burst of sign-ins takes the memory and the CPU from every other
// request. A caller waits for a slot at most MaxWait (or until its context
// ends), then gets ErrBusy.
type Gate struct {
	slots   chan struct{}
	maxWait time.Duration

	inFlight, peak atomic.Int64
}

// NewGate returns a gate of size slots whose callers wait at most maxWait.
func NewGate(size int, maxWait time.Duration) *Gate {
	return &Gate{slots: make(chan struct{}, max(size, 1)), maxWait: maxWait}
}

// NewProcessGate is the gate a serving process shares between every kind of
// account (cmd/locator's newApp makes one): half of GOMAXPROCS (at least
// one), so hashing never takes every core from the other requests; callers
// wait at most 2 s. Each slot costs a hasher's memory at most.
func NewProcessGate() *Gate { return NewGate(runtime.GOMAXPROCS(0)/2, 2*time.Second) }

// ErrBusy is the answer when no hashing slot freed up in time: 503 with
// Retry-After, never a queue that grows without bound.
var ErrBusy = &apperr.Error{Code: apperr.Unavailable, Message: "The server is busy. Please try again in a moment.", RetryAfter: time.Second}

// Size is how many computations may run at once.
func (g *Gate) Size() int { return cap(g.slots) }

// Peak is the most computations that ran at once so far.
func (g *Gate) Peak() int { return int(g.peak.Load()) }

// Acquire takes a slot as a hash does: at once when one is free, else
// after waiting at most the gate's wait (ErrBusy when none freed up, or
// when ctx ended first). release gives it back.
func (g *Gate) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
	default:
		t := time.NewTimer(g.maxWait)
		defer t.Stop()
		select {
		case g.slots <- struct{}{}:
		case <-t.C:
			return nil, ErrBusy
		case <-ctx.Done():
			return nil, ErrBusy
		}
	}
	n := g.inFlight.Add(1)
	for p := g.peak.Load(); n > p && !g.peak.CompareAndSwap(p, n); p = g.peak.Load() {
	}
	return func() { g.inFlight.Add(-1); <-g.slots }, nil
}

// run runs fn once a slot is free.
func (g *Gate) run(ctx context.Context, fn func()) error {
	if g == nil { // no gate: a command's one hash, or a test
		fn()
		return nil
	}
	release, err := g.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	fn()
	return nil
}

// Package ratelimit counts events per key in a sliding window. Memory is
// per process (per-IP limits: a client hitting two replicas gets at most
// twice the limit, an accepted trade for zero database writes); DB keeps a
// counter per key in the database so every replica agrees (per-account
// limits, where an attacker could otherwise spread guesses over replicas),
// and Lockout builds the sign-in lockout of every kind of account on it.
package ratelimit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/metrics"
)

// Memory is an in-process sliding-window limiter.
type Memory struct {
	mu     sync.Mutex
	events map[string][]time.Time
	calls  int
	now    func() time.Time
}

// NewMemory returns an empty limiter.
func NewMemory() *Memory {
	return &Memory{events: map[string][]time.Time{}, now: time.Now}
}

// Allow records an event for key unless limit events already happened in
// the last per; it then says how long until the next would be allowed.
func (m *Memory) Allow(key string, limit int, per time.Duration) (bool, time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.calls++
	if m.calls%1024 == 0 {
		m.prune(now, per)
	}
	ev := trim(m.events[key], now.Add(-per))
	if len(ev) >= limit {
		m.events[key] = ev
		metrics.RateLimited(key)
		return false, ev[0].Add(per).Sub(now)
	}
	m.events[key] = append(ev, now)
	return true, 0
}

func trim(ev []time.Time, after time.Time) []time.Time {
	i := 0
	for i < len(ev) && !ev[i].After(after) {
		i++
	}
	return ev[i:]
}

// prune drops keys with no recent events so memory stays bounded.
func (m *Memory) prune(now time.Time, per time.Duration) {
	for k, ev := range m.events {
		if len(ev) == 0 || now.Sub(ev[len(ev)-1]) > time.Hour+per {
			delete(m.events, k)
		}
	}
}

// DB is a limiter whose counters live in the rate_counters table, so every
// replica agrees. A key's window opens at its first attempt and lasts per;
// within it at most limit attempts are counted, and the next one after the
// window opens a new one.
type DB struct {
	db  *db.DB
	now func() time.Time
}

// NewDB returns a limiter on d.
func NewDB(d *db.DB) *DB { return &DB{db: d, now: time.Now} }

// Reserve counts one attempt of key unless limit attempts were already
// counted in its window; refused, it says how long until the window ends.
// One conditional upsert decides, so concurrent callers on any number of
// replicas never get more than limit reservations per window (a check
// followed by a separate insert would let every concurrent caller through).
func (l *DB) Reserve(ctx context.Context, key string, limit int, per time.Duration) (bool, time.Duration, error) {
	now := l.now().UnixMilli()
	var n int
	err := l.db.QueryRow(ctx, `INSERT INTO rate_counters (rkey, n, window_start) VALUES ($1, 1, $2)
		ON CONFLICT (rkey) DO UPDATE SET
			n = CASE WHEN rate_counters.window_start <= $3 THEN 1 ELSE rate_counters.n + 1 END,
			window_start = CASE WHEN rate_counters.window_start <= $3 THEN $2 ELSE rate_counters.window_start END
		WHERE rate_counters.window_start <= $3 OR rate_counters.n < $4
		RETURNING n`, key, now, now-per.Milliseconds(), limit).Scan(&n)
	if err == nil {
		return true, 0, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	// No row returned: the window is full.
	metrics.RateLimited(key)
	var start int64
	err = l.db.QueryRow(ctx, "SELECT window_start FROM rate_counters WHERE rkey = $1", key).Scan(&start)
	if errors.Is(err, sql.ErrNoRows) {
		return false, time.Second, nil // cleared meanwhile: the caller may retry at once
	}
	if err != nil {
		return false, 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	// Clamped: another replica may have opened the window a moment after now.
	return false, min(max(time.Duration(start-now)*time.Millisecond+per, time.Second), per), nil
}

// Take is Reserve answering a refusal with a TooMany error.
func (l *DB) Take(ctx context.Context, key string, limit int, per time.Duration) error {
	ok, wait, err := l.Reserve(ctx, key, limit, per)
	if err != nil {
		return err
	}
	if !ok {
		return TooMany(wait)
	}
	return nil
}

// Release gives back one attempt of key that was reserved but not used
// (say the password was never checked because hashing was busy).
func (l *DB) Release(ctx context.Context, key string) error {
	if _, err := l.db.Exec(ctx, "UPDATE rate_counters SET n = n - 1 WHERE rkey = $1 AND n > 0", key); err != nil {
		return fmt.Errorf("rate limit release %s: %w", key, err)
	}
	return nil
}

// Clear forgets key's attempts (a successful sign-in clears its count).
func (l *DB) Clear(ctx context.Context, key string) error {
	if _, err := l.db.Exec(ctx, "DELETE FROM rate_counters WHERE rkey = $1", key); err != nil {
		return fmt.Errorf("rate limit clear %s: %w", key, err)
	}
	return nil
}

// Prune deletes counters whose window opened more than maxAge ago.
func (l *DB) Prune(ctx context.Context, maxAge time.Duration) error {
	if _, err := l.db.Exec(ctx, "DELETE FROM rate_counters WHERE window_start < $1", l.now().Add(-maxAge).UnixMilli()); err != nil {
		return fmt.Errorf("rate limit prune: %w", err)
	}
	return nil
}

// TooMany is the 429 answer to a refused attempt, with Retry-After.
func TooMany(wait time.Duration) *apperr.Error {
	mins := max(int(wait.Round(time.Minute)/time.Minute), 1)
	e := apperr.New(apperr.TooMany, "Too many attempts. Please try again in %d minute(s).", mins)
	e.RetryAfter = wait
	return e
}

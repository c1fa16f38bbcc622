// Package ratelimit counts events per key in a sliding window. Memory is
// per process (per-IP limits: a client hitting two replicas gets at most
// twice the limit, an accepted trade for zero database writes); DB keeps the
// events in the database so every replica agrees (per-account limits, where
// an attacker could otherwise spread guesses over replicas).
package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"time"

	"locator/internal/db"
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

// DB is a limiter whose events live in the rate_events table.
type DB struct {
	db  *db.DB
	now func() time.Time
}

// NewDB returns a limiter on d.
func NewDB(d *db.DB) *DB { return &DB{db: d, now: time.Now} }

// Check says whether fewer than limit events of key happened in the last
// per, and if not, how long until one expires. It records nothing.
func (l *DB) Check(ctx context.Context, key string, limit int, per time.Duration) (bool, time.Duration, error) {
	now := l.now().UTC()
	var n int
	var oldest *time.Time
	rows, err := l.db.Query(ctx, "SELECT at FROM rate_events WHERE rkey = $1 AND at > $2 ORDER BY at LIMIT $3", key, now.Add(-per), limit)
	if err != nil {
		return false, 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	defer rows.Close()
	for rows.Next() {
		var at time.Time
		if err := rows.Scan(&at); err != nil {
			return false, 0, fmt.Errorf("rate limit %s: %w", key, err)
		}
		if oldest == nil {
			oldest = &at
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return false, 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	if n >= limit {
		return false, oldest.Add(per).Sub(now), nil
	}
	return true, 0, nil
}

// Record adds one event for key.
func (l *DB) Record(ctx context.Context, key string) error {
	if _, err := l.db.Exec(ctx, "INSERT INTO rate_events (rkey, at) VALUES ($1, $2)", key, l.now().UTC()); err != nil {
		return fmt.Errorf("rate limit record %s: %w", key, err)
	}
	return nil
}

// Allow is Check then Record when allowed.
func (l *DB) Allow(ctx context.Context, key string, limit int, per time.Duration) (bool, time.Duration, error) {
	ok, wait, err := l.Check(ctx, key, limit, per)
	if err != nil || !ok {
		return ok, wait, err
	}
	return true, 0, l.Record(ctx, key)
}

// Clear forgets key's events (a successful sign-in clears its failures).
func (l *DB) Clear(ctx context.Context, key string) error {
	if _, err := l.db.Exec(ctx, "DELETE FROM rate_events WHERE rkey = $1", key); err != nil {
		return fmt.Errorf("rate limit clear %s: %w", key, err)
	}
	return nil
}

// Prune deletes events older than maxAge.
func (l *DB) Prune(ctx context.Context, maxAge time.Duration) error {
	if _, err := l.db.Exec(ctx, "DELETE FROM rate_events WHERE at < $1", l.now().UTC().Add(-maxAge)); err != nil {
		return fmt.Errorf("rate limit prune: %w", err)
	}
	return nil
}

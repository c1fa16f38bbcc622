// Package clock is the app's one clock: cmd/locator makes one and hands it
// to every service that tells the time, so a test can pass a fixed or a
// faster one and every part of the app agrees on what time it is.
package clock

import "time"

// Clock tells the time. A nil Clock is the system's: a service built
// without one still reads the time.
type Clock func() time.Time

// System is the machine's clock.
func System() Clock { return time.Now }

// Fixed is a clock stopped at t (tests).
func Fixed(t time.Time) Clock { return func() time.Time { return t } }

// Now is the time on c.
func (c Clock) Now() time.Time {
	if c == nil {
		return time.Now()
	}
	return c()
}

// Stamp is Now as both engines keep a timestamp: in UTC, to the
// microsecond (PostgreSQL's precision), so a time written and read back
// compares equal to the one kept in memory.
func (c Clock) Stamp() time.Time { return c.Now().UTC().Truncate(time.Microsecond) }

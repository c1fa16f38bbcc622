package clock

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	at := time.Date(2026, 3, 8, 2, 30, 0, 123456789, time.FixedZone("X", -5*3600))
	c := Fixed(at)
	if !c.Now().Equal(at) {
		t.Errorf("fixed clock: %v, want %v", c.Now(), at)
	}
	if s := c.Stamp(); s.Location() != time.UTC || s.Nanosecond() != 123456000 || !s.Equal(at.Truncate(time.Microsecond)) {
		t.Errorf("stamp %v: want %v in UTC to the microsecond", s, at)
	}
	var none Clock
	before := time.Now()
	if now := none.Now(); now.Before(before) || now.After(time.Now()) {
		t.Errorf("a nil clock says %v, not the system's time", now)
	}
	if now := System().Now(); now.Before(before) || now.After(time.Now()) {
		t.Errorf("the system clock says %v", now)
	}
}

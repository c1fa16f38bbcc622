package ratelimit

import (
	"context"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

func TestMemory(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewMemory()
	m.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if ok, _ := m.Allow("ip", 3, time.Minute); !ok {
			t.Fatalf("event %d refused", i)
		}
		now = now.Add(10 * time.Second)
	}
	ok, wait := m.Allow("ip", 3, time.Minute)
	if ok || wait != 30*time.Second {
		t.Fatalf("4th: %v %v", ok, wait)
	}
	if ok, _ := m.Allow("other", 3, time.Minute); !ok {
		t.Fatal("keys are not independent")
	}
	now = now.Add(31 * time.Second)
	if ok, _ := m.Allow("ip", 3, time.Minute); !ok {
		t.Fatal("window did not slide")
	}
}

func TestDBAgreesAcrossReplicas(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		a, b := NewDB(d), NewDB(d) // two replicas
		a.now = func() time.Time { return now }
		b.now = a.now
		for i := 0; i < 4; i++ {
			l := []*DB{a, b}[i%2]
			ok, _, err := l.Allow(ctx, "login:ann", 4, 15*time.Minute)
			dbtest.Must(t, err, "allow")
			if !ok {
				t.Fatalf("event %d refused", i)
			}
			now = now.Add(time.Minute)
		}
		ok, wait, err := a.Check(ctx, "login:ann", 4, 15*time.Minute)
		dbtest.Must(t, err, "check")
		if ok || wait != 11*time.Minute {
			t.Fatalf("5th: %v %v", ok, wait)
		}
		dbtest.Must(t, b.Clear(ctx, "login:ann"), "clear")
		if ok, _, _ := a.Check(ctx, "login:ann", 4, 15*time.Minute); !ok {
			t.Fatal("clear did not reset")
		}
		dbtest.Must(t, a.Record(ctx, "old"), "record")
		now = now.Add(2 * time.Hour)
		dbtest.Must(t, a.Prune(ctx, time.Hour), "prune")
		var n int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM rate_events").Scan(&n), "count")
		if n != 0 {
			t.Fatalf("%d events after prune", n)
		}
	})
}

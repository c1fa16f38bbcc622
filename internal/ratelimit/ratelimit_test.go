package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

func TestMemory(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		a, b := NewDB(da), NewDB(dbb) // two replicas
		a.now = func() time.Time { return now }
		b.now = a.now
		for i := 0; i < 4; i++ {
			l := []*DB{a, b}[i%2]
			ok, _, err := l.Reserve(ctx, "login:ann", 4, 15*time.Minute)
			dbtest.Must(t, err, "reserve")
			if !ok {
				t.Fatalf("attempt %d refused", i)
			}
			now = now.Add(time.Minute)
		}
		ok, wait, err := a.Reserve(ctx, "login:ann", 4, 15*time.Minute)
		dbtest.Must(t, err, "reserve")
		if ok || wait != 11*time.Minute {
			t.Fatalf("5th: %v %v", ok, wait)
		}
		err = b.Take(ctx, "login:ann", 4, 15*time.Minute)
		if e, isApp := apperr.As(err); !isApp || e.Code != apperr.TooMany || e.RetryAfter != 11*time.Minute {
			t.Fatalf("take when full: %v", err)
		}
		// A released attempt can be taken again, once.
		dbtest.Must(t, b.Release(ctx, "login:ann"), "release")
		if ok, _, _ := a.Reserve(ctx, "login:ann", 4, 15*time.Minute); !ok {
			t.Fatal("released attempt not reusable")
		}
		if ok, _, _ := a.Reserve(ctx, "login:ann", 4, 15*time.Minute); ok {
			t.Fatal("release gave back more than one attempt")
		}
		dbtest.Must(t, b.Clear(ctx, "login:ann"), "clear")
		if ok, _, _ := a.Reserve(ctx, "login:ann", 4, 15*time.Minute); !ok {
			t.Fatal("clear did not reset")
		}
		// A new window opens when the last one is over.
		now = now.Add(15 * time.Minute)
		for i := 0; i < 4; i++ {
			if ok, _, _ := b.Reserve(ctx, "login:ann", 4, 15*time.Minute); !ok {
				t.Fatalf("new window: attempt %d refused", i)
			}
		}
		now = now.Add(2 * time.Hour)
		dbtest.Must(t, a.Prune(ctx, time.Hour), "prune")
		var n int
		dbtest.Must(t, da.QueryRow(ctx, "SELECT COUNT(*) FROM rate_counters").Scan(&n), "count")
		if n != 0 {
			t.Fatalf("%d counters after prune", n)
		}
	})
}

// TestReserveIsAtomic sends 200 attempts at once through two replicas: a
// check followed by a separate write let far more than the limit through.
func TestReserveIsAtomic(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		replicas := []*DB{NewDB(da), NewDB(dbb)}
		var granted atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 200 {
			wg.Go(func() {
				<-start
				ok, wait, err := replicas[i%2].Reserve(context.Background(), "signin:ann", 10, 15*time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					granted.Add(1)
				} else if wait <= 0 || wait > 15*time.Minute {
					t.Errorf("refused with wait %v", wait)
				}
			})
		}
		close(start)
		wg.Wait()
		if n := granted.Load(); n != 10 {
			t.Fatalf("%d of 200 concurrent attempts granted, want 10", n)
		}
	})
}

func TestLockout(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		ctx := context.Background()
		members, moderators := NewLockout(NewDB(da), "member"), NewLockout(NewDB(dbb), "moderator")
		wrong := func() (bool, error) { return false, nil }
		checked := 0
		right := func() (bool, error) { checked++; return true, nil }
		for i := range MaxSignInAttempts {
			if ok, err := members.Check(ctx, "ann@example.com", wrong); ok || err != nil {
				t.Fatalf("guess %d: %v %v", i, ok, err)
			}
		}
		// Locked: the right password is not even checked.
		ok, err := members.Check(ctx, "ann@example.com", right)
		if e, isApp := apperr.As(err); ok || !isApp || e.Code != apperr.TooMany || e.RetryAfter <= 0 || checked != 0 {
			t.Fatalf("locked: %v %v, checked %d", ok, err, checked)
		}
		// Another kind of account with the same email has its own count.
		if ok, err := moderators.Check(ctx, "ann@example.com", right); !ok || err != nil {
			t.Fatalf("moderator: %v %v", ok, err)
		}
		// A check that failed without checking gives its attempt back;
		// a match clears the count.
		unavailable := func() (bool, error) { return false, apperr.New(apperr.Unavailable, "busy") }
		for range 2 * MaxSignInAttempts {
			if _, err := moderators.Check(ctx, "bob@example.com", unavailable); apperr.CodeOf(err) != apperr.Unavailable {
				t.Fatalf("unavailable: %v", err)
			}
		}
		for range MaxSignInAttempts - 1 {
			_, _ = moderators.Check(ctx, "bob@example.com", wrong)
		}
		if ok, err := moderators.Check(ctx, "bob@example.com", right); !ok || err != nil {
			t.Fatalf("10th attempt, after unchecked ones: %v %v", ok, err)
		}
		for range MaxSignInAttempts - 1 {
			_, _ = moderators.Check(ctx, "bob@example.com", wrong)
		}
		if ok, err := moderators.Check(ctx, "bob@example.com", right); !ok || err != nil {
			t.Fatalf("after a success the count starts over: %v %v", ok, err)
		}
	})
}

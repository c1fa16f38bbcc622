package identity_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/identity/identitytest"
	"locator/internal/secret"
)

func lookup(t *testing.T, s *identity.Sessions, token string) (int64, bool) {
	t.Helper()
	id, ok, err := s.Lookup(context.Background(), token)
	dbtest.Must(t, err, "look up session")
	return id, ok
}

func rows(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM moderator_sessions").Scan(&n), "count sessions")
	return n
}

func TestSessions(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		s := &identity.Sessions{DB: d, Table: "moderator_sessions", Owner: "moderator_id", TTL: time.Hour,
			Now: func() time.Time { return clock }}
		ann, bob := identitytest.Moderator(t, d, "ann@example.com"), identitytest.Moderator(t, d, "bob@example.com")

		first, err := s.Start(ctx, ann, "")
		dbtest.Must(t, err, "start")
		if id, ok := lookup(t, s, first); !ok || id != ann {
			t.Fatalf("lookup of a new session: %d %v", id, ok)
		}
		// Only the hash is stored.
		var stored string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT token_hash FROM moderator_sessions").Scan(&stored), "read hash")
		if stored != secret.HashToken(first) || stored == first {
			t.Fatalf("stored %q for token %q", stored, first)
		}

		// Signing in again rotates: the old token ends.
		second, err := s.Start(ctx, ann, first)
		dbtest.Must(t, err, "rotate")
		if second == first {
			t.Fatal("rotation kept the token")
		}
		if _, ok := lookup(t, s, first); ok {
			t.Fatal("the old token still works after rotation")
		}
		if id, ok := lookup(t, s, second); !ok || id != ann {
			t.Fatalf("lookup after rotation: %d %v", id, ok)
		}

		// No token, a too long one and an unknown one are no session.
		for _, tok := range []string{"", strings.Repeat("a", 101), "unknown"} {
			if _, ok := lookup(t, s, tok); ok {
				t.Fatalf("token %q found a session", tok)
			}
		}

		// EndAll keeps the named session and ends the account's others only.
		third, err := s.Start(ctx, ann, "")
		dbtest.Must(t, err, "start third")
		bobs, err := s.Start(ctx, bob, "")
		dbtest.Must(t, err, "start bob's")
		n, err := s.EndAll(ctx, d, ann, third)
		dbtest.Must(t, err, "end all but third")
		if n != 1 {
			t.Fatalf("ended %d, want 1", n)
		}
		if _, ok := lookup(t, s, second); ok {
			t.Fatal("EndAll left a session it should end")
		}
		if _, ok := lookup(t, s, third); !ok {
			t.Fatal("EndAll ended the kept session")
		}
		// In a transaction, with nothing kept.
		dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
			n, err = s.EndAll(ctx, tx, ann, "")
			return err
		}), "end all in tx")
		if n != 1 {
			t.Fatalf("ended %d in tx, want 1", n)
		}
		if _, ok := lookup(t, s, bobs); !ok {
			t.Fatal("another account's session ended")
		}

		// End signs out; an empty token is nothing to end.
		dbtest.Must(t, s.End(ctx, ""), "end empty")
		dbtest.Must(t, s.End(ctx, bobs), "end")
		if _, ok := lookup(t, s, bobs); ok {
			t.Fatal("an ended session still works")
		}

		// A session lives TTL, then Prune deletes it.
		live, err := s.Start(ctx, bob, "")
		dbtest.Must(t, err, "start live")
		clock = clock.Add(time.Hour - time.Second)
		if _, ok := lookup(t, s, live); !ok {
			t.Fatal("session ended before its TTL")
		}
		dbtest.Must(t, s.Prune(ctx), "prune early")
		if rows(t, d) != 1 {
			t.Fatal("prune deleted a live session")
		}
		clock = clock.Add(time.Second)
		if _, ok := lookup(t, s, live); ok {
			t.Fatal("an expired session still works")
		}
		clock = clock.Add(time.Second)
		dbtest.Must(t, s.Prune(ctx), "prune")
		if rows(t, d) != 0 {
			t.Fatal("prune kept an expired session")
		}
	})
}

package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"locator/internal/clock"
)

// newApp builds every service whole, with the one clock and one hashing
// gate: members, business accounts and moderators share the gate, so a
// flood of sign-ins of one kind waits with the others' instead of each kind
// taking cores of its own (internal/secret), and all three tell the time by
// the app's clock.
func TestNewAppSharesOneClockAndHashingGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, n, err := serveConfig([]string{"--database-url", "sqlite:" + filepath.Join(dir, "locator.db"), "--addr", "127.0.0.1:0",
		"--no-seed", "--mail-dir", dir}, io.Discard, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC)
	a, err := newApp(t.Context(), cfg, n, clock.Fixed(at), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	gate := a.acc.Hasher.Gate
	if gate == nil || gate.Size() < 1 {
		t.Fatalf("members hash without a gate: %v", gate)
	}
	if a.biz.Hasher.Gate != gate || a.claims.Moderators.Hasher.Gate != gate {
		t.Fatalf("gates: members %p, business %p, moderators %p: want one", gate, a.biz.Hasher.Gate, a.claims.Moderators.Hasher.Gate)
	}
	for name, now := range map[string]func() time.Time{"members": a.acc.Now, "business": a.biz.Now, "moderators": a.claims.Moderators.Now} {
		if got := now(); !got.Equal(at) {
			t.Errorf("%s tell %v, the app's clock %v", name, got, at)
		}
	}
}

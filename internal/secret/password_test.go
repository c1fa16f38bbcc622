package secret

import (
	"context"
	"strings"
	"sync"
	"testing"
)

var ctx = context.Background()

func TestPasswordHash(t *testing.T) {
	h, err := DefaultHasher.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	for _, c := range []struct {
		hash, password string
		want           bool
	}{
		{h, "correct horse", true},
		{h, "correct hors", false},
		{"garbage", "x", false},
		{"$argon2id$v=19$m=99999999,t=1,p=1$AA$AA", "x", false},
	} {
		got, err := DefaultHasher.Verify(ctx, c.hash, c.password)
		if err != nil || got != c.want {
			t.Errorf("Verify(%q, %q) = %v, %v", c.hash, c.password, got, err)
		}
	}
	h2, _ := DefaultHasher.Hash(ctx, "correct horse")
	if h == h2 {
		t.Fatal("no salt")
	}
	// The dummy has the same parameters and sizes, and matches nothing.
	d := DefaultHasher.Dummy()
	if len(d) != len(h) || d[:len("$argon2id$v=19$m=19456,t=2,p=1$")] != h[:len("$argon2id$v=19$m=19456,t=2,p=1$")] {
		t.Fatalf("dummy %q vs %q", d, h)
	}
	if ok, err := DefaultHasher.Verify(ctx, d, "correct horse"); ok || err != nil {
		t.Fatalf("dummy verified: %v %v", ok, err)
	}
}

func TestTokens(t *testing.T) {
	a, _ := NewToken()
	b, _ := NewToken()
	if len(a) != 43 || a == b {
		t.Fatalf("tokens %q %q", a, b)
	}
	// SHA-256 of "abc" (FIPS 180-2 test vector), hex.
	if got := HashToken("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("HashToken(abc) = %s", got)
	}
}

// TestGateBoundsHashing runs many hashes at once through a gate of 3: never
// more than 3 run together, and all finish when callers may wait long enough.
func TestGateBoundsHashing(t *testing.T) {
	g := NewGate(3, 1<<62)
	h := Hasher{Memory: 64, Time: 1, Threads: 1, Gate: g}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			enc, err := h.Hash(ctx, "password1")
			if err != nil {
				t.Error(err)
				return
			}
			if ok, err := h.Verify(ctx, enc, "password1"); !ok || err != nil {
				t.Errorf("verify: %v %v", ok, err)
			}
		})
	}
	wg.Wait()
	if p := g.Peak(); p < 1 || p > 3 {
		t.Fatalf("peak %d hashes at once through a gate of 3", p)
	}
}

// TestGateRefusesExcess fills a gate, then checks that a caller whose wait
// runs out, and one whose request is gone, get ErrBusy without hashing.
func TestGateRefusesExcess(t *testing.T) {
	g := NewGate(2, 1) // a 1 ns wait: a full gate refuses at once
	release := make(chan struct{})
	var running, done sync.WaitGroup
	for range 2 {
		running.Add(1)
		done.Go(func() {
			_ = g.run(ctx, func() { running.Done(); <-release })
		})
	}
	running.Wait()
	h := Hasher{Memory: 64, Time: 1, Threads: 1, Gate: g}
	if _, err := h.Hash(ctx, "password1"); err != ErrBusy {
		t.Fatalf("hash through a full gate: %v", err)
	}
	if _, err := h.Verify(ctx, "$argon2id$v=19$m=64,t=1,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "x"); err != ErrBusy {
		t.Fatalf("verify through a full gate: %v", err)
	}
	long := NewGate(1, 1<<62)
	if _, err := long.Acquire(ctx); err != nil { // now full
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := long.run(gone, func() { t.Error("ran with a cancelled context") }); err != ErrBusy {
		t.Fatalf("cancelled caller: %v", err)
	}
	close(release)
	done.Wait()
	if g.Peak() != 2 {
		t.Fatalf("peak %d", g.Peak())
	}
	if err := g.run(ctx, func() {}); err != nil {
		t.Fatalf("free gate: %v", err)
	}
}

func TestPasswordPolicy(t *testing.T) {
	for pw, want := range map[string]string{
		"":                       MsgPasswordRequired,
		"         ":              MsgPasswordRequired,
		"short":                  MsgPasswordTooShort,
		"seven77":                MsgPasswordTooShort,
		strings.Repeat("x", 256): MsgPasswordTooBig,
		"12345678":               MsgPasswordCommon,
		"PassWord1":              MsgPasswordCommon,
		"iloveyou2":              MsgPasswordCommon,
		"correct horse":          "",
		"tulip-granite-42":       "",
		strings.Repeat("é", 8):   "",
		strings.Repeat("x", 255): "",
	} {
		got := ""
		if err := CheckPassword(pw); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("CheckPassword(%.20q) = %q, want %q (empty: accepted)", pw, got, want)
		}
	}
	if len(common) != 10000 {
		t.Fatalf("%d common passwords loaded, want 10000", len(common))
	}
}

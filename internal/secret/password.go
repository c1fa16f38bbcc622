// Package secret holds the project's password policy, password hashing and
// random tokens, shared by members, business accounts and moderators.
package secret

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Hasher hashes and verifies passwords with argon2id. The defaults follow
// OWASP's minimum (19 MiB, 2 passes, 1 lane; ~40 ms here). Every
// computation goes through a Gate, so a flood of sign-ins waits its turn
// (or gets ErrBusy) instead of taking all memory and CPU.
type Hasher struct {
	Memory  uint32 // KiB
	Time    uint32
	Threads uint8
	Gate    *Gate // nil: unbounded (a command or a test); a server passes its one gate (identity.Options)
}

func (h Hasher) gate() *Gate { return h.Gate }

// DefaultHasher is what production uses.
var DefaultHasher = Hasher{Memory: 19 * 1024, Time: 2, Threads: 1}

// Hash returns a PHC string: $argon2id$v=19$m=...,t=...,p=...$salt$hash.
// It fails with ErrBusy when no hashing slot frees up in time.
func (h Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	var key []byte
	if err := h.gate().run(ctx, func() { key = argon2.IDKey([]byte(password), salt, h.Time, h.Memory, h.Threads, 32) }); err != nil {
		return "", err
	}
	return h.encode(salt, key), nil
}

// encode is the PHC string of a salt and key made with h's parameters.
func (h Hasher) encode(salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.Memory, h.Time, h.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// Dummy returns a hash with h's parameters that no password matches (random
// salt and key). Verifying against it costs what verifying a real hash
// costs, so an unknown account answers in the same time as a wrong password.
func (h Hasher) Dummy() string {
	b := make([]byte, 48)
	_, _ = rand.Read(b)
	return h.encode(b[:16], b[16:])
}

// Verify checks password against a PHC string, with the parameters stored
// in it (so raising the defaults keeps old hashes valid), through h's gate.
// A malformed hash is a mismatch; the only error is ErrBusy.
func (h Hasher) Verify(ctx context.Context, encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, nil
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 || m > 1<<20 {
		return false, nil
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, nil
	}
	var got []byte
	if err := h.gate().run(ctx, func() { got = argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want))) }); err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// NewToken returns a random 256-bit token, URL-safe.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// HashToken is what is stored of a token: its SHA-256, hex.
func HashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

package identity_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/ratelimit"
	"locator/internal/secret"
)

// fast keeps argon2id but cheap, so tests run quickly under -race.
var fast = secret.Hasher{Memory: 64, Time: 1, Threads: 1}

// fastHash is password hashed by fast.
func fastHash(t *testing.T, password string) string {
	t.Helper()
	hash, err := fast.Hash(context.Background(), password)
	dbtest.Must(t, err, "hash")
	return hash
}

func TestCredentials(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		h := fast
		_, err := d.Exec(ctx, "INSERT INTO moderators (email, password_hash, created_at) VALUES ('ann@example.com', $1, CURRENT_TIMESTAMP)", fastHash(t, "tulip-lamp-7"))
		dbtest.Must(t, err, "add moderator")
		c := identity.Credentials{Hasher: &h, Lockout: ratelimit.NewLockout(ratelimit.NewDB(d), "test")}
		finds := 0
		find := func(email string) func() (string, error) {
			return func() (string, error) {
				finds++
				var hash string
				err := d.QueryRow(ctx, "SELECT password_hash FROM moderators WHERE email = $1", email).Scan(&hash)
				return hash, err
			}
		}
		check := func(email, password string) (bool, error) { return c.Check(ctx, email, password, find(email)) }

		if ok, err := check("ann@example.com", "tulip-lamp-7"); !ok || err != nil {
			t.Fatalf("right password: %v %v", ok, err)
		}
		if ok, err := check("ann@example.com", "wrong-password"); ok || err != nil {
			t.Fatalf("wrong password: %v %v", ok, err)
		}
		// An unknown email is no match even with a password that verifies
		// against nothing but the dummy hash's shape.
		if ok, err := check("nobody@example.com", "tulip-lamp-7"); ok || err != nil {
			t.Fatalf("unknown email: %v %v", ok, err)
		}
		// Malformed input is refused without a look-up.
		before := finds
		for _, in := range [][2]string{{"", "tulip-lamp-7"}, {"ann@example.com", ""},
			{strings.Repeat("a", identity.MaxEmailLen+1), "x"}, {"ann@example.com", strings.Repeat("p", 4*secret.MaxPasswordLen+1)}} {
			if ok, err := check(in[0], in[1]); ok || err != nil {
				t.Fatalf("malformed %q: %v %v", in[0][:min(len(in[0]), 20)], ok, err)
			}
		}
		if finds != before {
			t.Fatal("malformed input was looked up")
		}

		// A look-up error is returned and the attempt given back.
		boom := errors.New("boom")
		if _, err := c.Check(ctx, "ann@example.com", "x", func() (string, error) { return "", boom }); !errors.Is(err, boom) {
			t.Fatalf("look-up error: %v", err)
		}

		// After MaxSignInAttempts wrong guesses even the right password is refused.
		for i := 1; i < ratelimit.MaxSignInAttempts; i++ { // one wrong guess above
			if ok, err := check("ann@example.com", "wrong-password"); ok || err != nil {
				t.Fatalf("guess %d: %v %v", i, ok, err)
			}
		}
		_, err = check("ann@example.com", "tulip-lamp-7")
		if apperr.CodeOf(err) != apperr.TooMany {
			t.Fatalf("locked account: %v", err)
		}
	})
}

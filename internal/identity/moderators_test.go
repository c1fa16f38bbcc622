package identity_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/ratelimit"
	"locator/internal/secret"
)

func newModerators(d *db.DB) *identity.Moderators {
	m := identity.NewModerators(d, nil, identity.Options{})
	m.Hasher = fast
	return m
}

func TestModerators(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := newModerators(d)
		for pw, want := range map[string]string{"short": secret.MsgPasswordTooShort, "password123": secret.MsgPasswordCommon} {
			if err := s.Add(ctx, "mod@example.com", pw); err == nil || err.Error() != want {
				t.Fatalf("password %q: %v, want %q", pw, err, want)
			}
		}
		dbtest.Must(t, s.Add(ctx, "Mod@Example.com", "moderator-pass"), "add")
		if _, _, err := s.SignIn(ctx, "mod@example.com", "wrong-password", ""); err != identity.ErrBadCredentials {
			t.Fatalf("wrong password: %v", err)
		}
		m, tok, err := s.SignIn(ctx, "mod@example.com", "moderator-pass", "")
		dbtest.Must(t, err, "sign in")
		got, err := s.Authenticate(ctx, tok)
		dbtest.Must(t, err, "authenticate")
		if got.ID != m.ID {
			t.Fatal("wrong moderator")
		}
		dbtest.Must(t, s.SignOut(ctx, tok), "sign out")
		if _, err := s.Authenticate(ctx, tok); apperr.CodeOf(err) != apperr.Unauthorized {
			t.Fatalf("after sign out: %v", err)
		}
		// A password change ends every session of the moderator.
		_, tok1, err := s.SignIn(ctx, "mod@example.com", "moderator-pass", "")
		dbtest.Must(t, err, "sign in 1")
		_, tok2, err := s.SignIn(ctx, "mod@example.com", "moderator-pass", "")
		dbtest.Must(t, err, "sign in 2")
		dbtest.Must(t, s.Add(ctx, "mod@example.com", "a-new-moderator-pass"), "change password")
		for _, tok := range []string{tok1, tok2} {
			if _, err := s.Authenticate(ctx, tok); apperr.CodeOf(err) != apperr.Unauthorized {
				t.Fatalf("session survived a password change: %v", err)
			}
		}
		if _, _, err := s.SignIn(ctx, "mod@example.com", "moderator-pass", ""); err != identity.ErrBadCredentials {
			t.Fatalf("old password after the change: %v", err)
		}
	})
}

// TestModeratorLockout: 25 wrong passwords at once through two replicas,
// then the right one: at most 10 were checked and the right one is refused
// while the account is locked.
func TestModeratorLockout(t *testing.T) {
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		ctx := context.Background()
		replicas := []*identity.Moderators{newModerators(da), newModerators(dbb)}
		dbtest.Must(t, replicas[0].Add(ctx, "mod@example.com", "moderator-pass"), "add")
		var wrong, locked atomic.Int32
		var wg sync.WaitGroup
		for i := range 25 {
			wg.Go(func() {
				_, _, err := replicas[i%2].SignIn(ctx, "mod@example.com", "guess-"+strconv.Itoa(i), "")
				switch apperr.CodeOf(err) {
				case apperr.Unauthorized:
					wrong.Add(1)
				case apperr.TooMany:
					locked.Add(1)
				default:
					t.Errorf("guess %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if wrong.Load() != ratelimit.MaxSignInAttempts || locked.Load() != 25-ratelimit.MaxSignInAttempts {
			t.Fatalf("%d guesses checked, %d refused; want %d checked", wrong.Load(), locked.Load(), ratelimit.MaxSignInAttempts)
		}
		_, _, err := replicas[1].SignIn(ctx, "mod@example.com", "moderator-pass", "")
		if e, ok := apperr.As(err); !ok || e.Code != apperr.TooMany || e.RetryAfter <= 0 {
			t.Fatalf("right password while locked: %v", err)
		}
	})
}

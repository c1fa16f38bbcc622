package ratelimit

import (
	"context"
	"errors"
	"time"

	"locator/internal/apperr"
	"locator/internal/metrics"
)

// The sign-in lockout, one policy for every kind of account (members,
// moderators, business accounts): at most MaxSignInAttempts password checks
// per account in SignInWindow; a correct password clears the count.
const (
	MaxSignInAttempts = 10
	SignInWindow      = 15 * time.Minute
)

// Lockout guards the password checks of one kind of account. An attempt is
// reserved before the password is verified, so concurrent guesses on any
// number of replicas get at most MaxSignInAttempts checks; while the
// account is locked even the right password is refused.
type Lockout struct {
	limits *DB
	scope  string // key prefix: which kind of account
}

// NewLockout returns the lockout of the accounts called scope (e.g. "member").
func NewLockout(l *DB, scope string) Lockout { return Lockout{limits: l, scope: scope} }

// Check runs verify, the password check of account, under the lockout: the
// attempt is reserved first (a TooMany error when the account is locked),
// given back when verify fails without checking (an error: the database or
// the hashing was unavailable), and the count cleared when it matches.
func (lo Lockout) Check(ctx context.Context, account string, verify func() (bool, error)) (bool, error) {
	key := lo.scope + "-signin:" + account
	if err := lo.limits.Take(ctx, key, MaxSignInAttempts, SignInWindow); err != nil {
		if apperr.CodeOf(err) == apperr.TooMany {
			metrics.LockedOut(lo.scope)
		}
		return false, err
	}
	ok, err := verify()
	if err != nil {
		if rerr := lo.limits.Release(ctx, key); rerr != nil {
			return false, errors.Join(err, rerr)
		}
		return false, err
	}
	if ok {
		return true, lo.limits.Clear(ctx, key)
	}
	return false, nil
}

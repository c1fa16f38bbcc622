package ratelimit

import (
	"context"
	"time"
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

func (lo Lockout) key(account string) string { return lo.scope + "-signin:" + account }

// Attempt reserves one password check of account: a TooMany error when the
// account is locked.
func (lo Lockout) Attempt(ctx context.Context, account string) error {
	return lo.limits.Take(ctx, lo.key(account), MaxSignInAttempts, SignInWindow)
}

// Unused gives the attempt back when the password was not checked after all.
func (lo Lockout) Unused(ctx context.Context, account string) error {
	return lo.limits.Release(ctx, lo.key(account))
}

// Succeeded clears account's count after a correct password.
func (lo Lockout) Succeeded(ctx context.Context, account string) error {
	return lo.limits.Clear(ctx, lo.key(account))
}

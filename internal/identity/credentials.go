package identity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"locator/internal/ratelimit"
	"locator/internal/secret"
)

// Credentials checks the passwords of one area under its sign-in lockout.
type Credentials struct {
	// Hasher points at the owning service's hasher (tests make it cheap).
	Hasher  *secret.Hasher
	Lockout ratelimit.Lockout
}

// Check reports whether password is that of the account whose (normalised)
// email it is. find loads that account's password hash (sql.ErrNoRows when
// there is none, as a row's Scan says); it may keep what it read.
//
// Every wrong answer costs one argon2id verification, so a wrong email and
// a wrong password take the same time: an unknown email is verified
// against the dummy hash, and so is malformed input (empty, too long),
// which is refused without touching the lockout. A well-formed attempt
// runs under the lockout (a TooMany error while the account is locked).
func (c Credentials) Check(ctx context.Context, email, password string, find func() (hash string, err error)) (bool, error) {
	if email == "" || password == "" || len(email) > MaxEmailLen || len(password) > 4*secret.MaxPasswordLen {
		if _, err := c.Hasher.Verify(ctx, c.Hasher.Dummy(), password); err != nil {
			return false, err
		}
		return false, nil
	}
	return c.Lockout.Check(ctx, email, func() (bool, error) {
		hash, err := find()
		found := err == nil
		if errors.Is(err, sql.ErrNoRows) {
			hash = c.Hasher.Dummy()
		} else if err != nil {
			return false, fmt.Errorf("look up account: %w", err)
		}
		ok, err := c.Hasher.Verify(ctx, hash, password)
		return ok && found, err
	})
}

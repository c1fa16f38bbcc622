package identity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"locator/internal/db"
	"locator/internal/secret"
)

// WellFormedToken reports whether token, as read from a cookie or a link,
// may be one: not empty and not over 100 bytes (a real one is far
// shorter), so anything else is refused before it is hashed.
func WellFormedToken(token string) bool { return token != "" && len(token) <= 100 }

// Sessions are the database-backed sign-ins of one area. A session token is
// a random 256-bit value stored only as its SHA-256 hash, so a database
// leak gives no usable token. Each area keeps its own table (token_hash,
// the owner column, created_at, expires_at), cookie, lifetime and texts.
type Sessions struct {
	DB *db.DB
	// Table and Owner name the area's sessions table and the column naming
	// the account (Area.Sessions and Area.SessionOwner).
	Table, Owner string
	TTL          time.Duration
	// Now is the clock (nil: time.Now); times are stored in UTC to the
	// microsecond, which both engines keep.
	Now func() time.Time
}

func (s *Sessions) now() time.Time { return stamp(s.Now) }

// stamp is the time from clock (time.Now when nil) as the database keeps
// it: UTC, to the microsecond, which both engines keep.
func stamp(clock func() time.Time) time.Time {
	if clock == nil {
		clock = time.Now
	}
	return clock().UTC().Truncate(time.Microsecond)
}

// Start starts a session of the account and returns its token. It ends
// oldToken's session, if any, in the same transaction: the session id
// rotates at every sign-in, so a token planted before it is worthless.
func (s *Sessions) Start(ctx context.Context, owner int64, oldToken string) (string, error) {
	token, err := secret.NewToken()
	if err != nil {
		return "", err
	}
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		if oldToken != "" {
			if _, err := tx.Exec(ctx, "DELETE FROM "+s.Table+" WHERE token_hash = $1", secret.HashToken(oldToken)); err != nil {
				return fmt.Errorf("end old session: %w", err)
			}
		}
		t := s.now()
		_, err := tx.Exec(ctx, "INSERT INTO "+s.Table+" (token_hash, "+s.Owner+", created_at, expires_at) VALUES ($1, $2, $3, $4)",
			secret.HashToken(token), owner, t, t.Add(s.TTL))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("start session in %s: %w", s.Table, err)
	}
	return token, nil
}

// Lookup returns the account of token's live session; ok is false when
// there is none (no token, an unknown, ended or expired one).
func (s *Sessions) Lookup(ctx context.Context, token string) (id int64, ok bool, err error) {
	if !WellFormedToken(token) {
		return 0, false, nil
	}
	err = s.DB.QueryRow(ctx, "SELECT "+s.Owner+" FROM "+s.Table+" WHERE token_hash = $1 AND expires_at > $2",
		secret.HashToken(token), s.now()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("look up session in %s: %w", s.Table, err)
	}
	return id, true, nil
}

// Account runs load with the account of token's live session (load reads
// the area's account, sql.ErrNoRows when it is gone); ok is false when
// there is no such session or account.
func (s *Sessions) Account(ctx context.Context, token string, load func(id int64) error) (ok bool, err error) {
	id, ok, err := s.Lookup(ctx, token)
	if err != nil || !ok {
		return false, err
	}
	if err := load(id); errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("load account of session in %s: %w", s.Table, err)
	}
	return true, nil
}

// End ends token's session (signing out); no token is nothing to end.
func (s *Sessions) End(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	if _, err := s.DB.Exec(ctx, "DELETE FROM "+s.Table+" WHERE token_hash = $1", secret.HashToken(token)); err != nil {
		return fmt.Errorf("end session in %s: %w", s.Table, err)
	}
	return nil
}

// EndAll ends every session of the account but keep's (keep "" ends them
// all) through q, so it can join the transaction that changes a password.
// It returns how many ended.
func (s *Sessions) EndAll(ctx context.Context, q db.Querier, owner int64, keep string) (int64, error) {
	query, args := "DELETE FROM "+s.Table+" WHERE "+s.Owner+" = $1", []any{owner}
	if keep != "" {
		query, args = query+" AND token_hash <> $2", append(args, secret.HashToken(keep))
	}
	res, err := q.Exec(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("end sessions in %s: %w", s.Table, err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// Prune deletes expired sessions (run now and then).
func (s *Sessions) Prune(ctx context.Context) error {
	if _, err := s.DB.Exec(ctx, "DELETE FROM "+s.Table+" WHERE expires_at < $1", s.now()); err != nil {
		return fmt.Errorf("prune %s: %w", s.Table, err)
	}
	return nil
}

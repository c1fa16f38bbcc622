package claims

import (
	"context"
	"fmt"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/identity"
	"locator/internal/secret"
)

// Moderator is a person who approves claims. Moderators are not members:
// their accounts, passwords and sessions are separate.
type Moderator struct {
	ID    int64
	Email string
}

// Actor is how the audit log (and a decision's decided_by) names the
// moderator: id and address.
func (m *Moderator) Actor() string { return audit.ModeratorActor(m.ID, m.Email) }

// ModeratorSessionTTL is how long a moderator stays signed in.
const ModeratorSessionTTL = 12 * time.Hour

// ErrModeratorCredentials is the one answer to a wrong email or password.
var ErrModeratorCredentials = apperr.New(apperr.Unauthorized, "Invalid email or password")

// AddModerator creates a moderator, or sets the password of an existing one
// and ends every session they have (whoever knew the old password is out).
func (s *Service) AddModerator(ctx context.Context, email, password string) error {
	email, err := identity.ParseEmail(email)
	if err != nil {
		return err
	}
	if err := secret.CheckPassword(password); err != nil {
		return err
	}
	hash, err := s.Hasher.Hash(ctx, password)
	if err != nil {
		return err
	}
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO moderators (email, password_hash, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash RETURNING id`, email, hash, s.now()).Scan(&id)
		if err != nil {
			return fmt.Errorf("add moderator: %w", err)
		}
		ended, err := s.moderatorSessions().EndAll(ctx, tx, id, "")
		if err != nil {
			return fmt.Errorf("end moderator sessions: %w", err)
		}
		return s.audit(ctx, tx, "cli", "moderator.add", 0, map[string]any{"email": email, "sessions_ended": ended})
	})
}

// SignInModerator checks a moderator's credentials and starts a session,
// ending oldToken's (the session the browser signed in from, if any): the
// session id rotates at every sign-in, as a member's and an owner's do.
func (s *Service) SignInModerator(ctx context.Context, email, password, oldToken string) (*Moderator, string, error) {
	email = identity.NormalizeEmail(email)
	var m Moderator
	ok, err := identity.Credentials{Hasher: &s.Hasher, Lockout: s.moderatorLockout}.Check(ctx, email, password, func() (hash string, err error) {
		err = s.DB.QueryRow(ctx, "SELECT id, email, password_hash FROM moderators WHERE email = $1", email).Scan(&m.ID, &m.Email, &hash)
		return hash, err
	})
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", ErrModeratorCredentials
	}
	token, err := s.moderatorSessions().Start(ctx, m.ID, oldToken)
	if err != nil {
		return nil, "", fmt.Errorf("moderator session: %w", err)
	}
	return &m, token, nil
}

// errModeratorSession answers a moderator call without a live session.
var errModeratorSession = apperr.New(apperr.Unauthorized, "Moderators only: sign in")

// moderatorSessions are the moderators' sign-ins (internal/identity).
func (s *Service) moderatorSessions() *identity.Sessions {
	return &identity.Sessions{DB: s.DB, Table: "moderator_sessions", Owner: "moderator_id", TTL: ModeratorSessionTTL, Now: s.now}
}

// AuthenticateModerator returns the moderator of a live session.
func (s *Service) AuthenticateModerator(ctx context.Context, token string) (*Moderator, error) {
	var m Moderator
	ok, err := s.moderatorSessions().Account(ctx, token, func(id int64) error {
		return s.DB.QueryRow(ctx, "SELECT id, email FROM moderators WHERE id = $1", id).Scan(&m.ID, &m.Email)
	})
	if err != nil {
		return nil, fmt.Errorf("authenticate moderator: %w", err)
	}
	if !ok {
		return nil, errModeratorSession
	}
	return &m, nil
}

// SignOutModerator ends a moderator session.
func (s *Service) SignOutModerator(ctx context.Context, token string) error {
	if err := s.moderatorSessions().End(ctx, token); err != nil {
		return fmt.Errorf("moderator sign out: %w", err)
	}
	return nil
}

package claims

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
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
	email = strings.ToLower(strings.TrimSpace(email))
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return apperr.Invalidf("invalid email %q", email)
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
		res, err := tx.Exec(ctx, "DELETE FROM moderator_sessions WHERE moderator_id = $1", id)
		if err != nil {
			return fmt.Errorf("end moderator sessions: %w", err)
		}
		ended, _ := res.RowsAffected()
		return s.audit(ctx, tx, "cli", "moderator.add", 0, map[string]any{"email": email, "sessions_ended": ended})
	})
}

// SignInModerator checks a moderator's credentials and starts a session.
func (s *Service) SignInModerator(ctx context.Context, email, password string) (*Moderator, string, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if len(email) > 254 || len(password) > 4*secret.MaxPasswordLen {
		return nil, "", ErrModeratorCredentials
	}
	var m Moderator
	ok, err := s.moderatorLockout.Check(ctx, email, func() (bool, error) {
		hash := s.Hasher.Dummy() // an unknown email takes the time of a wrong password
		err := s.DB.QueryRow(ctx, "SELECT id, email, password_hash FROM moderators WHERE email = $1", email).Scan(&m.ID, &m.Email, &hash)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("moderator sign in: %w", err)
		}
		ok, err := s.Hasher.Verify(ctx, hash, password)
		return ok && m.ID != 0, err
	})
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", ErrModeratorCredentials
	}
	token, err := secret.NewToken()
	if err != nil {
		return nil, "", err
	}
	t := s.now()
	if _, err := s.DB.Exec(ctx, "INSERT INTO moderator_sessions (token_hash, moderator_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
		secret.HashToken(token), m.ID, t, t.Add(ModeratorSessionTTL)); err != nil {
		return nil, "", fmt.Errorf("moderator session: %w", err)
	}
	return &m, token, nil
}

// AuthenticateModerator returns the moderator of a live session.
func (s *Service) AuthenticateModerator(ctx context.Context, token string) (*Moderator, error) {
	if token == "" || len(token) > 100 {
		return nil, apperr.New(apperr.Unauthorized, "Moderators only: sign in")
	}
	var m Moderator
	err := s.DB.QueryRow(ctx, `SELECT m.id, m.email FROM moderator_sessions ms JOIN moderators m ON m.id = ms.moderator_id
		WHERE ms.token_hash = $1 AND ms.expires_at > $2`, secret.HashToken(token), s.now()).Scan(&m.ID, &m.Email)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Unauthorized, "Moderators only: sign in")
	}
	if err != nil {
		return nil, fmt.Errorf("authenticate moderator: %w", err)
	}
	return &m, nil
}

// SignOutModerator ends a moderator session.
func (s *Service) SignOutModerator(ctx context.Context, token string) error {
	_, err := s.DB.Exec(ctx, "DELETE FROM moderator_sessions WHERE token_hash = $1", secret.HashToken(token))
	if err != nil {
		return fmt.Errorf("moderator sign out: %w", err)
	}
	return nil
}

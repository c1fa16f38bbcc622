package identity

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/secret"
)

// Moderator is a person who approves claims (internal/claims). Moderators
// are not members: their accounts, passwords and sessions are separate,
// and an operator sets their passwords (no reset by mail).
type Moderator struct {
	ID    int64
	Email string
}

// Actor is how the audit log (and a decision's decided_by) names the
// moderator: id and address.
func (m *Moderator) Actor() string { return audit.ModeratorActor(m.ID, m.Email) }

// ModeratorSessionTTL is how long a moderator stays signed in.
const ModeratorSessionTTL = 12 * time.Hour

// ErrNoModeratorSession answers a moderator call without a live session.
var ErrNoModeratorSession = apperr.New(apperr.Unauthorized, "Moderators only: sign in")

// ModeratorArea is the moderators' area.
var ModeratorArea = Area{
	Name: "moderator", Accounts: "moderators", Sessions: "moderator_sessions", SessionOwner: "moderator_id",
	SessionTTL: ModeratorSessionTTL, Cookie: "locator_admin", StrictCookie: true, ErrNoSession: ErrNoModeratorSession,
}

// Moderators is the moderators' identity.
type Moderators struct{ *Service[*Moderator] }

// NewModerators returns the moderators' identity service.
func NewModerators(d *db.DB, log *slog.Logger, opt Options) *Moderators {
	return &Moderators{NewService(ModeratorArea, d, "", log, opt, func(ctx context.Context, id int64) (*Moderator, error) {
		var m Moderator
		err := d.QueryRow(ctx, "SELECT id, email FROM moderators WHERE id = $1", id).Scan(&m.ID, &m.Email)
		return &m, err
	})}
}

// Add creates a moderator, or sets the password of an existing one and
// ends every session they have (whoever knew the old password is out).
func (m *Moderators) Add(ctx context.Context, email, password string) error {
	email, err := ParseEmail(email)
	if err != nil {
		return err
	}
	if err := secret.CheckPassword(password); err != nil {
		return err
	}
	hash, err := m.Hasher.Hash(ctx, password)
	if err != nil {
		return err
	}
	at := stamp(m.Now)
	return m.DB.InTx(ctx, func(tx *db.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO moderators (email, password_hash, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash RETURNING id`, email, hash, at).Scan(&id)
		if err != nil {
			return fmt.Errorf("add moderator: %w", err)
		}
		ended, err := m.Sessions().EndAll(ctx, tx, id, "")
		if err != nil {
			return fmt.Errorf("end moderator sessions: %w", err)
		}
		return audit.Write(ctx, tx, at, "cli", "moderator.add", 0, 0, map[string]any{"email": email, "sessions_ended": ended})
	})
}

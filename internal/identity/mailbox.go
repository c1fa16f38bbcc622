package identity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ratelimit"
	"locator/internal/secret"
)

// Lifetimes and limits of the proof of mailbox.
const (
	// ProofTTL is how long a mailed confirmation link works.
	ProofTTL = 48 * time.Hour
	// UnprovenTTL is how long an account whose mailbox was never proven
	// is kept (the areas that delete such accounts use it in Prune).
	UnprovenTTL = 7 * 24 * time.Hour
	// MaxProofMailsPerAccount bounds the links an account may ask for
	// per ProofMailWindow (counted in the database, so replicas agree).
	MaxProofMailsPerAccount = 3
	ProofMailWindow         = time.Hour
)

// Answers of the proof of mailbox.
var (
	ErrBadProof      = apperr.Invalidf("This confirmation link is invalid or has expired. Please request a new one.")
	ErrProofPassword = apperr.Invalidf("This is not the password chosen for this account. Enter the password you chose when you signed up.")
	ErrProven        = apperr.New(apperr.Conflict, "Your email is already confirmed.")
)

// Mailbox proves that an account's owner reads its address.
//
// A link is a random 256-bit token stored only as its SHA-256 hash. A link
// may carry a password hash (a business sign-up's): following it then needs
// that password and makes it the account's, so whoever proves the mailbox
// sets the password. A link without one needs the account's current
// password. Either way a mailbox owner who follows a link someone else
// asked for cannot complete it, and the one who asked cannot without the
// mailbox.
type Mailbox struct {
	DB        *db.DB
	Limits    *ratelimit.DB
	Area      Area
	PublicURL string
	// Hasher points at the owning service's hasher (tests make it cheap).
	Hasher *secret.Hasher
	Now    func() time.Time
}

func (m *Mailbox) now() time.Time { return stamp(m.Now) }

// Issue stores a new link for the account and enqueues its mail, in tx.
// passwordHash is the password the link sets ("" for none).
func (m *Mailbox) Issue(ctx context.Context, tx *db.Tx, accountID int64, email, passwordHash string) error {
	token, err := secret.NewToken()
	if err != nil {
		return err
	}
	t := m.now()
	if _, err := tx.Exec(ctx, `INSERT INTO email_proofs (token_hash, area, account_id, password_hash, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, secret.HashToken(token), m.Area.Name, accountID, passwordHash, t, t.Add(ProofTTL)); err != nil {
		return fmt.Errorf("store %s email proof: %w", m.Area.Name, err)
	}
	return mail.Enqueue(ctx, tx, m.Area.Mail(email, m.PublicURL+m.Area.LinkPath+"?token="+token))
}

// Resend mails a new link to an account not yet proven, at most
// MaxProofMailsPerAccount times per ProofMailWindow (429 with Retry-After).
func (m *Mailbox) Resend(ctx context.Context, accountID int64) error {
	var email string
	var proven *time.Time
	err := m.DB.QueryRow(ctx, "SELECT email, email_verified_at FROM "+m.Area.Accounts+" WHERE id = $1", accountID).Scan(&email, &proven)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "account not found")
	}
	if err != nil {
		return fmt.Errorf("%s email proof: %w", m.Area.Name, err)
	}
	if proven != nil {
		return ErrProven
	}
	if err := m.Limits.Take(ctx, m.Area.Name+"-proof:"+strconv.FormatInt(accountID, 10), MaxProofMailsPerAccount, ProofMailWindow); err != nil {
		return err
	}
	return m.DB.InTx(ctx, func(tx *db.Tx) error { return m.Issue(ctx, tx, accountID, email, "") })
}

// Proven returns whether the account's mailbox is proven.
func (m *Mailbox) Proven(ctx context.Context, q db.Querier, accountID int64) (bool, error) {
	var at *time.Time
	if err := q.QueryRow(ctx, "SELECT email_verified_at FROM "+m.Area.Accounts+" WHERE id = $1", accountID).Scan(&at); err != nil {
		return false, fmt.Errorf("%s email proof: %w", m.Area.Name, err)
	}
	return at != nil, nil
}

// Confirm follows a link: with the right password it proves the mailbox,
// spends every link of the account and, when the link carries a password,
// makes it the account's and ends the account's sessions. It returns the
// account's id.
func (m *Mailbox) Confirm(ctx context.Context, token, password string) (int64, error) {
	if token == "" || len(token) > 100 {
		return 0, ErrBadProof
	}
	if password == "" || len(password) > 4*secret.MaxPasswordLen {
		return 0, ErrProofPassword
	}
	var id int64
	var email, pending, current string
	err := m.DB.QueryRow(ctx, `SELECT p.account_id, a.email, p.password_hash, a.password_hash FROM email_proofs p
		JOIN `+m.Area.Accounts+` a ON a.id = p.account_id
		WHERE p.token_hash = $1 AND p.area = $2 AND p.expires_at > $3`, secret.HashToken(token), m.Area.Name, m.now()).
		Scan(&id, &email, &pending, &current)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrBadProof
	}
	if err != nil {
		return 0, fmt.Errorf("%s email proof: %w", m.Area.Name, err)
	}
	want := current
	if pending != "" {
		want = pending
	}
	// A link is one more place to try the account's password, so its
	// guesses count against the same lockout as the area's sign-in (the
	// area's name is its lockout's scope): a link alone gives no more
	// guesses than the sign-in form, and a locked account is locked here
	// too.
	ok, err := ratelimit.NewLockout(m.Limits, m.Area.Name).Check(ctx, email, func() (bool, error) {
		return m.Hasher.Verify(ctx, want, password)
	})
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, ErrProofPassword
	}
	err = m.DB.InTx(ctx, func(tx *db.Tx) error {
		// Spend the link only if nobody spent it meanwhile (two clicks at once).
		res, err := tx.Exec(ctx, "DELETE FROM email_proofs WHERE token_hash = $1 AND area = $2", secret.HashToken(token), m.Area.Name)
		if err != nil {
			return fmt.Errorf("%s email proof: %w", m.Area.Name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrBadProof
		}
		if pending != "" && pending != current {
			if _, err := tx.Exec(ctx, "UPDATE "+m.Area.Accounts+" SET password_hash = $1 WHERE id = $2", pending, id); err != nil {
				return fmt.Errorf("%s email proof: %w", m.Area.Name, err)
			}
			if _, err := tx.Exec(ctx, "DELETE FROM "+m.Area.Sessions+" WHERE "+m.Area.SessionOwner+" = $1", id); err != nil {
				return fmt.Errorf("%s email proof: %w", m.Area.Name, err)
			}
		}
		return m.Prove(ctx, tx, id)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// Prove records, in tx, that the account's mailbox is proven (a followed
// link, or a completed password reset, which also came by mail): its
// pending links end and the area's Proven runs.
func (m *Mailbox) Prove(ctx context.Context, tx *db.Tx, accountID int64) error {
	t := m.now()
	if _, err := tx.Exec(ctx, "UPDATE "+m.Area.Accounts+" SET email_verified_at = COALESCE(email_verified_at, $1) WHERE id = $2", t, accountID); err != nil {
		return fmt.Errorf("%s email proven: %w", m.Area.Name, err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM email_proofs WHERE area = $1 AND account_id = $2", m.Area.Name, accountID); err != nil {
		return fmt.Errorf("%s email proven: %w", m.Area.Name, err)
	}
	if m.Area.Proven != nil {
		return m.Area.Proven(ctx, tx, accountID, t)
	}
	return nil
}

// Prune deletes expired links, and links whose account is gone.
func (m *Mailbox) Prune(ctx context.Context) error {
	if _, err := m.DB.Exec(ctx, `DELETE FROM email_proofs WHERE area = $1 AND (expires_at < $2
		OR NOT EXISTS (SELECT 1 FROM `+m.Area.Accounts+` a WHERE a.id = email_proofs.account_id))`, m.Area.Name, m.now()); err != nil {
		return fmt.Errorf("prune %s email proofs: %w", m.Area.Name, err)
	}
	return nil
}

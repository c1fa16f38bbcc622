// Package business is the store dashboard of business accounts (the
// accounts the claim wizard creates, see internal/claims): sign-in with
// database sessions of their own, password reset through the outbox, the
// stores linked to the account, the changes an owner publishes at once,
// the changes of name, address or position that wait for a moderator
// (change requests), and "confirm these details are correct". Every change
// is written through stores.Repo.Write and to the audit log.
package business

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/identity"
	mailbox "locator/internal/mail"
	"locator/internal/ratelimit"
	"locator/internal/secret"
	"locator/internal/stores"
)

// Lifetimes and limits.
const (
	SessionTTL        = 7 * 24 * time.Hour
	ResetTTL          = 30 * time.Minute
	MaxResetsPerEmail = 3
	PerEmailWindow    = time.Hour
	maxEmailLen       = 254
)

// Account is a business account. Until Verified (its owner followed the
// link mailed to its address, or reset its password) it has no power over
// any store: see internal/identity and SignUp.
type Account struct {
	ID        int64
	Email     string
	StoreName string
	Verified  bool
}

// Answers shared by several calls.
var (
	ErrBadCredentials = apperr.New(apperr.Unauthorized, "Invalid email or password")
	ErrNoSession      = apperr.New(apperr.Unauthorized, "Business accounts only: sign in")
	ErrBadResetToken  = apperr.Invalidf("This password reset link has already been used or has expired. Please request a new one.")
	// ErrUnverified answers every dashboard call of an account whose
	// mailbox is not proven yet.
	ErrUnverified = apperr.New(apperr.Forbidden, "Confirm your email first: open the link we sent to your mailbox.")
)

// Service implements the dashboard.
type Service struct {
	DB        *db.DB
	Stores    *stores.Repo
	Limits    *ratelimit.DB
	Hasher    secret.Hasher
	PublicURL string                        // base of the reset link
	ZoneAt    func(lat, lon float64) string // time zone of a moved store; nil: unchanged
	Log       *slog.Logger
	Now       clock.Clock
	// PhotoUploadsPerHour bounds one account's photo uploads (0:
	// DefaultPhotoUploadsPerHour).
	PhotoUploadsPerHour int
	// Mailbox proves the accounts' addresses (internal/identity).
	Mailbox *identity.Mailbox

	lockout    ratelimit.Lockout
	background chan struct{}
	jobs       sync.WaitGroup
}

// maxBackground bounds the reset requests worked on after their answer.
const maxBackground = 64

// New returns a service with production defaults.
func New(d *db.DB, sr *stores.Repo, publicURL string, zoneAt func(lat, lon float64) string, clk clock.Clock, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	if clk == nil {
		clk = clock.System()
	}
	limits := ratelimit.NewDB(d)
	s := &Service{DB: d, Stores: sr, Limits: limits, Hasher: secret.DefaultHasher, PublicURL: strings.TrimRight(publicURL, "/"),
		ZoneAt: zoneAt, Log: log, Now: clk, lockout: ratelimit.NewLockout(limits, "business"),
		background: make(chan struct{}, maxBackground)}
	s.Mailbox = &identity.Mailbox{DB: d, Limits: limits, Area: mailboxArea, PublicURL: s.PublicURL, Hasher: &s.Hasher,
		Now: func() time.Time { return s.Now() }}
	return s
}

func (s *Service) now() time.Time { return s.Now.Stamp() }

func normalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }

// SignIn checks the credentials under the sign-in lockout shared by every
// kind of account and starts a session, ending oldToken's (the session id
// rotates at every sign-in). A wrong email and a wrong password take the
// same time and give the same answer.
func (s *Service) SignIn(ctx context.Context, email, password, oldToken string) (*Account, string, error) {
	var a Account
	email = normalizeEmail(email)
	ok, err := identity.Credentials{Hasher: &s.Hasher, Lockout: s.lockout}.Check(ctx, email, password, func() (hash string, err error) {
		var proven *time.Time
		err = s.DB.QueryRow(ctx, "SELECT id, email, store_name, email_verified_at, password_hash FROM business_accounts WHERE email = $1", email).
			Scan(&a.ID, &a.Email, &a.StoreName, &proven, &hash)
		a.Verified = proven != nil
		return hash, err
	})
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", ErrBadCredentials
	}
	token, err := s.startSession(ctx, a.ID, oldToken)
	if err != nil {
		return nil, "", err
	}
	return &a, token, nil
}

// sessions are the dashboard's sign-ins (internal/identity).
func (s *Service) sessions() *identity.Sessions {
	return &identity.Sessions{DB: s.DB, Table: mailboxArea.Sessions, Owner: mailboxArea.SessionOwner, TTL: SessionTTL, Now: s.now}
}

// startSession starts a session of the account, ending oldToken's.
func (s *Service) startSession(ctx context.Context, id int64, oldToken string) (string, error) {
	token, err := s.sessions().Start(ctx, id, oldToken)
	if err != nil {
		return "", fmt.Errorf("business session: %w", err)
	}
	return token, nil
}

// Authenticate returns the account of a live session.
func (s *Service) Authenticate(ctx context.Context, token string) (*Account, error) {
	var a Account
	ok, err := s.sessions().Account(ctx, token, func(id int64) error {
		var proven *time.Time
		err := s.DB.QueryRow(ctx, "SELECT id, email, store_name, email_verified_at FROM business_accounts WHERE id = $1", id).
			Scan(&a.ID, &a.Email, &a.StoreName, &proven)
		a.Verified = proven != nil
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("business session: %w", err)
	}
	if !ok {
		return nil, ErrNoSession
	}
	return &a, nil
}

// SignOut ends the session of token.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if err := s.sessions().End(ctx, token); err != nil {
		return fmt.Errorf("business sign out: %w", err)
	}
	return nil
}

// RequestReset mails a single-use reset link when email has a business
// account, and answers the same either way: the lookup and the mail happen
// after the answer, so a known email answers no slower than an unknown one.
func (s *Service) RequestReset(ctx context.Context, email string) error {
	email = normalizeEmail(email)
	if email == "" {
		return apperr.Invalidf("Email is required")
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > maxEmailLen {
		return apperr.Invalidf("Email is invalid")
	}
	if err := s.Limits.Take(ctx, "business-reset:"+email, MaxResetsPerEmail, PerEmailWindow); err != nil {
		return err
	}
	select {
	case s.background <- struct{}{}:
	default:
		return secret.ErrBusy
	}
	s.jobs.Go(func() {
		defer func() { <-s.background }()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.sendReset(ctx, email); err != nil {
			s.Log.ErrorContext(ctx, "business password reset request failed", "err", err)
		}
	})
	return nil
}

// Wait returns when the work started after answers is done.
func (s *Service) Wait() { s.jobs.Wait() }

func (s *Service) sendReset(ctx context.Context, email string) error {
	var id int64
	err := s.DB.QueryRow(ctx, "SELECT id FROM business_accounts WHERE email = $1", email).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("business reset: %w", err)
	}
	_, err = s.resets().Issue(ctx, id, func(link string) mailbox.Message { return resetMail(email, link) })
	return err
}

func resetMail(to, link string) mailbox.Message {
	text := fmt.Sprintf("Hello,\n\nSomeone asked to reset the password of your Locator store dashboard.\n"+
		"Open this link within 30 minutes to choose a new password:\n\n%s\n\n"+
		"If it was not you, ignore this email: your password stays as it is.\n", link)
	h := html.EscapeString
	body := fmt.Sprintf(`<p>Hello,</p><p>Someone asked to reset the password of your Locator store dashboard.
Open this link within 30 minutes to choose a new password:</p><p><a href="%s">Reset your password</a></p>
<p>If it was not you, ignore this email: your password stays as it is.</p>`, h(link))
	return mailbox.Message{To: to, Subject: "Reset your Locator store dashboard password", Text: text, HTML: body}
}

// ResetPassword sets a new password with a reset token for email: the token
// is spent and every session of the account ends.
func (s *Service) ResetPassword(ctx context.Context, email, password, token string) error {
	ok, err := s.resets().Complete(ctx, normalizeEmail(email), password, token, func(tx *db.Tx, id int64, hash string, _ time.Time) error {
		_, err := tx.Exec(ctx, "UPDATE business_accounts SET password_hash = $1 WHERE id = $2", hash, id)
		return err
	})
	if err != nil {
		return err
	}
	if !ok {
		return ErrBadResetToken // unknown, spent, expired, or spent meanwhile by a second click
	}
	return nil
}

// resets are the dashboard's password reset links (internal/identity).
func (s *Service) resets() *identity.Resets {
	return &identity.Resets{DB: s.DB, Table: "business_password_resets", Owner: "business_id", Accounts: "business_accounts", TTL: ResetTTL,
		Link:     func(token string) string { return s.PublicURL + "/business/reset-password?token=" + token },
		Sessions: s.sessions(), Mailbox: s.Mailbox, Hasher: &s.Hasher, Now: s.now}
}

// Prune deletes ended dashboard sessions and old reset tokens (run now and then).
func (s *Service) Prune(ctx context.Context) error {
	if err := s.sessions().Prune(ctx); err != nil {
		return err
	}
	if err := s.resets().Prune(ctx); err != nil {
		return err
	}
	return s.pruneUnproven(ctx)
}

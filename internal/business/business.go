// Package business is the store dashboard of business accounts (the
// accounts the claim wizard creates, see internal/claims): the business
// accounts' Area of internal/identity (sign-in, sessions, password reset,
// proof of mailbox), the stores linked to the account, the changes an owner publishes at once,
// the changes of name, address or position that wait for a moderator
// (change requests), and "confirm these details are correct". Every change
// is written through stores.Repo.Write and to the audit log.
package business

import (
	"context"
	"fmt"
	"html"
	"log/slog"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/identity"
	mailbox "locator/internal/mail"
	"locator/internal/stores"
)

// Lifetimes and limits.
const (
	SessionTTL        = 7 * 24 * time.Hour
	ResetTTL          = 30 * time.Minute
	MaxResetsPerEmail = 3
	PerEmailWindow    = time.Hour
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
	ErrBadCredentials = identity.ErrBadCredentials
	ErrNoSession      = apperr.New(apperr.Unauthorized, "Business accounts only: sign in")
	ErrBadResetToken  = identity.ErrBadResetToken
	// ErrUnverified answers every dashboard call of an account whose
	// mailbox is not proven yet.
	ErrUnverified = apperr.New(apperr.Forbidden, "Confirm your email first: open the link we sent to your mailbox.")
)

// Area is the business accounts' area of internal/identity. An account
// has no power until its mailbox is proven (signup.go).
var Area = identity.Area{
	Name: "business", Accounts: "business_accounts",
	Sessions: "business_sessions", SessionOwner: "business_id", SessionTTL: SessionTTL,
	Cookie: "locator_business", StrictCookie: true, ErrNoSession: ErrNoSession,
	Resets: "business_password_resets", ResetPath: "/business/reset-password", ResetLimit: "business-reset", ResetTTL: ResetTTL,
	ResetWindow: PerEmailWindow, MaxResets: MaxResetsPerEmail, ResetMail: resetMail,
	LinkPath: "/business/verify", Mail: proofMail, Proven: linkApprovedClaims,
}

// Service implements the dashboard on the business accounts' identity
// (identity.Service: its DB, clock, hasher, limits and log).
type Service struct {
	*identity.Service[*Account]
	Stores *stores.Repo
	ZoneAt func(lat, lon float64) string // time zone of a moved store; nil: unchanged
	// PhotoUploadsPerHour bounds one account's photo uploads (0:
	// DefaultPhotoUploadsPerHour).
	PhotoUploadsPerHour int
}

// New returns a service with production defaults.
func New(d *db.DB, sr *stores.Repo, publicURL string, zoneAt func(lat, lon float64) string, log *slog.Logger, opt identity.Options) *Service {
	return &Service{Service: identity.NewService(Area, d, publicURL, log, opt, loadAccount(d)), Stores: sr, ZoneAt: zoneAt}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// loadAccount reads a business account (sql.ErrNoRows when there is none).
func loadAccount(d *db.DB) func(ctx context.Context, id int64) (*Account, error) {
	return func(ctx context.Context, id int64) (*Account, error) {
		var a Account
		var proven *time.Time
		err := d.QueryRow(ctx, "SELECT id, email, store_name, email_verified_at FROM business_accounts WHERE id = $1", id).
			Scan(&a.ID, &a.Email, &a.StoreName, &proven)
		a.Verified = proven != nil
		return &a, err
	}
}

func resetMail(to, _, link string) mailbox.Message {
	text := fmt.Sprintf("Hello,\n\nSomeone asked to reset the password of your Locator store dashboard.\n"+
		"Open this link within 30 minutes to choose a new password:\n\n%s\n\n"+
		"If it was not you, ignore this email: your password stays as it is.\n", link)
	h := html.EscapeString
	body := fmt.Sprintf(`<p>Hello,</p><p>Someone asked to reset the password of your Locator store dashboard.
Open this link within 30 minutes to choose a new password:</p><p><a href="%s">Reset your password</a></p>
<p>If it was not you, ignore this email: your password stays as it is.</p>`, h(link))
	return mailbox.Message{To: to, Subject: "Reset your Locator store dashboard password", Text: text, HTML: body}
}

// Prune deletes ended dashboard sessions and old reset tokens (run now and then).
func (s *Service) Prune(ctx context.Context) error {
	if err := s.pruneUnproven(ctx); err != nil {
		return err
	}
	return s.Service.Prune(ctx)
}

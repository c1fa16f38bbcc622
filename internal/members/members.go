// Package members holds the members (customers: the shoppers who sign
// up): sign-up, the profile and its changes. Who a member is (sign-in,
// sessions, password reset, proof of mailbox) is the members' Area of
// internal/identity; their favourites are internal/favorites.
package members

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/identity"
	"locator/internal/mail"
	"locator/internal/secret"
)

// Customer is a member.
type Customer struct {
	ID        int64
	Email     string
	FirstName string
	LastName  string
	Phone     string
	CreatedAt time.Time
	UpdatedAt time.Time
	// EmailVerified: the member followed a link mailed to the address (or
	// reset the password); see internal/identity.
	EmailVerified bool
}

// Lifetimes and limits.
const (
	SessionTTL = 30 * 24 * time.Hour
	ResetTTL   = 30 * time.Minute

	// Sign-ups and reset requests per email address.
	MaxSignUpsPerEmail = 5
	MaxResetsPerEmail  = 3
	PerEmailWindow     = time.Hour
)

// Answers of the members' area.
var (
	ErrBadCredentials = identity.ErrBadCredentials
	// ErrNoSession means the caller is not signed in.
	ErrNoSession     = apperr.New(apperr.Unauthorized, "Not signed in")
	ErrBadResetToken = identity.ErrBadResetToken
)

// Area is the members' area of internal/identity. A member signs in
// without a proven mailbox; the profile shows whether it is proven.
var Area = identity.Area{
	Name: "member", Accounts: "customers", Stamp: "updated_at",
	Sessions: "sessions", SessionOwner: "customer_id", SessionTTL: SessionTTL,
	Cookie: "locator_session", ErrNoSession: ErrNoSession,
	Resets: "password_resets", ResetPath: "/reset-password", ResetLimit: "reset", ResetTTL: ResetTTL,
	ResetWindow: PerEmailWindow, MaxResets: MaxResetsPerEmail, ResetMail: resetMail, ResetName: "first_name",
	LinkPath: "/verify-email", Mail: proofMail,
}

// Service implements the member features on the members' identity
// (sign-in, sessions, resets, proof of mailbox: identity.Service).
type Service struct {
	*identity.Service[*Customer]
}

// New returns a service with production defaults.
func New(d *db.DB, publicURL string, log *slog.Logger, opt identity.Options) *Service {
	return &Service{identity.NewService(Area, d, publicURL, log, opt, func(ctx context.Context, id int64) (*Customer, error) {
		return scanCustomer(d.QueryRow(ctx, "SELECT "+customerColumns+" FROM customers WHERE id = $1", id))
	})}
}

// RequestEmailProof mails the member a link that proves the address
// (identity.MaxProofMailsPerAccount an hour; 409 once proven).
func (s *Service) RequestEmailProof(ctx context.Context, c *Customer) error {
	if c.EmailVerified {
		return identity.ErrProven
	}
	return s.Mailbox.Resend(ctx, c.ID)
}

// ConfirmEmail follows a mailed link with the member's password.
func (s *Service) ConfirmEmail(ctx context.Context, token, password string) error {
	_, err := s.Mailbox.Confirm(ctx, token, password)
	return err
}

func proofMail(to, link string) mail.Message {
	text := fmt.Sprintf("Hello,\n\nSomeone asked to confirm that this email address belongs to a Locator account.\n"+
		"Open this link within 48 hours and enter your password to confirm it:\n\n%s\n\n"+
		"If it was not you, ignore this email: nothing changes.\n", link)
	body := fmt.Sprintf(`<p>Hello,</p><p>Someone asked to confirm that this email address belongs to a Locator account.
Open this link within 48 hours and enter your password to confirm it:</p><p><a href="%s">Confirm your email</a></p>
<p>If it was not you, ignore this email: nothing changes.</p>`, html.EscapeString(link))
	return mail.Message{To: to, Subject: "Confirm your email for Locator", Text: text, HTML: body}
}

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// SignUpInput is the sign-up form.
type SignUpInput struct {
	FirstName, LastName, Phone, Email, Password string
}

// SignUp creates a member. It does not sign in (the web app goes to the
// sign-in view after registration).
func (s *Service) SignUp(ctx context.Context, in SignUpInput) (*Customer, error) {
	c := &Customer{}
	var err error
	if c.FirstName, err = validName(in.FirstName, "First name is required", "Name must be less than 255 symbols"); err != nil {
		return nil, err
	}
	if c.LastName, err = validName(in.LastName, "Last name is required", "Last name must be less than 255 symbols"); err != nil {
		return nil, err
	}
	if c.Phone, err = validPhone(in.Phone); err != nil {
		return nil, err
	}
	if c.Email, err = identity.ParseEmail(in.Email); err != nil {
		return nil, err
	}
	if err := secret.CheckPassword(in.Password); err != nil {
		return nil, err
	}
	if err := s.Limits.Take(ctx, "signup:"+c.Email, MaxSignUpsPerEmail, PerEmailWindow); err != nil {
		return nil, err
	}
	hash, err := s.Hasher.Hash(ctx, in.Password)
	if err != nil {
		return nil, err
	}
	c.CreatedAt, c.UpdatedAt = now(), now()
	err = s.DB.QueryRow(ctx, `INSERT INTO customers (email, first_name, last_name, phone, password_hash, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (email) DO NOTHING RETURNING id`,
		c.Email, c.FirstName, c.LastName, c.Phone, hash, c.CreatedAt).Scan(&c.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Conflict, "A member with this email already exists. Sign in or reset your password.")
	}
	if err != nil {
		return nil, fmt.Errorf("create customer: %w", err)
	}
	return c, nil
}

const customerColumns = "id, email, first_name, last_name, phone, created_at, updated_at, email_verified_at"

func scanCustomer(row interface{ Scan(...any) error }, extra ...any) (*Customer, error) {
	var c Customer
	var proven *time.Time
	dst := append([]any{&c.ID, &c.Email, &c.FirstName, &c.LastName, &c.Phone, &c.CreatedAt, &c.UpdatedAt, &proven}, extra...)
	if err := row.Scan(dst...); err != nil {
		return nil, err
	}
	c.EmailVerified = proven != nil
	return &c, nil
}

// Update is a profile change: exactly one of the groups is set.
type Update struct {
	FirstName, LastName   *string
	Phone                 *string
	Password, OldPassword *string // a new password needs the current one
}

// Answers to a password change whose current password is missing or wrong.
var (
	ErrOldPasswordRequired = apperr.Invalidf("Enter your current password to choose a new one")
	ErrOldPasswordWrong    = apperr.Invalidf("Your current password is not correct")
)

// UpdateProfile applies u to c. A password change needs the current
// password (checked under the sign-in lockout, so a stolen session cannot
// guess it faster than a sign-in form), ends every other session of the
// customer (currentToken's survives) and mails the member.
func (s *Service) UpdateProfile(ctx context.Context, c *Customer, u Update, currentToken string) (*Customer, error) {
	groups := 0
	if u.FirstName != nil || u.LastName != nil {
		groups++
	}
	if u.Phone != nil {
		groups++
	}
	if u.Password != nil || u.OldPassword != nil {
		groups++
	}
	if groups != 1 {
		return nil, apperr.Invalidf("Send first_name and last_name, or phone, or password")
	}
	t := now()
	var err error
	switch {
	case u.Password != nil || u.OldPassword != nil:
		if u.Password == nil {
			return nil, apperr.Invalidf(secret.MsgPasswordRequired)
		}
		if err := secret.CheckPassword(*u.Password); err != nil {
			return nil, err
		}
		if u.OldPassword == nil || *u.OldPassword == "" {
			return nil, ErrOldPasswordRequired
		}
		if _, err := s.CheckPassword(ctx, c.Email, *u.OldPassword); errors.Is(err, ErrBadCredentials) {
			return nil, ErrOldPasswordWrong
		} else if err != nil {
			return nil, err
		}
		hash, err := s.Hasher.Hash(ctx, *u.Password)
		if err != nil {
			return nil, err
		}
		err = s.DB.InTx(ctx, func(tx *db.Tx) error {
			if err := s.SetPassword(ctx, tx, c.ID, hash, t); err != nil {
				return err
			}
			if _, err := s.Sessions().EndAll(ctx, tx, c.ID, currentToken); err != nil {
				return err
			}
			return mail.Enqueue(ctx, tx, s.passwordChangedMail(c, t))
		})
		if err != nil {
			return nil, fmt.Errorf("change password: %w", err)
		}
	case u.Phone != nil:
		phone, err := validPhone(*u.Phone)
		if err != nil {
			return nil, err
		}
		if _, err := s.DB.Exec(ctx, "UPDATE customers SET phone = $1, updated_at = $2 WHERE id = $3", phone, t, c.ID); err != nil {
			return nil, fmt.Errorf("change phone: %w", err)
		}
	default:
		first, last := "", ""
		if u.FirstName != nil {
			first = *u.FirstName
		}
		if u.LastName != nil {
			last = *u.LastName
		}
		if first, err = validName(first, "First name cant be empty", "Name must be less than 255 symbols"); err != nil {
			return nil, err
		}
		if last, err = validName(last, "First name cant be empty", "Last name must be less than 255 symbols"); err != nil {
			return nil, err
		}
		if _, err := s.DB.Exec(ctx, "UPDATE customers SET first_name = $1, last_name = $2, updated_at = $3 WHERE id = $4", first, last, t, c.ID); err != nil {
			return nil, fmt.Errorf("change name: %w", err)
		}
	}
	return s.Get(ctx, c.ID)
}

// Get returns a customer by id.
func (s *Service) Get(ctx context.Context, id int64) (*Customer, error) {
	c, err := scanCustomer(s.DB.QueryRow(ctx, "SELECT "+customerColumns+" FROM customers WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "customer not found")
	}
	if err != nil {
		return nil, fmt.Errorf("get customer %d: %w", id, err)
	}
	return c, nil
}

// RequestReset emails a single-use reset link when email belongs to a
// member, and answers the same whether or not it does
// (identity.Service.RequestReset). app, when sent, must be "locator".
func (s *Service) RequestReset(ctx context.Context, email, app string) error {
	if _, err := identity.ParseEmail(email); err != nil {
		return err
	}
	if app != "" && app != "locator" {
		return apperr.Invalidf("Unknown app")
	}
	return s.Service.RequestReset(ctx, email)
}

func resetMail(to, name, link string) mail.Message {
	text := fmt.Sprintf("Hello %s,\n\nSomeone asked to reset the password of your Locator account.\n"+
		"Open this link within 30 minutes to choose a new password:\n\n%s\n\n"+
		"If it was not you, ignore this email: your password stays as it is.\n", name, link)
	h := html.EscapeString
	htmlBody := fmt.Sprintf(`<p>Hello %s,</p><p>Someone asked to reset the password of your Locator account.
Open this link within 30 minutes to choose a new password:</p><p><a href="%s">Reset your password</a></p>
<p>If it was not you, ignore this email: your password stays as it is.</p>`, h(name), h(link))
	return mail.Message{To: to, Subject: "Reset your Locator password", Text: text, HTML: htmlBody}
}

// passwordChangedMail tells the member their password changed at t, so a
// change they did not make does not go unnoticed.
func (s *Service) passwordChangedMail(c *Customer, t time.Time) mail.Message {
	when := t.Format("2 January 2006 at 15:04 UTC")
	text := fmt.Sprintf("Hello %s,\n\nThe password of your Locator account was changed on %s.\n\n"+
		"If it was you, there is nothing to do. If it was not, reset your password at once at %s\n"+
		"(\"Forgot password?\" in the sign-in window): every other session has been signed out.\n", c.FirstName, when, s.PublicURL)
	h := html.EscapeString
	htmlBody := fmt.Sprintf(`<p>Hello %s,</p><p>The password of your Locator account was changed on %s.</p>
<p>If it was you, there is nothing to do. If it was not, reset your password at once at <a href="%s">%s</a>
(&ldquo;Forgot password?&rdquo; in the sign-in window): every other session has been signed out.</p>`, h(c.FirstName), h(when), h(s.PublicURL), h(s.PublicURL))
	return mail.Message{To: c.Email, Subject: "Your Locator password was changed", Text: text, HTML: htmlBody}
}

// Prune deletes expired sessions, reset tokens and mailbox links, and
// spent rate-limit counters (run now and then).
func (s *Service) Prune(ctx context.Context) error {
	if err := s.Service.Prune(ctx); err != nil {
		return err
	}
	return s.Limits.Prune(ctx, 24*time.Hour)
}

// Package accounts holds customers (members): sign-up, sign-in with
// database-backed sessions, profile changes and password reset by email.
// Session and reset tokens are random 256-bit values stored only as
// SHA-256 hashes, so a database leak gives no usable token.
package accounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"strings"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/identity"
	"locator/internal/mail"
	"locator/internal/ratelimit"
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

// ErrBadCredentials is the one answer to a wrong email or a wrong password.
var ErrBadCredentials = apperr.New(apperr.Unauthorized, "Invalid email or password")

// ErrNoSession means the caller is not signed in.
var ErrNoSession = apperr.New(apperr.Unauthorized, "Not signed in")

// ErrBadResetToken covers unknown, spent, expired and mismatched reset tokens;
// its text names the usual cause (a link used twice or too late) rather than
// blaming the email (issue 39, m23).
var ErrBadResetToken = apperr.Invalidf("This password reset link has already been used or has expired. Please request a new one.")

// Service implements the member features.
type Service struct {
	DB        *db.DB
	Limits    *ratelimit.DB
	Hasher    secret.Hasher
	PublicURL string // base of the reset link
	// LogResetLinks logs reset links at info level: a development setting
	// (the link is as good as the password for 30 minutes), off by default.
	LogResetLinks bool
	Log           *slog.Logger
	// Later runs work that must not delay an answer (see RequestReset);
	// nil: a goroutine each, at most maxBackground at once.
	Later func(job func(ctx context.Context)) error
	// Mailbox proves members' addresses (internal/identity).
	Mailbox *identity.Mailbox

	lockout    ratelimit.Lockout
	background chan struct{} // slots of the default Later
	jobs       sync.WaitGroup
}

// maxBackground bounds the reset requests being worked on after their
// answer; beyond it a request is refused (the same way for every email).
const maxBackground = 64

// backgroundTimeout bounds one job: it outlives its request, not the process.
const backgroundTimeout = 30 * time.Second

// New returns a service with production defaults.
func New(d *db.DB, publicURL string, log *slog.Logger) *Service {
	limits := ratelimit.NewDB(d)
	s := &Service{DB: d, Limits: limits, lockout: ratelimit.NewLockout(limits, "member"), Hasher: secret.DefaultHasher,
		PublicURL: strings.TrimRight(publicURL, "/"), Log: log, background: make(chan struct{}, maxBackground)}
	s.Mailbox = &identity.Mailbox{DB: d, Limits: limits, Area: mailboxArea, PublicURL: s.PublicURL, Hasher: &s.Hasher}
	return s
}

// mailboxArea describes members to the proof of mailbox. A member signs
// in without it; the profile shows whether the address is proven.
var mailboxArea = identity.Area{
	Name: "member", Accounts: "customers", Sessions: "sessions", SessionOwner: "customer_id",
	LinkPath: "/verify-email", Mail: proofMail,
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

// later runs job after the answer, in its own context.
func (s *Service) later(job func(ctx context.Context)) error {
	if s.Later != nil {
		return s.Later(job)
	}
	select {
	case s.background <- struct{}{}:
	default:
		return secret.ErrBusy
	}
	s.jobs.Go(func() {
		defer func() { <-s.background }()
		ctx, cancel := context.WithTimeout(context.Background(), backgroundTimeout)
		defer cancel()
		job(ctx)
	})
	return nil
}

// Wait returns when the work started after answers is done (at shutdown,
// and in tests).
func (s *Service) Wait() { s.jobs.Wait() }

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

// SignIn checks the credentials and starts a new session (ending oldToken's
// session, if any: the session id rotates at every sign-in). A wrong email
// and a wrong password take the same time and give the same error.
func (s *Service) SignIn(ctx context.Context, email, password, oldToken string) (*Customer, string, error) {
	c, err := s.checkPassword(ctx, email, password)
	if err != nil {
		return nil, "", err
	}
	token, err := s.sessions().Start(ctx, c.ID, oldToken)
	if err != nil {
		return nil, "", err
	}
	return c, token, nil
}

// checkPassword returns the member whose email and password these are,
// under the sign-in lockout. A wrong email and a wrong password take the
// same time (argon2id against a dummy hash) and give ErrBadCredentials.
func (s *Service) checkPassword(ctx context.Context, email, password string) (*Customer, error) {
	email = identity.NormalizeEmail(email)
	var c *Customer
	ok, err := identity.Credentials{Hasher: &s.Hasher, Lockout: s.lockout}.Check(ctx, email, password, func() (hash string, err error) {
		c, err = scanCustomer(s.DB.QueryRow(ctx, "SELECT "+customerColumns+", password_hash FROM customers WHERE email = $1", email), &hash)
		return hash, err
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBadCredentials
	}
	return c, nil
}

// sessions are the members' sign-ins (internal/identity).
func (s *Service) sessions() *identity.Sessions {
	return &identity.Sessions{DB: s.DB, Table: mailboxArea.Sessions, Owner: mailboxArea.SessionOwner, TTL: SessionTTL, Now: now}
}

// Authenticate returns the customer of a live session.
func (s *Service) Authenticate(ctx context.Context, token string) (*Customer, error) {
	var c *Customer
	ok, err := s.sessions().Account(ctx, token, func(id int64) (err error) {
		c, err = scanCustomer(s.DB.QueryRow(ctx, "SELECT "+customerColumns+" FROM customers WHERE id = $1", id))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("authenticate: %w", err)
	}
	if !ok {
		return nil, ErrNoSession
	}
	return c, nil
}

// SignOut ends the session of token.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if err := s.sessions().End(ctx, token); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
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
		if _, err := s.checkPassword(ctx, c.Email, *u.OldPassword); errors.Is(err, ErrBadCredentials) {
			return nil, ErrOldPasswordWrong
		} else if err != nil {
			return nil, err
		}
		hash, err := s.Hasher.Hash(ctx, *u.Password)
		if err != nil {
			return nil, err
		}
		err = s.DB.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.Exec(ctx, "UPDATE customers SET password_hash = $1, updated_at = $2 WHERE id = $3", hash, t, c.ID); err != nil {
				return err
			}
			if _, err := s.sessions().EndAll(ctx, tx, c.ID, currentToken); err != nil {
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
// member. It answers the same whether or not it does, so the form cannot be
// used to learn who has an account: the answer depends only on the input
// and the per-email limit, and the lookup, token and mail are done after it
// (later), so a known email answers no slower than an unknown one.
func (s *Service) RequestReset(ctx context.Context, email, app string) error {
	email, err := identity.ParseEmail(email)
	if err != nil {
		return err
	}
	if app != "" && app != "locator" {
		return apperr.Invalidf("Unknown app")
	}
	if err := s.Limits.Take(ctx, "reset:"+email, MaxResetsPerEmail, PerEmailWindow); err != nil {
		return err
	}
	return s.later(func(ctx context.Context) {
		if err := s.sendReset(ctx, email); err != nil {
			s.Log.ErrorContext(ctx, "password reset request failed", "err", err)
		}
	})
}

// sendReset issues a reset token for email's member, ending the older ones,
// and mails the link; an unknown email does nothing.
func (s *Service) sendReset(ctx context.Context, email string) error {
	c, err := scanCustomer(s.DB.QueryRow(ctx, "SELECT "+customerColumns+" FROM customers WHERE email = $1", email))
	if errors.Is(err, sql.ErrNoRows) {
		s.Log.InfoContext(ctx, "password reset requested for an unknown email")
		return nil
	}
	if err != nil {
		return fmt.Errorf("reset request: %w", err)
	}
	link, err := s.resets().Issue(ctx, c.ID, func(link string) mail.Message { return resetMail(c, link) })
	if err != nil {
		return fmt.Errorf("reset request: %w", err)
	}
	if s.LogResetLinks {
		s.Log.InfoContext(ctx, "password reset link (LOCATOR_LOG_RESET_LINKS is on)", "customer_id", c.ID, "link", link)
	} else {
		s.Log.InfoContext(ctx, "password reset link mailed", "customer_id", c.ID)
	}
	return nil
}

func resetMail(c *Customer, link string) mail.Message {
	name := c.FirstName
	text := fmt.Sprintf("Hello %s,\n\nSomeone asked to reset the password of your Locator account.\n"+
		"Open this link within 30 minutes to choose a new password:\n\n%s\n\n"+
		"If it was not you, ignore this email: your password stays as it is.\n", name, link)
	h := html.EscapeString
	htmlBody := fmt.Sprintf(`<p>Hello %s,</p><p>Someone asked to reset the password of your Locator account.
Open this link within 30 minutes to choose a new password:</p><p><a href="%s">Reset your password</a></p>
<p>If it was not you, ignore this email: your password stays as it is.</p>`, h(name), h(link))
	return mail.Message{To: c.Email, Subject: "Reset your Locator password", Text: text, HTML: htmlBody}
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

// ResetPassword sets a new password with a reset token for email: the token
// is spent, every other reset token of the member too, and every session ends.
func (s *Service) ResetPassword(ctx context.Context, email, password, token string) error {
	ok, err := s.resets().Complete(ctx, identity.NormalizeEmail(email), password, token, func(tx *db.Tx, id int64, hash string, t time.Time) error {
		_, err := tx.Exec(ctx, "UPDATE customers SET password_hash = $1, updated_at = $2 WHERE id = $3", hash, t, id)
		return err
	})
	if err != nil {
		return err
	}
	if !ok {
		return ErrBadResetToken
	}
	return nil
}

// resets are the members' password reset links (internal/identity).
func (s *Service) resets() *identity.Resets {
	return &identity.Resets{DB: s.DB, Table: "password_resets", Owner: "customer_id", Accounts: "customers", TTL: ResetTTL,
		Link:     func(token string) string { return s.PublicURL + "/reset-password?token=" + token },
		Sessions: s.sessions(), Mailbox: s.Mailbox, Hasher: &s.Hasher, Now: now}
}

// Prune deletes expired sessions and reset tokens (run now and then).
func (s *Service) Prune(ctx context.Context) error {
	if err := s.sessions().Prune(ctx); err != nil {
		return err
	}
	if err := s.resets().Prune(ctx); err != nil {
		return err
	}
	if err := s.Mailbox.Prune(ctx); err != nil {
		return err
	}
	return s.Limits.Prune(ctx, 24*time.Hour)
}

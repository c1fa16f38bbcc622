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
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
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

// ErrBadResetToken covers unknown, spent, expired and mismatched reset tokens.
var ErrBadResetToken = apperr.Invalidf("This password reset link is invalid or has expired. Please request a new one.")

// Service implements the member features.
type Service struct {
	DB        *db.DB
	Limits    *ratelimit.DB
	Hasher    secret.Hasher
	PublicURL string // base of the reset link
	// LogResetLinks logs the reset link at info level: for installations
	// without SMTP, where mail goes to .eml files.
	LogResetLinks bool
	Log           *slog.Logger
	dummyHash     string
	lockout       ratelimit.Lockout
}

// New returns a service with production defaults.
func New(d *db.DB, publicURL string, log *slog.Logger) *Service {
	limits := ratelimit.NewDB(d)
	return &Service{DB: d, Limits: limits, lockout: ratelimit.NewLockout(limits, "member"), Hasher: secret.DefaultHasher,
		PublicURL: strings.TrimRight(publicURL, "/"), Log: log}
}

func (s *Service) dummy() string {
	if s.dummyHash == "" {
		s.dummyHash, _ = s.Hasher.Hash("not-a-real-password")
	}
	return s.dummyHash
}

// Init prepares the constant-time dummy hash; call once at start.
func (s *Service) Init() { s.dummy() }

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// SignUpInput is the sign-up form.
type SignUpInput struct {
	FirstName, LastName, Phone, Email, Password string
}

// SignUp creates a member. It does not sign in (the web app goes to the
// sign-in view after registration).
func (s *Service) SignUp(ctx context.Context, in SignUpInput) (*Customer, error) {
	c := &Customer{Email: NormalizeEmail(in.Email)}
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
	if err := validEmail(c.Email); err != nil {
		return nil, err
	}
	if err := validPassword(in.Password); err != nil {
		return nil, err
	}
	if err := s.Limits.Take(ctx, "signup:"+c.Email, MaxSignUpsPerEmail, PerEmailWindow); err != nil {
		return nil, err
	}
	hash, err := s.Hasher.Hash(in.Password)
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

const customerColumns = "id, email, first_name, last_name, phone, created_at, updated_at"

func scanCustomer(row interface{ Scan(...any) error }, extra ...any) (*Customer, error) {
	var c Customer
	dst := append([]any{&c.ID, &c.Email, &c.FirstName, &c.LastName, &c.Phone, &c.CreatedAt, &c.UpdatedAt}, extra...)
	if err := row.Scan(dst...); err != nil {
		return nil, err
	}
	return &c, nil
}

// SignIn checks the credentials and starts a new session (ending oldToken's
// session, if any: the session id rotates at every sign-in). A wrong email
// and a wrong password take the same time and give the same error.
func (s *Service) SignIn(ctx context.Context, email, password, oldToken string) (*Customer, string, error) {
	email = NormalizeEmail(email)
	if email == "" || password == "" || len(password) > 4*MaxPasswordLen || len(email) > MaxEmailLen {
		s.dummyVerify(password)
		return nil, "", ErrBadCredentials
	}
	if err := s.lockout.Attempt(ctx, email); err != nil {
		return nil, "", err
	}
	var hash string
	c, err := scanCustomer(s.DB.QueryRow(ctx, "SELECT "+customerColumns+", password_hash FROM customers WHERE email = $1", email), &hash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		s.dummyVerify(password)
		c = nil
	case err != nil:
		return nil, "", fmt.Errorf("sign in: %w", err)
	}
	if c == nil || !secret.Verify(hash, password) {
		return nil, "", ErrBadCredentials
	}
	if err := s.lockout.Succeeded(ctx, email); err != nil {
		return nil, "", err
	}
	token, err := secret.NewToken()
	if err != nil {
		return nil, "", err
	}
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		if oldToken != "" {
			if _, err := tx.Exec(ctx, "DELETE FROM sessions WHERE token_hash = $1", secret.HashToken(oldToken)); err != nil {
				return fmt.Errorf("end old session: %w", err)
			}
		}
		t := now()
		_, err := tx.Exec(ctx, "INSERT INTO sessions (token_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
			secret.HashToken(token), c.ID, t, t.Add(SessionTTL))
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("start session: %w", err)
	}
	return c, token, nil
}

func (s *Service) dummyVerify(password string) { secret.Verify(s.dummy(), password) }

// Authenticate returns the customer of a live session.
func (s *Service) Authenticate(ctx context.Context, token string) (*Customer, error) {
	if token == "" || len(token) > 100 {
		return nil, ErrNoSession
	}
	c, err := scanCustomer(s.DB.QueryRow(ctx, `SELECT c.id, c.email, c.first_name, c.last_name, c.phone, c.created_at, c.updated_at
		FROM sessions s JOIN customers c ON c.id = s.customer_id WHERE s.token_hash = $1 AND s.expires_at > $2`,
		secret.HashToken(token), now()))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("authenticate: %w", err)
	}
	return c, nil
}

// SignOut ends the session of token.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	if _, err := s.DB.Exec(ctx, "DELETE FROM sessions WHERE token_hash = $1", secret.HashToken(token)); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}

// Update is a profile change: exactly one of the groups is set.
type Update struct {
	FirstName, LastName *string
	Phone               *string
	Password            *string
}

// UpdateProfile applies u to c. A password change ends every other session
// of the customer (currentToken's survives).
func (s *Service) UpdateProfile(ctx context.Context, c *Customer, u Update, currentToken string) (*Customer, error) {
	groups := 0
	if u.FirstName != nil || u.LastName != nil {
		groups++
	}
	if u.Phone != nil {
		groups++
	}
	if u.Password != nil {
		groups++
	}
	if groups != 1 {
		return nil, apperr.Invalidf("Send first_name and last_name, or phone, or password")
	}
	t := now()
	var err error
	switch {
	case u.Password != nil:
		if err := validPassword(*u.Password); err != nil {
			return nil, err
		}
		hash, err := s.Hasher.Hash(*u.Password)
		if err != nil {
			return nil, err
		}
		err = s.DB.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.Exec(ctx, "UPDATE customers SET password_hash = $1, updated_at = $2 WHERE id = $3", hash, t, c.ID); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "DELETE FROM sessions WHERE customer_id = $1 AND token_hash <> $2", c.ID, secret.HashToken(currentToken))
			return err
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
// used to learn who has an account.
func (s *Service) RequestReset(ctx context.Context, email, app string) error {
	email = NormalizeEmail(email)
	if err := validEmail(email); err != nil {
		return err
	}
	if app != "" && app != "locator" {
		return apperr.Invalidf("Unknown app")
	}
	if err := s.Limits.Take(ctx, "reset:"+email, MaxResetsPerEmail, PerEmailWindow); err != nil {
		return err
	}
	c, err := scanCustomer(s.DB.QueryRow(ctx, "SELECT "+customerColumns+" FROM customers WHERE email = $1", email))
	if errors.Is(err, sql.ErrNoRows) {
		s.Log.InfoContext(ctx, "password reset requested for an unknown email")
		return nil
	}
	if err != nil {
		return fmt.Errorf("reset request: %w", err)
	}
	token, err := secret.NewToken()
	if err != nil {
		return err
	}
	link := s.PublicURL + "/reset-password?token=" + token
	t := now()
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO password_resets (token_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
			secret.HashToken(token), c.ID, t, t.Add(ResetTTL)); err != nil {
			return err
		}
		return mail.Enqueue(ctx, tx, resetMail(c, link))
	})
	if err != nil {
		return fmt.Errorf("reset request: %w", err)
	}
	if s.LogResetLinks {
		s.Log.InfoContext(ctx, "password reset link (no SMTP configured; the mail is in the mail folder)", "customer_id", c.ID, "link", link)
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

// ResetPassword sets a new password with a reset token for email: the token
// is spent, every other reset token of the member too, and every session ends.
func (s *Service) ResetPassword(ctx context.Context, email, password, token string) error {
	email = NormalizeEmail(email)
	if err := validPassword(password); err != nil {
		return err
	}
	if token == "" || len(token) > 100 || email == "" {
		return ErrBadResetToken
	}
	hash, err := s.Hasher.Hash(password)
	if err != nil {
		return err
	}
	t := now()
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var customerID int64
		err := tx.QueryRow(ctx, `SELECT r.customer_id FROM password_resets r JOIN customers c ON c.id = r.customer_id
			WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > $2 AND c.email = $3`,
			secret.HashToken(token), t, email).Scan(&customerID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrBadResetToken
		}
		if err != nil {
			return fmt.Errorf("reset password: %w", err)
		}
		// Spend the token only if nobody spent it meanwhile (two clicks at once).
		res, err := tx.Exec(ctx, "UPDATE password_resets SET used_at = $1 WHERE customer_id = $2 AND used_at IS NULL", t, customerID)
		if err != nil {
			return fmt.Errorf("reset password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrBadResetToken
		}
		if _, err := tx.Exec(ctx, "UPDATE customers SET password_hash = $1, updated_at = $2 WHERE id = $3", hash, t, customerID); err != nil {
			return fmt.Errorf("reset password: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM sessions WHERE customer_id = $1", customerID); err != nil {
			return fmt.Errorf("reset password: %w", err)
		}
		return nil
	})
}

// Prune deletes expired sessions and reset tokens (run now and then).
func (s *Service) Prune(ctx context.Context) error {
	t := now()
	if _, err := s.DB.Exec(ctx, "DELETE FROM sessions WHERE expires_at < $1", t); err != nil {
		return fmt.Errorf("prune sessions: %w", err)
	}
	if _, err := s.DB.Exec(ctx, "DELETE FROM password_resets WHERE expires_at < $1", t.Add(-24*time.Hour)); err != nil {
		return fmt.Errorf("prune reset tokens: %w", err)
	}
	return s.Limits.Prune(ctx, 24*time.Hour)
}

package identity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ratelimit"
	"locator/internal/secret"
)

// Service is the identity of one area, whose accounts are A: sign-in, the
// account of a request's session, sign-out, password reset, proof of
// mailbox and pruning.
type Service[A any] struct {
	Area   Area
	DB     *db.DB
	Limits *ratelimit.DB
	// Hasher hashes the area's passwords (tests make it cheap).
	Hasher    secret.Hasher
	PublicURL string // base of the mailed links
	Log       *slog.Logger
	// LogResetLinks logs reset links at info level: a development setting
	// (the link is as good as the password for ResetTTL), off by default.
	LogResetLinks bool
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Mailbox proves the area's addresses (nil without Area.LinkPath).
	Mailbox *Mailbox
	// Later runs work that must not delay an answer (see RequestReset);
	// nil: a goroutine each, at most maxBackground at once.
	Later func(job func(ctx context.Context)) error

	// load reads an account by id (sql.ErrNoRows when there is none).
	load       func(ctx context.Context, id int64) (A, error)
	lockout    ratelimit.Lockout
	background chan struct{} // slots of the work done after an answer
	jobs       sync.WaitGroup
}

// maxBackground bounds the reset requests being worked on after their
// answer; beyond it a request is refused (the same way for every email).
const maxBackground = 64

// backgroundTimeout bounds one such job: it outlives its request, not the
// process.
const backgroundTimeout = 30 * time.Second

// Options are what a serving process hands every area alike (cmd/locator's
// newApp builds them once): its one clock, its one hashing gate and the
// development switch. The zero value suits a command or a test.
type Options struct {
	Clock         clock.Clock  // nil: the system's
	Gate          *secret.Gate // bounds password hashing across the areas; nil: unbounded
	LogResetLinks bool         // see Service.LogResetLinks
}

// NewService returns the identity service of area with production
// defaults; links mailed point at publicURL, and load reads an account by
// id (sql.ErrNoRows when there is none).
func NewService[A any](area Area, d *db.DB, publicURL string, log *slog.Logger, opt Options, load func(ctx context.Context, id int64) (A, error)) *Service[A] {
	if log == nil {
		log = slog.Default()
	}
	limits := ratelimit.NewDB(d)
	hasher := secret.DefaultHasher
	hasher.Gate = opt.Gate
	s := &Service[A]{Area: area, load: load, DB: d, Limits: limits, Hasher: hasher, PublicURL: strings.TrimRight(publicURL, "/"), Log: log,
		Now: opt.Clock.Now, LogResetLinks: opt.LogResetLinks,
		lockout: ratelimit.NewLockout(limits, area.Name), background: make(chan struct{}, maxBackground)}
	if area.LinkPath != "" {
		s.Mailbox = &Mailbox{DB: d, Limits: limits, Area: area, PublicURL: s.PublicURL, Hasher: &s.Hasher, Now: s.clock}
	}
	return s
}

func (s *Service[A]) clock() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Sessions are the area's sign-ins.
func (s *Service[A]) Sessions() *Sessions {
	return &Sessions{DB: s.DB, Table: s.Area.Sessions, Owner: s.Area.SessionOwner, TTL: s.Area.SessionTTL, Now: s.clock}
}

// resets are the area's password reset links.
func (s *Service[A]) resets() *Resets {
	return &Resets{DB: s.DB, Table: s.Area.Resets, Owner: s.Area.SessionOwner, Accounts: s.Area.Accounts, TTL: s.Area.ResetTTL,
		Link:     func(token string) string { return s.PublicURL + s.Area.ResetPath + "?token=" + token },
		Sessions: s.Sessions(), Mailbox: s.Mailbox, Hasher: &s.Hasher, Now: s.clock}
}

// CheckPassword returns the id of the account whose email and password
// these are, under the area's sign-in lockout. A wrong email and a wrong
// password take the same time (argon2id against a dummy hash) and give
// ErrBadCredentials.
func (s *Service[A]) CheckPassword(ctx context.Context, email, password string) (int64, error) {
	email = NormalizeEmail(email)
	var id int64
	ok, err := Credentials{Hasher: &s.Hasher, Lockout: s.lockout}.Check(ctx, email, password, func() (hash string, err error) {
		err = s.DB.QueryRow(ctx, "SELECT id, password_hash FROM "+s.Area.Accounts+" WHERE email = $1", email).Scan(&id, &hash)
		return hash, err
	})
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, ErrBadCredentials
	}
	return id, nil
}

// SignIn checks the credentials (CheckPassword) and starts a session of
// the account, ending oldToken's (the session id rotates at every
// sign-in). It returns the account and the new session's token.
func (s *Service[A]) SignIn(ctx context.Context, email, password, oldToken string) (A, string, error) {
	var none A
	id, err := s.CheckPassword(ctx, email, password)
	if err != nil {
		return none, "", err
	}
	return s.StartSession(ctx, id, oldToken)
}

// StartSession starts a session of the account, ending oldToken's, and
// returns the account with the session's token.
func (s *Service[A]) StartSession(ctx context.Context, id int64, oldToken string) (A, string, error) {
	var none A
	token, err := s.Sessions().Start(ctx, id, oldToken)
	if err != nil {
		return none, "", fmt.Errorf("%s session: %w", s.Area.Name, err)
	}
	a, err := s.load(ctx, id)
	if err != nil {
		return none, "", fmt.Errorf("%s account %d: %w", s.Area.Name, id, err)
	}
	return a, token, nil
}

// Authenticate returns the account of token's live session; without one
// (no token, an unknown, ended or expired one, an account gone) it answers
// the area's ErrNoSession.
func (s *Service[A]) Authenticate(ctx context.Context, token string) (A, error) {
	var a, none A
	ok, err := s.Sessions().Account(ctx, token, func(id int64) (err error) {
		a, err = s.load(ctx, id)
		return err
	})
	if err != nil {
		return none, fmt.Errorf("authenticate %s: %w", s.Area.Name, err)
	}
	if !ok {
		return none, s.Area.ErrNoSession
	}
	return a, nil
}

// SignOut ends the session of token.
func (s *Service[A]) SignOut(ctx context.Context, token string) error {
	if err := s.Sessions().End(ctx, token); err != nil {
		return fmt.Errorf("%s sign out: %w", s.Area.Name, err)
	}
	return nil
}

// SetPassword makes hash the account's password in tx at t, and stamps the
// change where the area keeps one.
func (s *Service[A]) SetPassword(ctx context.Context, tx *db.Tx, id int64, hash string, t time.Time) error {
	query, args := "UPDATE "+s.Area.Accounts+" SET password_hash = $1 WHERE id = $2", []any{hash, id}
	if s.Area.Stamp != "" {
		query, args = "UPDATE "+s.Area.Accounts+" SET password_hash = $1, "+s.Area.Stamp+" = $3 WHERE id = $2", append(args, t)
	}
	if _, err := tx.Exec(ctx, query, args...); err != nil {
		return fmt.Errorf("set %s password: %w", s.Area.Name, err)
	}
	return nil
}

// RequestReset mails a single-use reset link when email has an account,
// and answers the same either way, so the form cannot be used to learn who
// has an account: the answer depends only on the input and the per-email
// limit, and the lookup, the token and the mail are done after it, so a
// known email answers no slower than an unknown one.
func (s *Service[A]) RequestReset(ctx context.Context, email string) error {
	if s.Area.Resets == "" {
		return apperr.New(apperr.NotFound, "no password reset here")
	}
	email, err := ParseEmail(email)
	if err != nil {
		return err
	}
	if err := s.Limits.Take(ctx, s.Area.ResetLimit+":"+email, s.Area.MaxResets, s.Area.ResetWindow); err != nil {
		return err
	}
	return s.later(func(ctx context.Context) {
		if err := s.sendReset(ctx, email); err != nil {
			s.Log.ErrorContext(ctx, s.Area.Name+" password reset request failed", "err", err)
		}
	})
}

// later runs job after the answer, in its own context.
func (s *Service[A]) later(job func(ctx context.Context)) error {
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
func (s *Service[A]) Wait() { s.jobs.Wait() }

// sendReset issues a reset link for email's account, ending its older
// ones, and mails it; an unknown email does nothing.
func (s *Service[A]) sendReset(ctx context.Context, email string) error {
	name := "''"
	if s.Area.ResetName != "" {
		name = s.Area.ResetName
	}
	var id int64
	var greeting string
	err := s.DB.QueryRow(ctx, "SELECT id, "+name+" FROM "+s.Area.Accounts+" WHERE email = $1", email).Scan(&id, &greeting)
	if errors.Is(err, sql.ErrNoRows) {
		s.Log.InfoContext(ctx, "password reset requested for an unknown email", "area", s.Area.Name)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s reset request: %w", s.Area.Name, err)
	}
	link, err := s.resets().Issue(ctx, id, func(link string) mail.Message { return s.Area.ResetMail(email, greeting, link) })
	if err != nil {
		return fmt.Errorf("%s reset request: %w", s.Area.Name, err)
	}
	if s.LogResetLinks {
		s.Log.InfoContext(ctx, "password reset link (LOCATOR_LOG_RESET_LINKS is on)", "area", s.Area.Name, "account_id", id, "link", link)
	} else {
		s.Log.InfoContext(ctx, "password reset link mailed", "area", s.Area.Name, "account_id", id)
	}
	return nil
}

// ResetPassword sets a new password with a reset token (for email, when
// given): the token is spent, every other reset token of the account too,
// every session ends and the mailbox counts as proven.
func (s *Service[A]) ResetPassword(ctx context.Context, email, password, token string) error {
	ok, err := s.resets().Complete(ctx, NormalizeEmail(email), password, token, func(tx *db.Tx, id int64, hash string, t time.Time) error {
		return s.SetPassword(ctx, tx, id, hash, t)
	})
	if err != nil {
		return err
	}
	if !ok {
		return ErrBadResetToken // unknown, spent, expired, or spent meanwhile by a second click
	}
	return nil
}

// Prune deletes expired sessions, old reset links and dead mailbox links
// (run now and then).
func (s *Service[A]) Prune(ctx context.Context) error {
	if err := s.Sessions().Prune(ctx); err != nil {
		return err
	}
	if s.Area.Resets != "" {
		if err := s.resets().Prune(ctx); err != nil {
			return err
		}
	}
	if s.Mailbox != nil {
		return s.Mailbox.Prune(ctx)
	}
	return nil
}

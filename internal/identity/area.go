// Package identity is who members, business accounts and moderators are,
// written once: credentials under a lockout, sessions, password reset,
// proof of mailbox, the one email rule and pruning. Each kind of account is
// an Area, which names everything that differs (tables, cookie, lifetimes,
// mails, links, answers); a Service runs one area. The areas' own features
// stay with them (internal/members, internal/business); moderators have no
// feature beyond their sign-in, so they live here (moderators.go).
package identity

import (
	"context"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/mail"
)

// Area is every name that differs between two kinds of account. The
// tables are written into SQL, so an Area is a constant of the code, never
// built from input.
type Area struct {
	// Name is the area: "member", "business" or "moderator". It is the
	// scope of its sign-in lockout (ratelimit.NewLockout) and its rows'
	// area in email_proofs.
	Name string
	// Accounts is its table: id, email, password_hash (and, with a proof
	// of mailbox, email_verified_at).
	Accounts string
	// Stamp, when set, is the accounts' column a new password sets to the
	// time of the change (members' updated_at).
	Stamp string
	// Sessions and SessionOwner name its sessions table and the column
	// naming the account; SessionTTL is how long a session lives.
	Sessions, SessionOwner string
	SessionTTL             time.Duration
	// Cookie is the session cookie's name ("__Host-" is put before it over
	// HTTPS); StrictCookie sends it on same-site requests only.
	Cookie       string
	StrictCookie bool
	// ErrNoSession answers a call that needs a session without a live one.
	ErrNoSession error

	// Resets is its password reset table (token_hash, the SessionOwner
	// column, created_at, expires_at, used_at); "" for an area whose
	// passwords are set by an operator (moderators). Reset links open
	// ResetPath, live ResetTTL, and are asked for at most MaxResets times
	// per email and ResetWindow (counted under ResetLimit).
	Resets, ResetPath, ResetLimit string
	ResetTTL, ResetWindow         time.Duration
	MaxResets                     int
	// ResetMail is the message carrying a reset link to the address; name
	// is the account's ResetName column ("" without one), its greeting.
	ResetMail func(to, name, link string) mail.Message
	ResetName string

	// LinkPath is the web page that confirms a mailbox ("?token=..." is
	// added); "" for an area without proof of mailbox. Mail is the message
	// that carries the link.
	LinkPath string
	Mail     func(to, link string) mail.Message
	// Proven, when set, runs in the transaction that records a proof
	// (business accounts: link the stores of approved claims).
	Proven func(ctx context.Context, tx *db.Tx, accountID int64, at time.Time) error
}

// Answers every area gives the same way.
var (
	// ErrBadCredentials is the one answer to a wrong email or a wrong password.
	ErrBadCredentials = apperr.New(apperr.Unauthorized, "Invalid email or password")
	// ErrBadResetToken covers unknown, spent, expired and mismatched reset
	// tokens; its text names the usual cause (a link used twice or too
	// late) rather than blaming the email (issue 39, m23).
	ErrBadResetToken = apperr.Invalidf("This password reset link has already been used or has expired. Please request a new one.")
)

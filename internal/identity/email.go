package identity

import (
	"net/mail"
	"strings"

	"locator/internal/apperr"
)

// MaxEmailLen is the longest address accepted or looked up (the longest
// address a mail server must accept).
const MaxEmailLen = 254

// NormalizeEmail is the form every address is stored and compared in:
// trimmed and lower-cased (addresses are compared case-insensitively).
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ParseEmail is the one email rule of every form that takes an address
// (members, business accounts, moderators, claims): it returns the address
// normalised, or the error to show. An address is a bare addr-spec (no
// display name, no comments) whose domain has a dot, at most MaxEmailLen
// bytes (docs/accounts.md, "Validation").
func ParseEmail(s string) (string, error) {
	email := NormalizeEmail(s)
	if email == "" {
		return "", apperr.Invalidf("Email is required")
	}
	if len(email) > MaxEmailLen {
		return "", apperr.Invalidf("Email is too long")
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || !strings.Contains(email[strings.LastIndex(email, "@")+1:], ".") {
		return "", apperr.Invalidf("Email is invalid")
	}
	return email, nil
}

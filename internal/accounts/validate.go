package accounts

import (
	"net/mail"
	"strings"

	"locator/internal/apperr"
	"locator/internal/phone"
	"locator/internal/textfield"
)

// Field limits (names 255: docs/product-rules.md, "Members"; the phone's 12
// digits: phone.MaxDigits; passwords: see secret.CheckPassword, the one
// policy of every kind of account).
const (
	MaxNameLen  = 255
	MaxEmailLen = 254
)

// NormalizeEmail trims and lower-cases an email: addresses are compared
// case-insensitively.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func validEmail(email string) error {
	if email == "" {
		return apperr.Invalidf("Email is required")
	}
	if len(email) > MaxEmailLen {
		return apperr.Invalidf("Email is too long")
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || !strings.Contains(email[strings.LastIndex(email, "@")+1:], ".") {
		return apperr.Invalidf("Email is invalid")
	}
	return nil
}

// validName checks a first or last name: required, not blank, at most 255.
func validName(v, requiredMsg, tooLongMsg string) (string, error) {
	v, fits := textfield.Trim(v, MaxNameLen)
	if v == "" {
		return "", apperr.Invalidf("%s", requiredMsg)
	}
	if !fits {
		return "", apperr.Invalidf("%s", tooLongMsg)
	}
	return v, nil
}

// validPhone checks a member's phone and returns the form it is stored in:
// the same rule and the same stored form at sign-up and on the profile, so
// "(212) 555-0199" typed in either place is one number (package phone).
func validPhone(v string) (string, error) {
	n, err := phone.Normalize(v)
	if err != nil {
		return "", apperr.Invalidf("%s", err.Error())
	}
	return n, nil
}

package accounts

import (
	"net/mail"
	"strings"

	"locator/internal/apperr"
	"locator/internal/textfield"
)

// Field limits (names 255, phone 12: docs/product-rules.md, "Members";
// passwords: see secret.CheckPassword, the one policy of every kind of
// account).
const (
	MaxNameLen  = 255
	MaxPhoneLen = 12
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

// validPhone: required, at most 12 characters, an optional leading + and digits.
func validPhone(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", apperr.Invalidf("Phone is required")
	}
	if len(v) > MaxPhoneLen {
		return "", apperr.Invalidf("Phone should be less thant 12 symbols")
	}
	digits := strings.TrimPrefix(v, "+")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", apperr.Invalidf("Phone may contain only digits and a leading +")
	}
	return v, nil
}

// Package phone is the one rule for a telephone number a person types: a
// member at sign-up and on the profile, later perhaps an owner. People write
// "(212) 555-0199", "212.555.0199" or "+1 212 555 0199" for the same number,
// so the separators do not count: the length limit applies to the digits, and
// every spelling of a number is stored the same way (E.164 for a North
// American number, "+12125550199", as store phones are) and shown in the
// national format "(212) 555-0199".
package phone

import (
	"errors"
	"strings"
)

// MaxDigits is the longest number a member may give: the product's "phone max
// 12" (docs/product-rules.md, "Members"), counted in digits, so a US number in
// any spelling fits and the international form (+ and up to 12 digits) too.
const MaxDigits = 12

// MaxChars bounds the typed text, separators included, so a number padded
// with spaces is refused as too long rather than stored.
const MaxChars = 32

// The errors Normalize returns; their texts are the product's messages,
// ErrTooLong's word for word as the web app has always shown it.
var (
	ErrRequired = errors.New("Phone is required")
	ErrTooLong  = errors.New("Phone should be less thant 12 symbols")
	ErrInvalid  = errors.New("Phone may contain only digits, spaces, ( ) - . and a leading +")
)

// separators are the characters people put between digits; they carry no
// meaning and are dropped.
const separators = " ()-."

// Normalize checks a typed number and returns its one stored form: a North
// American number (10 digits whose area and exchange codes start with 2-9,
// optionally after 1 or +1) becomes "+1" and its 10 digits; any other number
// keeps its digits and its leading "+", if it had one.
func Normalize(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ErrRequired
	}
	if len(s) > MaxChars {
		return "", ErrTooLong
	}
	plus := strings.HasPrefix(s, "+")
	if plus {
		s = s[1:]
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case strings.ContainsRune(separators, r):
		default:
			return "", ErrInvalid
		}
	}
	digits := b.String()
	if digits == "" {
		return "", ErrInvalid
	}
	if len(digits) > MaxDigits {
		return "", ErrTooLong
	}
	if n, ok := northAmerican(digits, plus); ok {
		return "+1" + n, nil
	}
	if plus {
		return "+" + digits, nil
	}
	return digits, nil
}

// northAmerican returns the 10 national digits of a North American number:
// 10 digits, or 11 starting with the country code 1 (with or without "+"); a
// "+" before 10 digits is some other country's code, so not this.
func northAmerican(digits string, plus bool) (string, bool) {
	switch {
	case len(digits) == 10 && !plus:
	case len(digits) == 11 && digits[0] == '1':
		digits = digits[1:]
	default:
		return "", false
	}
	// Area codes and exchange codes never start with 0 or 1 (NANP), which
	// keeps a national number of another country ("0201234567") as typed.
	if digits[0] < '2' || digits[3] < '2' {
		return "", false
	}
	return digits, true
}

// National shows a stored number as people in its country write it: a North
// American number as "(212) 555-0199"; anything else as stored. Numbers stored
// before Normalize existed (digits only) are shown the same way.
func National(stored string) string {
	n, err := Normalize(stored)
	if err != nil {
		return stored
	}
	if d, ok := strings.CutPrefix(n, "+1"); ok && len(d) == 10 {
		return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]
	}
	return n
}

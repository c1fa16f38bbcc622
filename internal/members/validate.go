package members

import (
	"locator/internal/apperr"
	"locator/internal/phone"
	"locator/internal/textfield"
)

// MaxNameLen bounds a first or last name (docs/product-rules.md,
// "Members"; the phone's 12 digits: phone.MaxDigits; emails:
// identity.ParseEmail; passwords: secret.CheckPassword, the one policy of
// every kind of account).
const MaxNameLen = 255

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

package secret

import (
	_ "embed"
	"strings"
	"unicode/utf8"

	"locator/internal/apperr"
)

// The password policy of every account (members, business accounts,
// moderators): MinPasswordLen to MaxPasswordLen characters, not one of the
// most common passwords, and no composition rules (no required digits or
// symbols: they push people to predictable patterns, not strong passwords).
const (
	MinPasswordLen = 8
	MaxPasswordLen = 255
)

// Messages of the policy. The first two are the web app's own wording.
const (
	MsgPasswordRequired = "Password is required"
	MsgPasswordTooBig   = "Password is too big"
	MsgPasswordTooShort = "Password must be at least 8 characters"
	MsgPasswordCommon   = "This password is one of the most common ones. Please choose another."
)

//go:embed common-passwords.txt
var commonList string

// common holds the lines of commonList (lower case).
var common = func() map[string]struct{} {
	m := make(map[string]struct{}, 10000)
	for line := range strings.SplitSeq(commonList, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			m[line] = struct{}{}
		}
	}
	return m
}()

// CheckPassword applies the policy to a new password. A password is taken
// as typed (spaces included), so only a blank one counts as missing.
func CheckPassword(password string) error {
	n := utf8.RuneCountInString(password)
	switch {
	case strings.TrimSpace(password) == "":
		return apperr.Invalidf(MsgPasswordRequired)
	case n > MaxPasswordLen:
		return apperr.Invalidf(MsgPasswordTooBig)
	case n < MinPasswordLen:
		return apperr.Invalidf(MsgPasswordTooShort)
	}
	if _, ok := common[strings.ToLower(password)]; ok {
		return apperr.Invalidf(MsgPasswordCommon)
	}
	return nil
}

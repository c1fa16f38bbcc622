// Package textfield is the one rule for free text that people type into a
// field (a note, a reason, a phone number): the space around it does not
// count, and its length limit counts characters (runes), not bytes, so
// "café" is as long as "cafe".
package textfield

import (
	"strings"
	"unicode/utf8"
)

// Trim returns s without the space around it and whether that has at most
// limit characters.
func Trim(s string, limit int) (string, bool) {
	s = strings.TrimSpace(s)
	return s, utf8.RuneCountInString(s) <= limit
}

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

// HasNUL reports whether any of the texts holds U+0000, which PostgreSQL
// cannot store in a text column: every write path refuses it up front
// (stores.Store.Validate and schedule.Settings.Validate here, the HTTP
// layer for request bodies and query strings).
func HasNUL(texts ...string) bool {
	for _, t := range texts {
		if strings.IndexByte(t, 0) >= 0 {
			return true
		}
	}
	return false
}

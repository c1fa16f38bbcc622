// Package fold is the key under which place names are compared. It is its
// own package so that tools/geodata, which writes the data the places
// package embeds, folds names exactly as look-ups do.
package fold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold returns the key under which names are compared: lower case, accents
// removed ("München" -> "munchen"), dashes as spaces, apostrophes and dots
// dropped ("St. John's" -> "st johns"), runs of spaces collapsed.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	add := func(r rune) {
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r < utf8.RuneSelf {
			b.WriteByte(byte(unicode.ToLower(r)))
		} else if x, ok := foldSpecial[r]; ok {
			b.WriteString(x)
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	fold := func(r rune) {
		switch {
		case r == '\'' || r == '.':
		case r == ' ' || r == '-':
			space = b.Len() > 0
		case r < utf8.RuneSelf && r > ' ':
			add(r)
		case r == '’' || unicode.Is(unicode.Mn, r):
		case unicode.Is(unicode.Pd, r) || unicode.IsSpace(r):
			space = b.Len() > 0
		default:
			add(r)
		}
	}
	if IsASCII(s) {
		// NFD is the identity on ASCII, and most names are ASCII.
		for i := range len(s) {
			fold(rune(s[i]))
		}
	} else {
		for _, r := range norm.NFD.String(s) {
			fold(r)
		}
	}
	return b.String()
}

// foldSpecial covers Latin letters that have no Unicode decomposition.
var foldSpecial = map[rune]string{
	'ß': "ss", 'ẞ': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
	'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th",
	'ħ': "h", 'Ħ': "h", 'ı': "i", 'ŧ': "t", 'Ŧ': "t",
}

// IsASCII reports whether s is plain ASCII.
func IsASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

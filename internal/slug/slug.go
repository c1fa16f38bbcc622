// Package slug turns names into the ASCII words of store page URLs
// ("Café Zoë's" -> "cafe-zoes"). It is a leaf, shared by search (which
// groups its directory of states and cities by slug) and storepages (which
// builds and checks the URLs), so both always agree.
package slug

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxLen bounds a slug: URLs stay readable and a 255-character name cannot
// make a huge path.
const MaxLen = 60

// special letters NFD does not decompose into a base letter and marks.
var special = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'ø': "o", 'Ø': "o", 'œ': "oe", 'Œ': "oe",
	'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l", 'þ': "th", 'Þ': "th", 'ð': "d", 'Ð': "d", 'ı': "i",
}

// Make returns the slug of s: lower-case ASCII letters and digits, words
// joined by single hyphens, accents folded ("é" -> "e"), apostrophes
// dropped ("Joe's" -> "joes"), anything else a word break, at most MaxLen
// bytes cut at a word boundary when there is one. It may be empty (a name
// with no Latin letter or digit); callers choose the fallback.
func Make(s string) string {
	var b strings.Builder
	b.Grow(min(len(s), MaxLen+8))
	gap := false
	add := func(r rune) {
		if gap && b.Len() > 0 {
			b.WriteByte('-')
		}
		gap = false
		b.WriteRune(r)
	}
	each := func(r rune) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			add(r)
		case r >= 'A' && r <= 'Z':
			add(r + 'a' - 'A')
		case r == '\'' || r == '’' || r == '`' || unicode.Is(unicode.Mn, r):
			// dropped inside a word
		case r >= utf8.RuneSelf:
			if x, ok := special[r]; ok {
				for _, c := range x {
					add(c)
				}
				return
			}
			gap = true
		default:
			gap = true
		}
	}
	if isASCII(s) {
		for i := range len(s) {
			each(rune(s[i]))
			if b.Len() > MaxLen+1 {
				break
			}
		}
	} else {
		for _, r := range norm.NFD.String(s) {
			each(r)
			if b.Len() > MaxLen+1 {
				break
			}
		}
	}
	out := b.String()
	if len(out) > MaxLen {
		out = out[:MaxLen]
		if i := strings.LastIndexByte(out, '-'); i > MaxLen/2 {
			out = out[:i]
		}
		out = strings.TrimRight(out, "-")
	}
	return out
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Or returns Make(s), or fallback when that is empty.
func Or(s, fallback string) string {
	if v := Make(s); v != "" {
		return v
	}
	return fallback
}

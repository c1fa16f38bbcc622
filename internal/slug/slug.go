// Package slug turns names into the ASCII words of store page URLs
// ("Café Zoë's" -> "cafe-zoes"). It is a leaf, shared by search (which
// groups its directory of states and cities by slug) and storepages (which
// builds and checks the URLs), so both always agree.
package slug

import (
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
func Make(s string) string { return string(Append(nil, s)) }

// Or returns Make(s), or fallback when that is empty.
func Or(s, fallback string) string {
	if v := Make(s); v != "" {
		return v
	}
	return fallback
}

// Append appends the slug of s to dst (sitemaps build a million URLs
// without a string each).
func Append[S string | []byte](dst []byte, s S) []byte {
	w := writer{b: dst, start: len(dst)}
	if isASCII(s) {
		// NFD is the identity on ASCII, and most names are ASCII.
		for i := 0; i < len(s) && !w.full(); i++ {
			w.rune(rune(s[i]))
		}
	} else {
		for _, r := range norm.NFD.String(string(s)) {
			if w.full() {
				break
			}
			w.rune(r)
		}
	}
	return w.done()
}

type writer struct {
	b     []byte
	start int
	gap   bool
}

func (w *writer) full() bool { return len(w.b)-w.start > MaxLen+1 }

func (w *writer) add(c byte) {
	if w.gap && len(w.b) > w.start {
		w.b = append(w.b, '-')
	}
	w.gap = false
	w.b = append(w.b, c)
}

func (w *writer) rune(r rune) {
	switch {
	case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
		w.add(byte(r))
	case r >= 'A' && r <= 'Z':
		w.add(byte(r + 'a' - 'A'))
	case r == '\'' || r == '’' || r == '`' || (r >= utf8.RuneSelf && unicode.Is(unicode.Mn, r)):
		// dropped inside a word
	case r >= utf8.RuneSelf:
		if x, ok := special[r]; ok {
			for i := range len(x) {
				w.add(x[i])
			}
			return
		}
		w.gap = true
	default:
		w.gap = true
	}
}

// done cuts the slug to MaxLen at a word boundary when there is one past
// half of it.
func (w *writer) done() []byte {
	out := w.b[w.start:]
	if len(out) > MaxLen {
		out = out[:MaxLen]
		for i := len(out) - 1; i > MaxLen/2; i-- {
			if out[i] == '-' {
				out = out[:i]
				break
			}
		}
		for len(out) > 0 && out[len(out)-1] == '-' {
			out = out[:len(out)-1]
		}
	}
	return w.b[:w.start+len(out)]
}

func isASCII[S string | []byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

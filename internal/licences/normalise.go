package licences

import (
	"strings"
	"unicode"
)

// Addresses and names are compared in one spelling: upper case, no
// punctuation, street suffixes and directions abbreviated the USPS way,
// numbered streets without their ordinal ("5th" and "Fifth" are "5"), the
// unit (suite, apartment, floor) dropped.

var streetWords = map[string]string{
	"STREET": "ST", "STR": "ST", "AVENUE": "AVE", "AV": "AVE", "AVEN": "AVE", "BOULEVARD": "BLVD", "BOUL": "BLVD",
	"ROAD": "RD", "DRIVE": "DR", "PLACE": "PL", "LANE": "LN", "COURT": "CT", "PARKWAY": "PKWY", "PKY": "PKWY",
	"HIGHWAY": "HWY", "TERRACE": "TER", "SQUARE": "SQ", "EXPRESSWAY": "EXPY", "TURNPIKE": "TPKE", "CIRCLE": "CIR",
	"PLAZA": "PLZ", "ALLEY": "ALY", "BROADWAY": "BROADWAY", "CONCOURSE": "CONC",
	"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W",
	"NORTHEAST": "NE", "NORTHWEST": "NW", "SOUTHEAST": "SE", "SOUTHWEST": "SW",
	"FIRST": "1", "SECOND": "2", "THIRD": "3", "FOURTH": "4", "FIFTH": "5", "SIXTH": "6", "SEVENTH": "7",
	"EIGHTH": "8", "NINTH": "9", "TENTH": "10", "ELEVENTH": "11", "TWELFTH": "12",
}

// unitWords start a unit designator: it and the word after it are dropped.
var unitWords = map[string]bool{"APT": true, "APARTMENT": true, "UNIT": true, "STE": true, "SUITE": true,
	"FL": true, "FLOOR": true, "RM": true, "ROOM": true, "STORE": true, "SPC": true, "SPACE": true, "BSMT": true}

// words splits s into upper-case words of letters and digits; an
// apostrophe joins ("Joe's" is "JOES"), other punctuation separates, and
// "&" is "AND".
func words(s string) []string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == '\'' || r == '’' || r == '.':
			// "L.L.C." is "LLC", "St." is "ST"
		case r == '&':
			b.WriteString(" AND ")
		case r == '#':
			b.WriteString(" # ")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// AddressKey is the normalised street address: "number street", "" when
// it has no house number to compare.
func AddressKey(addr string) string {
	if i := strings.IndexByte(addr, ','); i >= 0 {
		addr = addr[:i] // "12 Main St, Suite 4" or "12 Main St, Brooklyn, NY"
	}
	ws := words(addr)
	out := make([]string, 0, len(ws))
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if unitWords[w] || w == "#" {
			i++ // and its number
			continue
		}
		if len(out) > 0 {
			w = ordinal(w)
		}
		if r, ok := streetWords[w]; ok {
			w = r
		}
		out = append(out, w)
	}
	if len(out) < 2 || !startsWithDigit(out[0]) {
		return ""
	}
	return strings.Join(out, " ")
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// ordinal strips the suffix of a numbered street: "5TH" is "5".
func ordinal(w string) string {
	if len(w) < 3 || !startsWithDigit(w) {
		return w
	}
	n := len(w) - 2
	switch w[n:] {
	case "ST", "ND", "RD", "TH":
		for _, c := range w[:n] {
			if c < '0' || c > '9' {
				return w
			}
		}
		return w[:n]
	}
	return w
}

// zip5 is the five-digit ZIP code of a postal code ("10001-1234" is "10001").
func zip5(z string) string {
	z = strings.TrimSpace(z)
	if len(z) >= 5 {
		return z[:5]
	}
	return z
}

// nameNoise are the words a business name drops for comparison.
var nameNoise = map[string]bool{"INC": true, "INCORPORATED": true, "LLC": true, "CORP": true, "CORPORATION": true,
	"CO": true, "COMPANY": true, "LTD": true, "THE": true, "DBA": true, "LP": true, "LLP": true, "PLLC": true, "AND": true}

// nameWords are a business name's words without the legal-form noise.
func nameWords(name string) []string {
	ws := words(name)
	out := ws[:0]
	for _, w := range ws {
		if !nameNoise[w] {
			out = append(out, w)
		}
	}
	return out
}

// NameSimilarity is how alike two business names are, from 0 to 1: 1 when
// one's words all appear in the other ("Cloud Nine Vapes" and "CLOUD NINE
// VAPES INC"), else the share of words they have in common (Dice).
func NameSimilarity(a, b string) float64 {
	wa, wb := nameWords(a), nameWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	in := func(w string, set []string) bool {
		for _, x := range set {
			if x == w {
				return true
			}
		}
		return false
	}
	common := 0
	for _, w := range wa {
		if in(w, wb) {
			common++
		}
	}
	if common == len(wa) || common == len(wb) {
		return 1
	}
	return 2 * float64(common) / float64(len(wa)+len(wb))
}

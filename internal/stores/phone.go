package stores

import "strings"

// Phones are stored as their owners, imports and claims wrote them
// ("+19175550166", "917-555-0166", "(917) 555-0166"). Every surface shows
// a North American number one way, in its national format "(917)
// 555-0166" (docs/product-rules.md, "One truth per store"), and any two
// writings of one number are the same number. The web app's copy is
// web/src/lib/phone.ts.

// phoneDigits is the number's digits, and whether it began with "+".
func phoneDigits(p string) (string, bool) {
	p = strings.TrimSpace(p)
	var b strings.Builder
	for _, r := range p {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String(), strings.HasPrefix(p, "+")
}

// nanp is the ten national digits of a North American number (country
// code 1): ten digits, or eleven starting with 1; "" otherwise. A number
// written with a "+" and another country code is not one.
func nanp(p string) string {
	d, plus := phoneDigits(p)
	switch {
	case len(d) == 11 && d[0] == '1':
		d = d[1:]
	case len(d) == 10 && !plus:
	default:
		return ""
	}
	// An area code and an exchange never start with 0 or 1.
	if d[0] < '2' || d[3] < '2' {
		return ""
	}
	return d
}

// PhoneText is a phone number as shoppers read it: "(917) 555-0166" for a
// North American number, otherwise as written (trimmed).
func PhoneText(p string) string {
	if d := nanp(p); d != "" {
		return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]
	}
	return strings.TrimSpace(p)
}

// PhoneKey is what two writings of one number share: "1" and the ten
// digits of a North American number, otherwise its digits. "" for no
// number.
func PhoneKey(p string) string {
	if d := nanp(p); d != "" {
		return "1" + d
	}
	d, _ := phoneDigits(p)
	return d
}

// SamePhone reports whether a and b are one phone number however written
// ("+19175550166" and "917-555-0166" are).
func SamePhone(a, b string) bool { return PhoneKey(a) == PhoneKey(b) }

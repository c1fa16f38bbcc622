package stores

import (
	"strings"

	"locator/internal/phone"
)

// Phones are stored as their owners, imports and claims wrote them
// ("+19175550166", "917-555-0166", "(917) 555-0166"). Every surface shows
// a North American number one way, in its national format "(917)
// 555-0166" (docs/product-rules.md, "One truth per store"), and any two
// writings of one number are the same number. The rule itself is
// internal/phone's (the web app's copy is web/src/lib/phone.ts).

// PhoneText is a phone number as shoppers read it: "(917) 555-0166" for a
// North American number, otherwise its one stored form (phone.National).
func PhoneText(p string) string { return phone.National(strings.TrimSpace(p)) }

// PhoneKey is what two writings of one number share: the digits of its one
// stored form ("19175550166"), or of the text as written when it is no
// number phone.Normalize reads. "" for no number.
func PhoneKey(p string) string {
	if n, err := phone.Normalize(p); err == nil {
		return strings.TrimPrefix(n, "+")
	}
	var b strings.Builder
	for _, r := range p {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// SamePhone reports whether a and b are one phone number however written
// ("+19175550166" and "917-555-0166" are).
func SamePhone(a, b string) bool { return PhoneKey(a) == PhoneKey(b) }

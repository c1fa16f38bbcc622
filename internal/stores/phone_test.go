package stores_test

import (
	"testing"

	"locator/internal/golden"
	"locator/internal/stores"
)

func TestPhoneText(t *testing.T) {
	t.Parallel()
	golden.Cases(t, "PhoneText", stores.PhoneText, map[string]string{
		"+19175550166": "(917) 555-0166", "9175550166": "(917) 555-0166", "1-917-555-0166": "(917) 555-0166",
		"(917) 555-0166": "(917) 555-0166", " +1 212 555 0100 ": "(212) 555-0100",
		"+44 20 7946 0958": "+442079460958", "555-0166": "5550166", "0123456789": "0123456789", "": "", "call us": "call us",
	})
}

// Issue #39, m29: moderation flagged "+19175550166" and "9175550166" as
// different phones.
func TestSamePhone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"+19175550166", "9175550166", true},
		{"(917) 555-0166", "+1 917 555 0166", true},
		{"917.555.0166", "19175550166", true},
		{"+19175550166", "+19175550167", false},
		{"+442079460958", "442079460958", true},
		{"+44 20 7946 0958", "+1 917 555 0166", false},
		{"", "", true},
		{"", "9175550166", false},
	} {
		if got := stores.SamePhone(c.a, c.b); got != c.same {
			t.Errorf("SamePhone(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

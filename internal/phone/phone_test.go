package phone

import (
	"errors"
	"testing"

	"locator/internal/golden"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      error
	}{
		// The walk's number, refused before as 14 characters (issue 39, M7).
		{"(212) 555-0199", "+12125550199", nil},
		{"212-555-0199", "+12125550199", nil},
		{"212.555.0199", "+12125550199", nil},
		{"2125550199", "+12125550199", nil},
		{"12125550199", "+12125550199", nil},
		{"+1 (212) 555-0199", "+12125550199", nil},
		{"  +12125550199 ", "+12125550199", nil},
		{"1 212 555 0199", "+12125550199", nil},
		// Other countries keep their digits and their "+".
		{"+44 20 7946 0958", "+442079460958", nil},
		{"+2125550199", "+2125550199", nil}, // "+" then 10 digits: a country code 2..., not +1
		{"020 7946 0958", "02079460958", nil},
		{"0201234567", "0201234567", nil}, // 10 digits, but no North American area code
		{"2120550199", "2120550199", nil}, // exchange code starting with 0
		{"123456789012", "123456789012", nil},
		{"+123456789012", "+123456789012", nil},
		{"", "", ErrRequired},
		{"   ", "", ErrRequired},
		{"1234567890123", "", ErrTooLong},
		{"+1 (212) 555-0199 00", "", ErrTooLong},
		{"2 1 2 5 5 5 0 1 9 9 ( ) ( ) ( ) ( )", "", ErrTooLong}, // 35 characters
		{"call me", "", ErrInvalid},
		{"212\t555\t0199", "", ErrInvalid},
		{"212 555 0199 x12", "", ErrInvalid},
		{"12+34", "", ErrInvalid},
		{"+", "", ErrInvalid},
		{"()-", "", ErrInvalid},
		{"٢١٢٥٥٥٠١٩٩", "", ErrInvalid}, // digits of another script are not dialled
	} {
		got, err := Normalize(c.in)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestNational(t *testing.T) {
	golden.Cases(t, "National", National, map[string]string{
		"+12125550199":  "(212) 555-0199",
		"2125550199":    "(212) 555-0199", // stored before numbers were normalised
		"12125550199":   "(212) 555-0199",
		"+442079460958": "+442079460958",
		"02079460958":   "02079460958",
		"":              "",
		"not a phone":   "not a phone",
	})
}

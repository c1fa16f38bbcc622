package identity_test

import (
	"strings"
	"testing"

	"locator/internal/identity"
)

// One rule for every address a form takes (docs/accounts.md, "Validation").
func TestParseEmail(t *testing.T) {
	for in, want := range map[string]string{
		"  Ann@Example.COM ": "ann@example.com",
		"a.b+tag@mail.co.uk": "a.b+tag@mail.co.uk",
	} {
		got, err := identity.ParseEmail(in)
		if err != nil || got != want {
			t.Errorf("ParseEmail(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"":                       "Email is required",
		"   ":                    "Email is required",
		"not-an-email":           "Email is invalid",
		"ann@localhost":          "Email is invalid",
		"Ann <ann@example.com>":  "Email is invalid",
		"ann@example.com (work)": "Email is invalid",
		"ann@@example.com":       "Email is invalid",
		strings.Repeat("a", 250) + "@example.com": "Email is too long",
	} {
		if _, err := identity.ParseEmail(in); err == nil || err.Error() != msg {
			t.Errorf("ParseEmail(%q): %v, want %q", in[:min(len(in), 30)], err, msg)
		}
	}
}

package stores

import (
	"testing"

	"locator/internal/schedule"
)

func TestValidWebsite(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"https://example.com":                  true,
		"http://shop.example.com/path?q=1#top": true,
		"https://example.com:8443/":            true,
		"https://good.example@evil.example/":   false, // user-info: shows one host, opens another
		"https://user:pw@example.com":          false,
		"https://example.com\\@evil.example":   false, // backslash
		"https:\\\\evil.example":               false,
		"ftp://example.com":                    false,
		"javascript:alert(1)":                  false,
		"https://localhost":                    false, // no dotted host name
		"https:///example.com":                 false,
		"https://.example":                     false,
		"https://exa mple.com":                 false,
		"https://example.com/\x00":             false,
		"example.com":                          false, // callers add the scheme first
		"":                                     false,
	} {
		if got := ValidWebsite(v); got != want {
			t.Errorf("ValidWebsite(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestValidateRefusesNUL(t *testing.T) {
	t.Parallel()
	for _, s := range []Store{
		{Name: "A\x00B", Latitude: 1, Longitude: 1},
		{Name: "A", Address: "1 Main\x00St", Latitude: 1, Longitude: 1},
		{Name: "A", SpecialHours: []schedule.SpecialHour{{Date: "2026-12-24", Closed: true, Note: "x\x00"}}, Latitude: 1, Longitude: 1},
		{Name: "A", TemporarilyClosed: &schedule.Closure{From: "2026-12-24", Note: "\x00"}, Latitude: 1, Longitude: 1},
	} {
		if err := s.Validate(); err == nil {
			t.Errorf("%+v: accepted a NUL", s)
		}
	}
}

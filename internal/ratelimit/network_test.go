package ratelimit

import (
	"testing"

	"locator/internal/golden"
)

func TestNetwork(t *testing.T) {
	t.Parallel()
	golden.Cases(t, "Network", Network, map[string]string{
		"203.0.113.7":                "203.0.113.0/24",
		"203.0.113.250":              "203.0.113.0/24",
		"203.0.113.7:4000":           "203.0.113.0/24",
		"::ffff:203.0.113.7":         "203.0.113.0/24",
		"2001:db8:1:2:aaaa::1":       "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::9]:443": "2001:db8:1:2::/64",
		"fe80::1%eth0":               "fe80::/64",
		"not an address":             "not an address",
		"":                           "",
	})
}

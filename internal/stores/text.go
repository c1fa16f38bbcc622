package stores

import (
	"net/url"
	"strings"
)

// ValidWebsite is the one rule for a store's website wherever one is
// accepted (claims, the business dashboard, the importer, the API): an
// http or https address with a dotted host name, no user-info part
// ("https://good.example@evil.example/" shows one host and opens
// another), no backslash (browsers read it as a slash, url.Parse does not)
// and no spaces, quotes or angle brackets.
func ValidWebsite(v string) bool {
	if v == "" || len(v) > MaxURLLen || strings.ContainsAny(v, "\\ \t\r\n<>\"'`\x00") {
		return false
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Opaque != "" {
		return false
	}
	host := u.Hostname()
	if !strings.Contains(host, ".") || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
		return false
	}
	return true
}

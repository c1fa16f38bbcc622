package partners

import (
	"net"
	"net/url"
	"strings"
)

// NormalizeOrigin returns an origin as the partners' lists keep it:
// scheme://host[:port], lower case, without a default port, path, query or
// credentials. Only https origins are allowed, except http on localhost and
// 127.0.0.1 (any port), for development and tests. ok is false for
// anything else ("null", a path, another scheme, an address of the local
// network).
func NormalizeOrigin(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > 300 {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", false
	}
	if u.Path != "" && u.Path != "/" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if host == "" || strings.HasSuffix(host, ".") {
		return "", false
	}
	if _, err := url.Parse(scheme + "://" + host); err != nil {
		return "", false
	}
	switch scheme {
	case "https":
		if port == "443" {
			port = ""
		}
	case "http":
		if host != "localhost" && host != "127.0.0.1" {
			return "", false
		}
		if port == "80" {
			port = ""
		}
	default:
		return "", false
	}
	if strings.Contains(host, ":") { // an IPv6 literal
		host = "[" + host + "]"
	}
	if port != "" {
		return scheme + "://" + net.JoinHostPort(strings.Trim(host, "[]"), port), true
	}
	return scheme + "://" + host, true
}

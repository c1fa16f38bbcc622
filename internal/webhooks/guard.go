package webhooks

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"locator/internal/apperr"
)

// Guard refuses receivers on addresses a webhook must never reach (no
// server-side request forgery): a URL that is not https, or whose host is
// or resolves to a loopback, private, link-local, multicast, unspecified
// or otherwise special address. It checks at registration and again at
// each delivery, where it resolves the host itself, checks every address
// and dials the address it checked (a DNS answer that changes between the
// check and the dial cannot send the request elsewhere).
type Guard struct {
	// AllowLoopback lets receivers on 127.0.0.0/8 and ::1 through: for
	// tests with a local https receiver (httptest.NewTLSServer) only.
	// Production never sets it (cmd/locator builds a zero Guard).
	AllowLoopback bool
	// Resolver looks hosts up; nil: net.DefaultResolver.
	Resolver *net.Resolver
}

// special are the ranges no receiver may be in, beyond what netip's
// predicates name: shared address space (carrier NAT), the IETF protocol
// block, benchmarking, documentation, 6to4 relays, reserved, NAT64, ORCHID
// and documentation IPv6.
var special = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("192.88.99.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2001:10::/28"),
}

// Allowed says whether a receiver may be at address a.
func (g Guard) Allowed(a netip.Addr) bool {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return false
	case a.IsLoopback():
		return g.AllowLoopback
	case a.IsPrivate(), a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast(),
		a.IsMulticast(), a.IsUnspecified():
		return false
	}
	for _, p := range special {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// MaxURL bounds a receiver's URL, in bytes.
const MaxURL = 2000

// CheckURL parses a receiver's URL and refuses it unless it is https
// without credentials and its host resolves only to allowed addresses.
// It returns the URL as it will be called.
func (g Guard) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	switch {
	case raw == "" || len(raw) > MaxURL || err != nil:
		return nil, apperr.Invalidf("url: give the receiver's https URL (at most %d characters).", MaxURL)
	case u.Scheme != "https" || u.Opaque != "" || u.Hostname() == "":
		return nil, apperr.Invalidf("url: a receiver's URL must be https://host/path.")
	case u.User != nil:
		return nil, apperr.Invalidf("url: a receiver's URL holds no user name or password (the signature proves the sender).")
	case u.Fragment != "":
		return nil, apperr.Invalidf("url: a receiver's URL has no #fragment.")
	}
	if _, err := g.resolve(ctx, u.Hostname()); err != nil {
		return nil, apperr.Invalidf("url: %s", err.Error())
	}
	return u, nil
}

// resolve returns the addresses of host, or an error when it has none or
// any of them is not allowed.
func (g Guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		r := g.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		ips, err := r.LookupNetIP(ctx, "ip", host)
		if err != nil || len(ips) == 0 {
			return nil, fmt.Errorf("the host %q could not be resolved", host)
		}
		addrs = ips
	}
	for _, a := range addrs {
		if !g.Allowed(a) {
			return nil, fmt.Errorf("the host %q is at %s, a loopback, private or reserved address: webhooks go to public addresses only", host, a.Unmap())
		}
	}
	return addrs, nil
}

// DialContext dials addr's host only at addresses the guard allows: it
// resolves the host, refuses it if any address is not allowed, and dials
// the checked addresses in turn.
func (g Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: 10 * time.Second}
	var last error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// Client is an HTTP client that reaches only receivers the guard allows,
// with timeout as the bound of one delivery (connect, TLS, request and
// answer). It follows no redirect: a receiver answers, or the delivery
// counts as failed.
func (g Guard) Client(timeout time.Duration, base *http.Transport) *http.Client {
	t := base
	if t == nil {
		t = http.DefaultTransport.(*http.Transport).Clone()
	}
	t.Proxy = nil
	t.DialContext = g.DialContext
	t.ResponseHeaderTimeout = timeout
	return &http.Client{Timeout: timeout, Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

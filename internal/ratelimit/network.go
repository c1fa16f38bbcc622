package ratelimit

import (
	"net"
	"net/netip"
)

// Network is the network a client address belongs to, as limits count
// it: an IPv4 /24 or an IPv6 /64 (one home or office is given a whole /64,
// and a host can pick any address in it). "host:port" and bracketed forms
// are accepted; anything that is not an address is returned as it is.
func Network(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		host, _, herr := net.SplitHostPort(addr)
		if herr != nil {
			return addr
		}
		if a, err = netip.ParseAddr(host); err != nil {
			return addr
		}
	}
	a = a.Unmap().WithZone("")
	bits := 64
	if a.Is4() {
		bits = 24
	}
	p, _ := a.Prefix(bits)
	return p.String()
}

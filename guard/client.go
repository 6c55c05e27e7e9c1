package guard

import "net/netip"

// ClientKey is the key a per-client limit counts an IP address under
// (ADR 031). An IPv4 address is itself; an IPv6 address counts as its
// /64, because one subscriber line, one phone or one cloud instance is
// given a whole /64 and may send from any of its 2^64 addresses: counted
// per address, a single attacker would never reach a limit. An
// IPv4-mapped IPv6 address is the IPv4 address it maps. Anything that
// does not parse is kept as it is.
func ClientKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}

package guard

import "testing"

// IPv6 clients are counted by their /64, IPv4-mapped addresses as the
// IPv4 address, anything else as given.
func TestClientKey(t *testing.T) {
	for in, want := range map[string]string{
		"198.51.100.7":            "198.51.100.7",
		"::ffff:198.51.100.7":     "198.51.100.7",
		"2001:db8:a:b::1":         "2001:db8:a:b::/64",
		"2001:db8:a:b:ffff:1:2:3": "2001:db8:a:b::/64",
		"2001:DB8:A:B:0:0:0:9":    "2001:db8:a:b::/64",
		"fe80::1%eth0":            "fe80::/64",
		"::1":                     "::/64",
		"not an address":          "not an address",
		"":                        "",
	} {
		if got := ClientKey(in); got != want {
			t.Errorf("ClientKey(%q) = %q, want %q", in, got, want)
		}
	}
	if ClientKey("2001:db8:a:b::1") == ClientKey("2001:db8:a:c::1") {
		t.Error("two /64s share a key")
	}
}

package guard

import "testing"

func TestPlainTextAndShowHidden(t *testing.T) {
	for _, c := range []struct {
		in    string
		plain bool
		shown string
	}{
		{"/blog/water-damage", true, "/blog/water-damage"},
		{"/café", true, "/café"},
		{"/a\r\nSet-Cookie: x", false, "/a%0D%0ASet-Cookie: x"},
		{"/tab\there", false, "/tab%09here"},
		{"/invoice\u202Egpj.exe", false, "/invoice%E2%80%AEgpj.exe"},
		{"/rtl\u2067x\u2069", false, "/rtl%E2%81%A7x%E2%81%A9"},
		{"/zero\u200Bwidth", false, "/zero%E2%80%8Bwidth"},
		{"/line\u2028sep", false, "/line%E2%80%A8sep"},
		{"/c1\u0085", false, "/c1%C2%85"},
		{"/del\x7f", false, "/del%7F"},
		{"/nul\x00", false, "/nul%00"},
		{"/bad\xff", false, "/bad%FF"},
	} {
		if got := PlainText(c.in); got != c.plain {
			t.Errorf("PlainText(%q) = %v, want %v", c.in, got, c.plain)
		}
		if got := ShowHidden(c.in); got != c.shown {
			t.Errorf("ShowHidden(%q) = %q, want %q", c.in, got, c.shown)
		}
	}
}

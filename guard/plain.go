package guard

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hidden reports whether r changes how text around it reads without
// showing itself: a control character (CR, LF, TAB, DEL, C1), a format
// character (the bidi overrides and isolates such as U+202E, zero-width
// characters, a byte order mark) or a line or paragraph separator.
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// PlainText reports whether s is valid text (ValidText) with no hidden
// character: what a list shows is then what it holds, and no path or name
// can disguise how it reads.
func PlainText(s string) bool {
	if !ValidText(s) {
		return false
	}
	return strings.IndexFunc(s, hidden) < 0
}

// ShowHidden writes s with every hidden character (and every byte of
// invalid UTF-8) percent-escaped, as it would be in an address: "/a%0D%0Ab",
// "/x%E2%80%AEgpj.exe". Text with none is returned as it is.
func ShowHidden(s string) string {
	if PlainText(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || r == 0 || hidden(r) {
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

package portal

import (
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		tok, h := NewToken()
		if len(tok) != TokenLen || len(h) != 64 || Hash(tok) != h || seen[tok] {
			t.Fatalf("token %q hash %q", tok, h)
		}
		seen[tok] = true
	}
	tok, _ := NewToken()
	for _, bad := range []string{"", "short", tok + "A", tok[:21] + "!", strings.Repeat("/", 22), tok[:21] + "\x00", "AAAAAAAAAAAAAAAAAAAAAB"} {
		if Hash(bad) != "" {
			t.Errorf("Hash(%q) accepted", bad)
		}
	}
}

package accounts

import "testing"

func TestDeviceToken(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	tok := NewDeviceToken(key, "user-1")
	nonce, ok := VerifyDeviceToken(key, tok, "user-1")
	if !ok || nonce == "" {
		t.Fatalf("a fresh token does not verify: %q", tok)
	}
	if other := NewDeviceToken(key, "user-1"); other == tok {
		t.Error("two tokens share a nonce")
	}
	flip := func(s string, i int) string {
		c := byte('A')
		if s[i] == 'A' {
			c = 'B'
		}
		return s[:i] + string(c) + s[i+1:]
	}
	bad := map[string]struct {
		key         []byte
		token, user string
	}{
		"another account":  {key, tok, "user-2"},
		"another key":      {[]byte("fedcba9876543210fedcba9876543210"), tok, "user-1"},
		"no key":           {nil, tok, "user-1"},
		"empty":            {key, "", "user-1"},
		"tampered nonce":   {key, flip(tok, 3), "user-1"},
		"tampered sig":     {key, flip(tok, len(tok)-3), "user-1"},
		"wrong version":    {key, "d0" + tok[2:], "user-1"},
		"extra part":       {key, tok + ".x", "user-1"},
		"no account given": {key, tok, ""},
	}
	for name, c := range bad {
		if _, ok := VerifyDeviceToken(c.key, c.token, c.user); ok {
			t.Errorf("%s: verified", name)
		}
	}
}

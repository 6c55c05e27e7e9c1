// Package mediatest checks what /media/* answers, for the room's tests
// and server/'s: the stored type and the headers that keep a browser
// from treating a file as anything else.
package mediatest

import (
	"net/http"
	"strings"
	"testing"
)

// CheckHeaders fails t unless h, a /media/ answer's headers, carry
// wantType, nosniff, the sandboxing CSP of a photo or a video, and a
// year's immutable caching.
func CheckHeaders(t testing.TB, h http.Header, wantType string) {
	t.Helper()
	if ct := h.Get("Content-Type"); ct != wantType {
		t.Errorf("Content-Type %q, want %q", ct, wantType)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("X-Content-Type-Options %q", h.Get("X-Content-Type-Options"))
	}
	csp := h.Get("Content-Security-Policy")
	want := "sandbox; default-src 'none'; img-src 'self'"
	if strings.HasPrefix(wantType, "video/") {
		want = "sandbox; default-src 'none'; media-src 'self'"
	}
	if csp != want {
		t.Errorf("Content-Security-Policy %q, want %q", csp, want)
	}
	if !strings.Contains(h.Get("Cache-Control"), "immutable") {
		t.Errorf("Cache-Control %q", h.Get("Cache-Control"))
	}
}

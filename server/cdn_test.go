package server

import (
	"testing"
	"time"
)

// What caches in front are told: nothing to keep without CDN_SMAXAGE;
// with it, the lifetime, stale-while-revalidate at most a minute (never
// longer than the lifetime), and a day of stale-if-error (ADR 068).
func TestPageCacheControlForCaches(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                "public, max-age=0, must-revalidate",
		5 * time.Minute:  "public, max-age=0, must-revalidate, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400",
		10 * time.Second: "public, max-age=0, must-revalidate, s-maxage=10, stale-while-revalidate=10, stale-if-error=86400",
	} {
		if got := pageCacheControl(d); got != want {
			t.Errorf("CDN_SMAXAGE=%v: %q, want %q", d, got, want)
		}
	}
}

// The admin app's document is never for a shared cache, whichever path
// serves it (the cached fast path, or echo when a query string is
// there); public pages keep the public header.
func TestAdminDocumentIsPrivate(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"CDN_SMAXAGE": "5m"})
	h := srv.Handler()
	// Twice: the first render goes through echo, the second is a hit.
	for i := 0; i < 2; i++ {
		for _, path := range []string{"/admin", "/admin?from=menu", "/admin/leads", "/admin/leads?x=1"} {
			if r := get(t, h, path); r.StatusCode != 200 || r.Header.Get("Cache-Control") != "private, no-cache" {
				t.Errorf("%s (%d): %d %q, want private, no-cache", path, i, r.StatusCode, r.Header.Get("Cache-Control"))
			}
		}
	}
	if srv.Cache().Peek("/admin") == nil {
		t.Error("/admin was never cached: the fast path was not exercised")
	}
	for _, path := range []string{"/", "/administration-of-claims", "/services?x=1"} {
		r := get(t, h, path)
		if r.StatusCode == 200 && r.Header.Get("Cache-Control") != pageCacheControl(5*time.Minute) {
			t.Errorf("%s: %q", path, r.Header.Get("Cache-Control"))
		}
	}
}

package server

import (
	"strings"
	"testing"
)

// The privacy page says what is kept and for how long from the
// configuration the retention job enforces.
func TestPrivacyPageStatesRetention(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir(), "RETAIN_AUDIT_DAYS": "365", "RETAIN_OUTBOX_DAYS": "14"})
	r := get(t, srv.Handler(), "/privacy")
	if r.StatusCode != 200 {
		t.Fatalf("/privacy: %d", r.StatusCode)
	}
	for _, want := range []string{"What this website keeps, and for how long", "Deleted after 1 year", "Deleted 14 days after they are sent", "Kept at most 28 days", "Detailed records deleted after 30 days"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("/privacy lacks %q", want)
		}
	}
	if r := get(t, srv.Handler(), "/terms"); strings.Contains(r.Body, "What this website keeps") {
		t.Error("/terms shows the retention block")
	}
}

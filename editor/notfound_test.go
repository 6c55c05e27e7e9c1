package editor

import (
	"context"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/jobs"
)

// recorder is a Store that keeps what the 404 log writes.
type recorder struct {
	Store
	got map[string]int
}

func (r *recorder) AddNotFoundHits(_ context.Context, _ string, hits map[string]int, _ time.Time, _ int) error {
	for p, n := range hits {
		r.got[p] += n
	}
	return nil
}

// A 404 path with a control, bidi or invisible character is not counted:
// it could not be redirected and could disguise how the list reads.
func TestNotFoundLogRefusesHiddenCharacters(t *testing.T) {
	rec := &recorder{got: map[string]int{}}
	l := &NotFoundLog{Store: rec}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, p := range []string{"/a\r\nSet-Cookie: x", "/tab\there", "/invoice\u202Egpj.exe", "/rtl\u2067x", "/zero\u200Bwidth", "/del\x7f", "/line\u2028x"} {
		l.Hit(p, "visitor", now)
	}
	if err := l.Flush(context.Background(), now); err == nil || err.Error() != jobs.Skip("no 404 to write").Error() || len(rec.got) != 0 {
		t.Errorf("flush of refused paths only: %v, stored %v", err, rec.got)
	}
	l.Hit("/old-page", "visitor", now)
	l.Hit("/café", "visitor", now)
	if err := l.Flush(context.Background(), now); err != nil {
		t.Fatal(err)
	}
	if len(rec.got) != 2 || rec.got["/old-page"] != 1 || rec.got["/café"] != 1 {
		t.Errorf("stored %v", rec.got)
	}
}

package dashboard

import (
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

// A photo of no project (the content editor's upload) is said
// to go to the photo library, never to a project with no name.
func TestUploadActivityNamesTheLibrary(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	lines := uploadActivity([]db.Media{
		{Project: "", Kind: "image", CreatedAt: now},
		{Project: "kitchen-fire", Kind: "image", CreatedAt: now.Add(-time.Minute)},
		{Project: "kitchen-fire", Kind: "video", CreatedAt: now.Add(-2 * time.Minute)},
	})
	want := []string{"1 photo uploaded to the photo library", "1 photo and 1 video uploaded to Kitchen Fire"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(lines), len(want), lines)
	}
	for i, w := range want {
		if lines[i].Title != w {
			t.Errorf("line %d = %q, want %q", i, lines[i].Title, w)
		}
	}
}

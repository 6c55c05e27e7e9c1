package media

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/media"
)

// TestMediaTextSaves: caption and alt text are given at upload and edited
// afterwards; markup in them is kept as text; too-long text is refused
// with a message and loses nothing saved; a file name is refused as alt
// text; 50 concurrent saves leave one save's pair; each save re-renders
// the pages; cleared alt text is the default, which names the project.
// (How /portfolio shows the text, escaped, and the BODY_LIMIT a save is
// read under are tested in server/.)
func TestMediaTextSaves(t *testing.T) {
	t.Parallel()
	mr := newRoom(t)
	caption := `<script>alert("caption")</script> Kitchen "after" & dried`
	alt := `Dried kitchen <b onmouseover="alert(1)">floor</b>`
	text := func(caption, alt string) [][2]string { return [][2]string{{"caption", caption}, {"alt", alt}} }
	r := mr.form("POST", "/api/admin/media?project=Kitchen+Dry+Out", text(caption, alt), "k.jpg", testJPEG(t, 600, 400))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	it := item(t, r)
	if it.Caption != caption || it.Alt != alt || it.AltDefault {
		t.Errorf("uploaded item: caption %q alt %q default %v", it.Caption, it.Alt, it.AltDefault)
	}

	// Edits: too long, a file name as alt, a half form, a missing item.
	long := strings.Repeat("a", media.MaxCaption+1)
	edits := []struct {
		name string
		body any
		id   string
		code int
		msg  string
	}{
		{"caption too long", map[string]string{"caption": long, "alt": "x"}, it.ID, 400, "The caption can be at most 300 characters (this one has 301)."},
		{"alt too long", map[string]string{"caption": "x", "alt": strings.Repeat("é", media.MaxAlt+1)}, it.ID, 400, "The alt text can be at most 150 characters (this one has 151)."},
		{"alt is the file name", map[string]string{"caption": "x", "alt": filepath.Base(it.Path)}, it.ID, 400, "not its file name"},
		{"alt missing", map[string]string{"caption": "x"}, it.ID, 400, "as JSON"},
		{"not JSON", "caption=x", it.ID, 400, "as JSON"},
		{"no such item", map[string]string{"caption": "x", "alt": "y"}, "00000000-0000-0000-0000-000000000000", 404, "no longer exists"},
		{"path trick", map[string]string{"caption": "x", "alt": "y"}, "..%2F..%2Fsite.db", 404, ""},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			r := mr.json(t, "PATCH", "/api/admin/media/"+e.id, e.body)
			if r.StatusCode != e.code || !strings.Contains(r.Body, e.msg) {
				t.Errorf("%d %s, want %d %q", r.StatusCode, r.Body, e.code, e.msg)
			}
		})
	}
	// Nothing saved was lost by the refused edits.
	m, _ := mr.store.GetMedia(t.Context(), it.ID)
	if m.Caption != caption || m.Alt != alt {
		t.Errorf("refused edits changed the row: %q / %q", m.Caption, m.Alt)
	}
	// An upload with a caption too long is refused before anything is stored.
	if r := mr.form("POST", "/api/admin/media?project=Kitchen+Dry+Out", text(long, ""), "k2.jpg", testJPEG(t, 60, 40)); r.StatusCode != 400 || !strings.Contains(r.Body, "at most 300 characters") {
		t.Errorf("upload with a long caption: %d %s", r.StatusCode, r.Body)
	}
	if rows, _ := mr.store.ListMedia(t.Context()); len(rows) != 1 {
		t.Errorf("%d rows after the refused upload", len(rows))
	}

	// 50 concurrent saves: all answer 200, one save's pair is left, and
	// each re-renders the pages.
	before := mr.changed.Load()
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := mr.json(t, "PATCH", "/api/admin/media/"+it.ID, map[string]string{"caption": fmt.Sprintf("Save %d caption", i), "alt": fmt.Sprintf("Save %d alt", i)})
			codes <- r.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Errorf("concurrent save: %d", c)
		}
	}
	if n := mr.changed.Load() - before; n != 50 {
		t.Errorf("the pages were re-rendered %d times for 50 saves", n)
	}
	m, _ = mr.store.GetMedia(t.Context(), it.ID)
	var a, b int
	fmt.Sscanf(m.Caption, "Save %d caption", &a)
	fmt.Sscanf(m.Alt, "Save %d alt", &b)
	if a != b || !strings.HasPrefix(m.Caption, "Save ") {
		t.Errorf("after 50 saves: %q with %q", m.Caption, m.Alt)
	}
	// Clearing the alt text brings back the default, which names the
	// project, not the file.
	r = mr.json(t, "PATCH", "/api/admin/media/"+it.ID, map[string]string{"caption": "", "alt": "  "})
	it = item(t, r)
	if r.StatusCode != 200 || it.Alt != "Kitchen Dry Out project photo" || !it.AltDefault || it.Caption != "" {
		t.Errorf("cleared: %d %+v", r.StatusCode, it)
	}
}

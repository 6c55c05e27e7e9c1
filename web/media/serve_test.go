package media

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/web/media/mediatest"
)

// TestUploadPolyglotsNeverServedAsScript: files that pass for a photo or
// video by their first bytes but carry HTML or script, named .html, .js or
// .svg, are refused or stored under the sniffed type's extension and
// served as that type, sandboxed; never as HTML, JavaScript or SVG from
// the site's own origin.
func TestUploadPolyglotsNeverServedAsScript(t *testing.T) {
	t.Parallel()
	r := newRoom(t)
	script := []byte("<html><body><script>alert(document.domain)</script></body></html>")
	gifPolyglot := append(testGIF(t), script...)
	ftypHTML := append(append([]byte{0, 0, 0, 0x18}, "ftypisom\x00\x00\x02\x00isomiso2"...), script...)
	ftypJS := append(append([]byte{0, 0, 0, 0x18}, "ftypmp42\x00\x00\x00\x00mp42isom"...), "alert(document.domain)//"...)
	ftypJS = append(ftypJS, bytes.Repeat([]byte("/* padding */"), 10000)...) // longer than the peeked prefix
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>`)
	cases := []struct {
		file    string
		content []byte
		stored  string // the sniffed type it may be stored and served as; "" if it must be refused
	}{
		{"x.html", gifPolyglot, "image/gif"},
		{"x.js", gifPolyglot, "image/gif"},
		{"x.svg", gifPolyglot, "image/gif"},
		{"x.html", ftypHTML, ""},
		{"x.js", ftypJS, ""},
		{"x.svg", svg, ""},
		{"x.gif", svg, ""},
		{"x.html", append([]byte("GIF89a"), script...), ""}, // a GIF header only: nonsense dimensions, no image
	}
	for _, c := range cases {
		res := r.upload(t, "Polyglot", c.file, c.content)
		if c.stored == "" {
			switch res.StatusCode {
			case http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity, http.StatusRequestEntityTooLarge:
			default:
				t.Errorf("%s (%.12q...): %d %s, want 415, 422 or 413", c.file, c.content, res.StatusCode, res.Body)
			}
			continue
		}
		if res.StatusCode != http.StatusCreated {
			t.Errorf("%s: %d %s", c.file, res.StatusCode, res.Body)
			continue
		}
		it := item(t, res)
		if filepath.Ext(it.Path) != ".gif" {
			t.Errorf("%s stored as %s: the extension is not the sniffed type's", c.file, it.Path)
		}
		for _, method := range []string{"GET", "HEAD"} {
			got := r.serve(httptest.NewRequest(method, media.URL(it.Path), nil)) // it.URL is a variant
			if got.StatusCode != http.StatusOK {
				t.Errorf("%s %s: %d", method, it.Path, got.StatusCode)
			}
			mediatest.CheckHeaders(t, got.Header, c.stored)
		}
	}
	// Nothing with a script-capable extension reached the media folder.
	walk(filepath.Join(r.dir, "media"), func(p string) {
		switch filepath.Ext(p) {
		case ".gif", ".webp":
		default:
			t.Errorf("stored %s", p)
		}
	})
}

// TestMediaServedAsStoredType: the served type is the sniffed one in the
// media table, whatever the client's name said; variants are image/webp;
// video keeps Range support; a file with no row, or whose row's type is
// not a photo or video, is a 404.
func TestMediaServedAsStoredType(t *testing.T) {
	t.Parallel()
	r := newRoom(t)
	res := r.upload(t, "Stored Types", "photo.png", testJPEG(t, 1000, 600)) // a JPEG named .png
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", res.StatusCode, res.Body)
	}
	img := item(t, res)
	if !strings.HasSuffix(img.Path, ".jpg") {
		t.Errorf("JPEG named photo.png stored as %s", img.Path)
	}
	original := media.URL(img.Path) // img.URL is the smallest variant
	mediatest.CheckHeaders(t, r.get(original).Header, "image/jpeg")
	var vs []media.StoredVariant
	rows, _ := r.store.ListMedia(context.Background())
	json.Unmarshal([]byte(rows[0].Variants), &vs)
	if len(vs) == 0 {
		t.Fatal("no variants")
	}
	for _, v := range vs {
		vr := r.get(media.URL(v.Path))
		if vr.StatusCode != http.StatusOK || !strings.HasPrefix(vr.Body, "RIFF") {
			t.Errorf("variant %s: %d", v.Path, vr.StatusCode)
		}
		mediatest.CheckHeaders(t, vr.Header, "image/webp")
	}
	// A video named .mov with MP4 content is an .mp4, served with Range.
	res = r.upload(t, "Stored Types", "clip.mov", append(append([]byte{}, mp4Head...), make([]byte, 100_000)...))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", res.StatusCode, res.Body)
	}
	vid := item(t, res)
	if !strings.HasSuffix(vid.Path, ".mp4") {
		t.Errorf("MP4 named clip.mov stored as %s", vid.Path)
	}
	req := httptest.NewRequest("GET", vid.URL, nil)
	req.Header.Set("Range", "bytes=4-11")
	vr := r.serve(req)
	if vr.StatusCode != http.StatusPartialContent || vr.Body != "ftypisom" {
		t.Errorf("range: %d %q", vr.StatusCode, vr.Body)
	}
	mediatest.CheckHeaders(t, vr.Header, "video/mp4")

	// Files in the media folder that no row lists are not served, whatever
	// their name: a variant-looking name included.
	dir := filepath.Join(r.dir, "media", "projects", "stored-types")
	for _, name := range []string{"evil.html", "evil.js", "1700000000000-abcdefgh.jpg", strings.TrimSuffix(filepath.Base(img.Path), ".jpg") + "-999.webp"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("<script>alert(1)</script>"), 0o644); err != nil {
			t.Fatal(err)
		}
		if res := r.get("/media/projects/stored-types/" + name); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s without a media row: %d %q", name, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	// A row whose type is not a photo or video (an old or tampered row)
	// is not served either.
	if _, err := r.store.SQL().Exec(`UPDATE media SET mime = 'text/html' WHERE id = ?`, img.ID); err != nil {
		t.Fatal(err)
	}
	if res := r.get(original); res.StatusCode != http.StatusNotFound {
		t.Errorf("row typed text/html: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

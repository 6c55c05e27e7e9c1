package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/media"
)

// /media/* with every path trick: dot segments, encoded dots and
// slashes, double encoding, backslashes, NUL, overlong names; none
// reaches a file outside the media store or one without a media row.
// Range abuse on a video (hundreds of ranges, overlapping, inverted,
// beyond the end) never answers more than the file.
func TestAttackMediaPathsAndRanges(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	pin := unlock(t, h)
	video := append(append([]byte{}, mp4Head...), make([]byte, 200_000)...)
	r := upload(t, h, pin, "Range Test", "v.mp4", video)
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.StatusCode, r.Body)
	}
	var vid media.GalleryItem
	json.Unmarshal([]byte(r.Body), &vid)
	dir := strings.TrimPrefix(vid.URL, "/media/")
	dir = dir[:strings.LastIndex(dir, "/")]
	for _, p := range []string{
		"/media/../go.mod", "/media/%2e%2e/go.mod", "/media/%2E%2E%2Fgo.mod", "/media/..%2fgo.mod", "/media/%252e%252e/go.mod",
		"/media/" + dir + "/../../../go.mod", "/media/" + dir + "/%2e%2e/%2e%2e/%2e%2e/go.mod", "/media/..\\go.mod", "/media/%5c..%5cgo.mod",
		"/media/" + dir + "/x%00.mp4", "/media//etc/passwd", "/media/%2fetc%2fpasswd", "/media/" + strings.Repeat("a/", 300) + "x.jpg",
		"/media/.hidden", "/media/" + dir + "/.", "/media/", "/media", "/media/projects/range-test/",
	} {
		r := get(t, h, p)
		if r.StatusCode == 200 || r.StatusCode == 206 || strings.Contains(r.Body, "module github.com") || strings.Contains(r.Body, "root:") {
			t.Errorf("GET %s: %d", p, r.StatusCode)
		}
	}
	for _, rg := range []string{
		"bytes=" + strings.TrimSuffix(strings.Repeat("0-199999,", 400), ","),
		"bytes=" + strings.TrimSuffix(strings.Repeat("0-0,", 2000), ","),
		"bytes=" + strings.TrimSuffix(strings.Repeat("-1,", 1000), ","),
		"bytes=100-50", "bytes=999999999-", "bytes=0-99999999999999999999", "bytes=-0", "bytes=a-b", "items=0-10",
	} {
		req := httptest.NewRequest("GET", vid.URL, nil)
		req.Header.Set("Range", rg)
		r := do(t, h, req)
		// At most the file once, plus a multipart part header per range.
		if n := strings.Count(rg, ",") + 1; len(r.Body) > len(video)+200*n {
			t.Errorf("Range %.40s…: %d, %d bytes for a %d-byte file", rg, r.StatusCode, len(r.Body), len(video))
		}
		if r.StatusCode >= 500 {
			t.Errorf("Range %.40s…: %d", rg, r.StatusCode)
		}
	}
	// HEAD answers as GET, without the body.
	req := httptest.NewRequest("HEAD", vid.URL, nil)
	if r := do(t, h, req); r.StatusCode != 200 || r.Body != "" || r.Header.Get("Content-Security-Policy") == "" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("HEAD video: %d %d bytes", r.StatusCode, len(r.Body))
	}
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/web/auth"
)

const testPIN = "482915"

func adminServer(t *testing.T, env map[string]string) (*Server, *db.Store) {
	t.Helper()
	e := map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()}
	for k, v := range env {
		e[k] = v
	}
	return newTestServer(t, e)
}

func jsonReq(t *testing.T, h http.Handler, method, path, token string, body any) *response {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, r)
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.10:4000"
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, h, req)
}

func unlock(t *testing.T, h http.Handler) string {
	t.Helper()
	r := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": testPIN})
	var out struct{ Token string }
	json.Unmarshal([]byte(r.Body), &out)
	if r.StatusCode != 200 || out.Token == "" {
		t.Fatalf("unlock: %d %s", r.StatusCode, r.Body)
	}
	return out.Token
}

func TestAdminAPIRequiresToken(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/admin/sessions"}, {"GET", "/api/admin/media"}, {"POST", "/api/admin/media?project=x"},
		{"DELETE", "/api/admin/media/abc"}, {"GET", "/api/admin/settings"}, {"PUT", "/api/admin/settings"},
		{"GET", "/api/admin/routes"}, {"GET", "/api/admin/no-such-endpoint"}, {"POST", "/api/admin/indexnow/submit"},
	} {
		for _, token := range []string{"", "forged-token"} {
			r := jsonReq(t, h, c.method, c.path, token, nil)
			if r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s token=%q: %d, want 401", c.method, c.path, token, r.StatusCode)
			}
		}
	}
	tok := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != 200 {
		t.Errorf("valid token: %d", r.StatusCode)
	}
}

func TestAdminWrongPINLockout(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"ADMIN_MAX_ATTEMPTS": "3", "ADMIN_LOCKOUT": "15m"})
	h := srv.Handler()
	for i := 0; i < 3; i++ {
		r := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": "000000"})
		if r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Body, "Incorrect PIN entered.") {
			t.Fatalf("attempt %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	// Locked out: even the right PIN is refused until the window passes.
	r := jsonReq(t, h, "POST", "/api/admin/unlock", "", map[string]string{"pin": testPIN})
	if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(r.Body, "Too many incorrect PINs. Try again in 15 minutes.") || r.Header.Get("Retry-After") == "" {
		t.Fatalf("lockout: %d %s retry-after %q", r.StatusCode, r.Body, r.Header.Get("Retry-After"))
	}
}

func TestAdminTokenExpires(t *testing.T) {
	srv, _ := adminServer(t, map[string]string{"ADMIN_TOKEN_TTL": "1s"})
	h := srv.Handler()
	tok := unlock(t, h)
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != 200 {
		t.Fatalf("fresh token: %d", r.StatusCode)
	}
	time.Sleep(1100 * time.Millisecond)
	if r := jsonReq(t, h, "GET", "/api/admin/session", tok, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("expired token: %d, want 401", r.StatusCode)
	}
}

func TestGeneratedPINIsStoredHashedAndStable(t *testing.T) {
	srv, store := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
	h, err := store.GetSetting(context.Background(), auth.PINHashKey)
	if err != nil || !strings.HasPrefix(h, "$2") {
		t.Fatalf("stored hash %q err %v", h, err)
	}
	// A second server on the same database keeps the same PIN.
	srv2, err := buildServer(t, testParts{Config: srv.cfg, Store: store, Warm: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv2.Close)
	if string(srv2.auth.PINHash()) != h {
		t.Error("second boot generated another PIN")
	}
}

func TestAdminPagesAreNoindexAndLocked(t *testing.T) {
	srv, _ := adminServer(t, nil)
	for _, p := range []string{"/admin", "/admin/upload", "/admin/indexnow", "/admin/leads", "/admin/settings"} {
		r := get(t, srv.Handler(), p)
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d", p, r.StatusCode)
		}
		if !strings.Contains(metaContent(headOf(r.Doc), "name", "robots"), "noindex") {
			t.Errorf("%s is indexable", p)
		}
		txt := text(bodyOf(r.Doc))
		if !strings.Contains(txt, "Admin Access Required") || !strings.Contains(txt, "Enter your PIN to access the admin panel") {
			t.Errorf("%s: gate texts missing", p)
		}
	}
	if r := get(t, srv.Handler(), "/admin/indexnow"); !strings.Contains(r.Body, "<title data-rh=\"true\">SEO &amp; IndexNow | Admin</title>") {
		t.Error("IndexNow tab title missing")
	}
	if r := get(t, srv.Handler(), "/admin/nope"); r.StatusCode != 404 {
		t.Errorf("/admin/nope: %d", r.StatusCode)
	}
	// Admin JavaScript is not loaded by public pages.
	home := get(t, srv.Handler(), "/")
	adm := get(t, srv.Handler(), "/admin")
	homeScript := attr(find(home.Doc, func(n *html.Node) bool { return n.Data == "script" && attr(n, "data-src") != "" })[0], "data-src")
	admScript := attr(find(adm.Doc, func(n *html.Node) bool { return n.Data == "script" && attr(n, "type") == "module" })[0], "src")
	if homeScript == admScript || strings.Contains(home.Body, admScript) {
		t.Error("public page loads the admin bundle")
	}
	for _, l := range find(home.Doc, func(n *html.Node) bool {
		return n.Data == "link" && (attr(n, "rel") == "modulepreload" || attr(n, "rel") == "prefetch")
	}) {
		body := get(t, srv.Handler(), attr(l, "href")).Body
		if strings.Contains(body, "Admin Access Required") {
			t.Errorf("public page preloads admin code %s", attr(l, "href"))
		}
	}
}

// multipartBody streams a multipart body with one file part of size bytes
// whose content starts with head and continues with filler.
func multipartBody(filename string, head []byte, size int64) (io.Reader, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", filename)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		part.Write(head)
		buf := make([]byte, 1<<20)
		for left := size - int64(len(head)); left > 0; {
			n := int64(len(buf))
			if left < n {
				n = left
			}
			if _, err := part.Write(buf[:n]); err != nil {
				pw.CloseWithError(err)
				return
			}
			left -= n
		}
		mw.Close()
		pw.Close()
	}()
	return pr, mw.FormDataContentType()
}

func upload(t *testing.T, h http.Handler, token, project, filename string, content []byte) *response {
	t.Helper()
	body, ct := multipartBody(filename, content, int64(len(content)))
	req := httptest.NewRequest("POST", "/api/admin/media?project="+urlQuery(project), body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, h, req)
}

func urlQuery(s string) string {
	r := strings.NewReplacer(" ", "+", "/", "%2F", "&", "%26", "'", "%27", "#", "%23", "?", "%3F", "\\", "%5C")
	return r.Replace(s)
}

func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	return b.Bytes()
}

// mp4Head is an ftyp box, then the header of an mdat box that runs to the
// end of the file (size 0): the container check accepts what follows.
var mp4Head = append([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2\x00\x00\x00\x00mdat")...)

// A photo and a video uploaded show on the public pages, re-rendered;
// a deleted photo leaves them. (What the room stores, serves and answers
// is tested in web/media: TestUploadImageAndVideoThenDelete.)
func TestUploadsShownOnPublicPages(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	r := upload(t, h, tok, "Kitchen Fire Repair", "IMG_0042.JPG", testJPEG(t, 1200, 900))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("image upload: %d %s", r.StatusCode, r.Body)
	}
	var img media.GalleryItem
	json.Unmarshal([]byte(r.Body), &img)
	r = upload(t, h, tok, "Kitchen Fire Repair", "walkthrough.mp4", append(append([]byte{}, mp4Head...), make([]byte, 300_000)...))
	if r.StatusCode != http.StatusCreated {
		t.Fatalf("video upload: %d %s", r.StatusCode, r.Body)
	}
	// Public pages re-render with the new items.
	for _, p := range []string{"/", "/portfolio"} {
		pg := get(t, h, p)
		if !strings.Contains(text(bodyOf(pg.Doc)), "1 photo and 1 video from 1 project") {
			t.Errorf("%s does not show the uploads", p)
		}
	}
	if r := jsonReq(t, h, "DELETE", "/api/admin/media/"+img.ID, tok, nil); r.StatusCode != 200 {
		t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
	}
	if pg := get(t, h, "/portfolio"); !strings.Contains(text(bodyOf(pg.Doc)), "1 video from 1 project") {
		t.Error("portfolio not re-rendered after delete")
	}
}

func walk(dir string, f func(string)) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := dir + "/" + e.Name()
		if e.IsDir() {
			walk(p, f)
		} else {
			f(p)
		}
	}
}

// TestUploadStreamsLargeFile sends a 1 GB video through the handler and
// checks the process did not hold it: resident memory grows far less
// than the file.
func TestUploadStreamsLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1 GB")
	}
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	runtime.GC()
	base := rss()
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				if r := rss(); r > peak.Load() {
					peak.Store(r)
				}
			}
		}
	}()
	const size = 1 << 30
	body, ct := multipartBody("site-walkthrough.mp4", mp4Head, size)
	req := httptest.NewRequest("POST", "/api/admin/media?project=Large+Video", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	close(done)
	if w.Code != http.StatusCreated {
		t.Fatalf("status %d %s", w.Code, w.Body.String())
	}
	var it media.GalleryItem
	json.Unmarshal(w.Body.Bytes(), &it)
	info, err := os.Stat(srv.cfg.DataDir + "/media/" + it.Path)
	if err != nil || info.Size() != size {
		t.Fatalf("stored file: %v %v", info, err)
	}
	grew := peak.Load() - base
	t.Logf("RSS before %d MB, peak %d MB (+%d MB) for a %d MB upload", base>>20, peak.Load()>>20, grew>>20, size>>20)
	if grew > 64<<20 {
		t.Errorf("RSS grew by %d MB, want < 64 MB", grew>>20)
	}
}

func rss() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:")), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

func TestSettingsSaveRerendersPublicPages(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := settingsAdmin(t, srv, store)
	get(t, h, "/") // cached with the configured name
	bad := map[string]any{"businessName": "", "phone": "123", "address": "somewhere", "website": "nope", "officePhone": "(404) 555-0100"}
	r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, bad)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "Enter the address as: street, city, state ZIP") || !strings.Contains(r.Body, "10-digit") {
		t.Fatalf("invalid settings: %d %s", r.StatusCode, r.Body)
	}
	good := map[string]any{"businessName": "Peach State Restoration", "phone": "(404) 555-0177", "address": "100 Main St, Marietta, GA 30060",
		"website": "https://www.peachstate.example", "officePhone": "(404) 555-0177", "autoIndexNow": false, "seoMonitoring": true, "autoSchema": true, "emergencyMode": true}
	if r := jsonReq(t, h, "PUT", "/api/admin/settings", tok, good); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	got := jsonReq(t, h, "GET", "/api/admin/settings", tok, nil)
	if !strings.Contains(got.Body, `"autoIndexNow":false`) || !strings.Contains(got.Body, "Peach State Restoration") {
		t.Errorf("settings read back: %s", got.Body)
	}
	home := get(t, h, "/")
	txt := text(bodyOf(home.Doc))
	for _, want := range []string{"Peach State Restoration", "(404) 555-0177", "100 Main St, Marietta, GA 30060"} {
		if !strings.Contains(txt, want) {
			t.Errorf("home does not show %q after saving", want)
		}
	}
	if !strings.Contains(home.Body, `href="tel:+14045550177"`) {
		t.Error("tel link not updated")
	}
	if !strings.Contains(home.Body, `"url":"https://www.peachstate.example/"`) {
		t.Error("structured data url does not use the saved website")
	}
}

package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// lockedBuffer is a log sink the handler's goroutine and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// cutBody is a multipart upload whose body ends after head and pad bytes
// of the file: with err (the connection failed) or a plain EOF (the
// multipart data is cut short).
func cutBody(filename string, head []byte, pad int, err error) (io.Reader, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, _ := mw.CreateFormFile("file", filename)
		part.Write(head)
		part.Write(make([]byte, pad))
		if err != nil {
			pw.CloseWithError(err)
		} else {
			pw.Close()
		}
	}()
	return pr, mw.FormDataContentType()
}

// TestUploadInterrupted: an upload cut off mid-body is a 400 logged at
// info, not a 500 logged as an error, and leaves no partial file, no row
// and no empty project folder, for videos and photos alike; and over a
// real connection the client hanging up is handled the same way.
func TestUploadInterrupted(t *testing.T) {
	srv, store := adminServer(t, map[string]string{"ACCESS_LOG": "true"})
	logged := &lockedBuffer{}
	srv.log = NewLogger(logged, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	cases := []struct {
		name, project, file string
		head                []byte
		err                 error
	}{
		{"video, connection reset", "Cut Video", "walk.mp4", mp4Head, io.ErrUnexpectedEOF},
		{"video, multipart cut short", "Cut Video Two", "walk.mp4", mp4Head, nil},
		{"photo, connection reset", "Cut Photo", "p.jpg", testJPEG(t, 800, 600)[:2000], io.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		body, ct := cutBody(c.file, c.head, 300_000, c.err)
		req := httptest.NewRequest("POST", "/api/admin/media?project="+urlQuery(c.project), body)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+tok)
		r := do(t, h, req)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "interrupted") {
			t.Errorf("%s: %d %s", c.name, r.StatusCode, r.Body)
		}
	}

	// A real connection: the client declares 1 MB, sends part of it and
	// hangs up.
	ts := httptest.NewServer(h)
	defer ts.Close()
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	part, _ := mw.CreateFormFile("file", "walk.mp4")
	part.Write(mp4Head)
	part.Write(make([]byte, 200_000))
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /api/admin/media?project=Hung+Up HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		tok, mw.FormDataContentType(), 1<<20)
	conn.Write(mp.Bytes())
	time.Sleep(100 * time.Millisecond)
	conn.Close()
	uploadLines := func() (lines []string) {
		for _, l := range strings.Split(logged.String(), "\n") {
			if strings.Contains(l, "/api/admin/media") && strings.Contains(l, "method=POST") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	for deadline := time.Now().Add(10 * time.Second); len(uploadLines()) < 4 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}

	out, lines := logged.String(), uploadLines()
	if len(lines) != 4 {
		t.Errorf("%d upload log lines, want 4:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "level=INFO") || !strings.Contains(l, "status=400") {
			t.Errorf("interrupted upload logged as %s", l)
		}
	}
	if strings.Contains(out, "level=ERROR") {
		t.Errorf("an interrupted upload logged an error:\n%s", out)
	}
	if rows, _ := store.ListMedia(context.Background()); len(rows) != 0 {
		t.Errorf("%d rows after interrupted uploads", len(rows))
	}
	// No partial file, no empty project folder, no spooled temp file.
	walk(srv.cfg.DataDir, func(p string) { t.Errorf("file left behind: %s", p) })
	entries, _ := os.ReadDir(filepath.Join(srv.cfg.DataDir, "media", "projects"))
	for _, e := range entries {
		t.Errorf("project folder left behind: %s", e.Name())
	}
}

// endlessBody is a request body of max bytes that counts what the server
// read of it.
type endlessBody struct{ read, max int64 }

func (b *endlessBody) Read(p []byte) (int, error) {
	left := b.max - atomic.LoadInt64(&b.read)
	if left <= 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > left {
		n = left
	}
	for i := range p[:n] {
		p[i] = 'a'
	}
	atomic.AddInt64(&b.read, n)
	return int(n), nil
}

// A stranger's body to an upload path is not read before the session is
// checked: the body limit does not apply to uploads (they stream), so a
// middleware that read such a body whole would hold gigabytes in memory
// for anyone who asked. Every content type, both upload routes; and a
// session's non-multipart body is refused without being read either.
func TestAttackUploadPathBodyIsNotReadBeforeTheSession(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	const size = 64 << 20
	pin := unlock(t, h)
	for _, who := range []string{"", pin} {
		for _, c := range []struct{ method, path, ct string }{
			{"PUT", "/api/admin/media/x/poster", "application/json"},
			{"PUT", "/api/admin/media/anything/poster", "application/x-www-form-urlencoded"},
			{"PUT", "/api/admin/media/x/poster", "text/plain"},
			{"POST", "/api/admin/media", "application/json"},
			{"POST", "/api/admin/media", "application/octet-stream"},
			{"POST", "/api/admin/media", ""},
			{"POST", "/api/admin/media?project=x", "application/xml"},
		} {
			body := &endlessBody{max: size}
			req := httptest.NewRequest(c.method, c.path, body)
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			if who != "" {
				req.Header.Set("Authorization", "Bearer "+who)
			}
			r := do(t, h, req)
			if r.StatusCode < 400 {
				t.Errorf("%s %s (%s, session %v): %d", c.method, c.path, c.ct, who != "", r.StatusCode)
			}
			if who == "" && r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s (%s) without a session: %d, want 401", c.method, c.path, c.ct, r.StatusCode)
			}
			if n := atomic.LoadInt64(&body.read); n > srv.bodyLimit+64<<10 {
				t.Errorf("%s %s (%s, session %v): the server read %d MB of the body before answering %d", c.method, c.path, c.ct, who != "", n>>20, r.StatusCode)
			}
		}
	}
}

package storage

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// backends runs fn on a local folder and on S3 against an in-process fake.
func backends(t *testing.T, fn func(t *testing.T, s Storage)) {
	t.Run("local", func(t *testing.T) {
		l, err := NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		fn(t, l)
	})
	t.Run("s3", func(t *testing.T) {
		fake := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
		defer fake.Close()
		b := NewS3(S3Options{Endpoint: fake.URL, Region: "us-east-1", Bucket: "project-photos", AccessKey: "k", SecretKey: "s"})
		if err := b.EnsureBucket(context.Background()); err != nil {
			t.Fatal(err)
		}
		fn(t, b)
	})
}

func TestPutOpenRangeDelete(t *testing.T) {
	backends(t, func(t *testing.T, s Storage) {
		ctx := context.Background()
		data := bytes.Repeat([]byte("0123456789"), 2_000_000) // 20 MB: several S3 parts
		n, err := s.Put(ctx, "projects/kitchen/a.mp4", bytes.NewReader(data), "video/mp4")
		if err != nil || n != int64(len(data)) {
			t.Fatalf("put: n=%d err=%v", n, err)
		}
		o, err := s.Open(ctx, "projects/kitchen/a.mp4")
		if err != nil {
			t.Fatal(err)
		}
		defer o.Close()
		if o.Size() != int64(len(data)) {
			t.Fatalf("size %d", o.Size())
		}
		// A Range request through http.ServeContent reads only its slice.
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/x.mp4", nil)
		r.Header.Set("Range", "bytes=1000-1009")
		http.ServeContent(w, r, "a.mp4", time.Time{}, o)
		if w.Code != http.StatusPartialContent || w.Body.String() != "0123456789" || w.Header().Get("Content-Range") != "bytes 1000-1009/20000000" {
			t.Fatalf("range: %d %q %q", w.Code, w.Body.String(), w.Header().Get("Content-Range"))
		}
		if err := s.Delete(ctx, "projects/kitchen/a.mp4"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Open(ctx, "projects/kitchen/a.mp4"); !errors.Is(err, ErrNotFound) {
			t.Errorf("open after delete: %v", err)
		}
		if err := s.Delete(ctx, "projects/kitchen/a.mp4"); !errors.Is(err, ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
	})
}

func TestRejectsTraversalKeys(t *testing.T) {
	backends(t, func(t *testing.T, s Storage) {
		for _, k := range []string{"../etc/passwd", "/etc/passwd", "projects/../../x", "projects/a/../b", "projects/..hidden", "Projects/A.jpg", "projects//a", "", "projects/a\\b"} {
			if _, err := s.Put(context.Background(), k, strings.NewReader("x"), "text/plain"); !errors.Is(err, ErrBadKey) {
				t.Errorf("Put(%q) err = %v, want ErrBadKey", k, err)
			}
			if _, err := s.Open(context.Background(), k); !errors.Is(err, ErrBadKey) {
				t.Errorf("Open(%q) err = %v", k, err)
			}
		}
	})
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("connection reset")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestFailedPutLeavesNothing(t *testing.T) {
	backends(t, func(t *testing.T, s Storage) {
		ctx := context.Background()
		if _, err := s.Put(ctx, "projects/x/broken.jpg", &failingReader{n: 1 << 20}, "image/jpeg"); err == nil {
			t.Fatal("put of a failing stream succeeded")
		}
		if _, err := s.Open(ctx, "projects/x/broken.jpg"); !errors.Is(err, ErrNotFound) {
			t.Errorf("partial file visible: %v", err)
		}
	})
}

// TestFailedPutLeavesNoEmptyFolder: an upload that fails into a new
// project folder leaves no folder behind (locally; S3 has no folders, and
// TestFailedPutLeavesNothing checks no partial object remains), a failure
// next to other files keeps them, and deleting a folder's last file
// removes the folder.
func TestFailedPutLeavesNoEmptyFolder(t *testing.T) {
	root := t.TempDir()
	l, err := NewLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := l.Put(ctx, "projects/new-project/a.mp4", &failingReader{n: 1 << 20}, "video/mp4"); err == nil {
		t.Fatal("put of a failing stream succeeded")
	}
	if _, err := os.Stat(filepath.Join(root, "projects", "new-project")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty project folder left behind: %v", err)
	}
	if _, err := l.Put(ctx, "projects/kept/a.jpg", strings.NewReader("x"), "image/jpeg"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Put(ctx, "projects/kept/b.mp4", &failingReader{n: 1 << 20}, "video/mp4"); err == nil {
		t.Fatal("put of a failing stream succeeded")
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "projects", "kept")); len(entries) != 1 || entries[0].Name() != "a.jpg" {
		t.Errorf("folder after a failed put next to a file: %v", entries)
	}
	if err := l.Delete(ctx, "projects/kept/a.jpg"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "projects", "kept")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty folder left after its last file was deleted: %v", err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Errorf("root removed: %v", err)
	}
	// A folder pruned between two uploads is made again.
	if _, err := l.Put(ctx, "projects/kept/c.jpg", strings.NewReader("x"), "image/jpeg"); err != nil {
		t.Errorf("put after the folder was pruned: %v", err)
	}
}

var _ = io.EOF

// Two instances booting together both find no bucket and both create it;
// the loser's create answers 409. Both boots must succeed. A proxy in
// front of the fake answers the first HEAD of each instance 404, as if it
// had been sent before the other instance's create.
func TestEnsureBucketRaceBothSucceed(t *testing.T) {
	fake := gofakes3.New(s3mem.New()).Server()
	var mu sync.Mutex
	heads := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			// The signature names the access key, one per instance.
			_, cred, _ := strings.Cut(r.Header.Get("Authorization"), "Credential=")
			who, _, _ := strings.Cut(cred, "/")
			mu.Lock()
			heads[who]++
			first := heads[who] == 1
			mu.Unlock()
			if first {
				w.WriteHeader(http.StatusNotFound)
				return
			}
		}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, name := range []string{"A", "B"} {
		b := NewS3(S3Options{Endpoint: srv.URL, Region: "us-east-1", Bucket: "project-photos", AccessKey: name + "key", SecretKey: "s"})
		if err := b.EnsureBucket(context.Background()); err != nil {
			t.Fatalf("instance %s: %v", name, err)
		}
	}
	if heads["Bkey"] != 2 {
		t.Errorf("instance B sent %d HEADs, want 2 (before and after its refused create)", heads["Bkey"])
	}
}

// A bucket that exists but is not ours (HEAD keeps failing) is still an
// error.
func TestEnsureBucketForeignBucketFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusConflict)
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>BucketAlreadyExists</Code><Message>taken</Message></Error>`)
	}))
	defer srv.Close()
	b := NewS3(S3Options{Endpoint: srv.URL, Region: "us-east-1", Bucket: "project-photos", AccessKey: "k", SecretKey: "s"})
	if err := b.EnsureBucket(context.Background()); err == nil || !strings.Contains(err.Error(), "BucketAlreadyExists") {
		t.Fatalf("EnsureBucket on a foreign bucket: %v, want BucketAlreadyExists", err)
	}
}

// List gives every stored key under a prefix with its size, on both
// backends, and never a file still being written.
func TestList(t *testing.T) {
	backends(t, func(t *testing.T, s Storage) {
		ctx := context.Background()
		for key, body := range map[string]string{"projects/a/1.jpg": "one", "projects/a/2.jpg": "two!", "projects/b/3.jpg": "3", "backups/x/manifest.json": "{}"} {
			if _, err := s.Put(ctx, key, strings.NewReader(body), "image/jpeg"); err != nil {
				t.Fatal(err)
			}
		}
		if l, ok := s.(*Local); ok {
			// An upload under way.
			os.WriteFile(filepath.Join(l.root, "projects", "a", ".upload-123"), []byte("partial"), 0o644)
		}
		got := map[string]int64{}
		err := s.(Lister).List(ctx, "projects/", func(key string, size int64) error {
			got[key] = size
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"projects/a/1.jpg": 3, "projects/a/2.jpg": 4, "projects/b/3.jpg": 1}
		if len(got) != len(want) {
			t.Fatalf("listed %v", got)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %d, want %d (%v)", k, got[k], v, got)
			}
		}
		n := 0
		s.(Lister).List(ctx, "projects/a/", func(string, int64) error { n++; return nil })
		if n != 2 {
			t.Errorf("projects/a/: %d keys", n)
		}
		s.(Lister).List(ctx, "nothing/", func(string, int64) error { n++; return nil })
		if n != 2 {
			t.Errorf("an empty prefix listed something")
		}
	})
}

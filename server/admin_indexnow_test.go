package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
)

const testIndexNowKey = "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6"

// IndexNow across rooms: the guards, and the key file among the site's
// pages. What the room answers (keys, submissions, IndexNow's failures)
// is tested in web/indexnow/indexnow_test.go.

func TestIndexNowRequiresToken(t *testing.T) {
	fake := indexnowtest.New(t, 200)
	srv, _ := adminServer(t, map[string]string{"INDEXNOW_ENDPOINT": fake.URL})
	h := srv.Handler()
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/admin/indexnow/key", nil},
		{"PUT", "/api/admin/indexnow/key", map[string]string{"key": testIndexNowKey}},
		{"POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{testBase + "/"}, "apiKey": testIndexNowKey}},
	} {
		for _, tok := range []string{"", "forged"} {
			if r := jsonReq(t, h, c.method, c.path, tok, c.body); r.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s token=%q: %d, want 401", c.method, c.path, tok, r.StatusCode)
			}
		}
	}
	if n := len(fake.Calls()); n != 0 {
		t.Errorf("IndexNow called %d times without a token", n)
	}
	// Nothing was stored: no key file.
	if r := get(t, h, "/"+testIndexNowKey+".txt"); r.StatusCode != http.StatusNotFound {
		t.Errorf("key file without a saved key: %d, want 404", r.StatusCode)
	}
}

func TestIndexNowKeyFile(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	// Before a key is saved, key-shaped names are ordinary 404s.
	if r := get(t, h, "/"+testIndexNowKey+".txt"); r.StatusCode != http.StatusNotFound {
		t.Fatalf("key file before saving: %d", r.StatusCode)
	}
	if r := jsonReq(t, h, "PUT", "/api/admin/indexnow/key", tok, map[string]string{"key": testIndexNowKey}); r.StatusCode != 200 {
		t.Fatalf("save key: %d %s", r.StatusCode, r.Body)
	}
	r := get(t, h, "/"+testIndexNowKey+".txt")
	if r.StatusCode != 200 || r.Body != testIndexNowKey || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("key file: %d %q %s", r.StatusCode, r.Body, r.Header.Get("Content-Type"))
	}
	if r.Header.Get("Content-Security-Policy") == "" {
		t.Error("key file lacks the security headers")
	}
	if r := do(t, h, httptest.NewRequest("HEAD", "/"+testIndexNowKey+".txt", nil)); r.StatusCode != 200 {
		t.Errorf("HEAD key file: %d", r.StatusCode)
	}
	// Other names, and the key without .txt, are not the key file.
	for _, p := range []string{"/" + strings.ToUpper(testIndexNowKey) + ".txt", "/abcdefgh12345678.txt", "/" + testIndexNowKey, "/x/" + testIndexNowKey + ".txt"} {
		if r := get(t, h, p); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, r.StatusCode)
		}
	}
	if r := do(t, h, httptest.NewRequest("POST", "/"+testIndexNowKey+".txt", nil)); r.StatusCode == 200 {
		t.Error("POST answered the key file")
	}
	// The page catch-all and the generated files still work.
	for _, p := range []string{"/", "/contact", "/services", "/robots.txt", "/sitemap.xml", "/admin/indexnow"} {
		r := get(t, h, p)
		if r.StatusCode != 200 {
			t.Errorf("%s: %d after saving a key", p, r.StatusCode)
		}
		if p == "/contact" && (r.Doc == nil || len(find(r.Doc, tag("h1"))) != 1) {
			t.Errorf("/contact is not the contact page")
		}
	}
	if r := do(t, h, httptest.NewRequest("HEAD", "/contact", nil)); r.StatusCode != 200 {
		t.Errorf("HEAD /contact: %d", r.StatusCode)
	}
}

// The IndexNow key file answers only the key in force, only to GET and
// HEAD; a wrong guess gets exactly what any unknown page gets.
func TestAttackIndexNowKeyFileGuesses(t *testing.T) {
	const key = "a1b2c3d4e5f6a7b8"
	srv, _ := newTestServer(t, map[string]string{"INDEXNOW_KEY": key})
	h := srv.Handler()
	if r := get(t, h, "/"+key+".txt"); r.StatusCode != 200 || r.Body != key {
		t.Fatalf("the key file: %d %q", r.StatusCode, r.Body)
	}
	unknown := get(t, h, "/zzzzzzzzzzzzzzzz.txt")
	for _, p := range []string{"/a1b2c3d4e5f6a7b9.txt", "/A1B2C3D4E5F6A7B8.txt", "/a1b2c3d4e5f6a7b.txt", "/a1b2c3d4e5f6a7b8.txt/", "/a1b2c3d4e5f6a7b8.TXT",
		"/a1b2c3d4e5f6a7b8.txt%00", "/x/a1b2c3d4e5f6a7b8.txt", "/a1b2c3d4e5f6a7b8"} {
		r := get(t, h, p)
		if r.StatusCode == 200 && strings.Contains(r.Body, key) && !strings.Contains(r.Body, "<html") {
			t.Errorf("%s: served the key", p)
		}
		if r.StatusCode != unknown.StatusCode && r.StatusCode != http.StatusMovedPermanently && r.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, an unknown page gets %d", p, r.StatusCode, unknown.StatusCode)
		}
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		req := httptest.NewRequest(m, "/"+key+".txt", nil)
		if r := do(t, h, req); r.Body == key {
			t.Errorf("%s served the key", m)
		}
	}
}

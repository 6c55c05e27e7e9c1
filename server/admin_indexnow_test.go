package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/indexnow"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
)

// fakeIndexNow records what the server posts and answers with status.
type fakeIndexNow struct {
	*httptest.Server
	mu       sync.Mutex
	status   int
	payloads []indexnow.Payload
	ctype    string
}

func newFakeIndexNow(t *testing.T, status int) *fakeIndexNow {
	t.Helper()
	f := &fakeIndexNow{status: status}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p indexnow.Payload
		if r.Method != http.MethodPost || json.Unmarshal(b, &p) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.payloads = append(f.payloads, p)
		f.ctype = r.Header.Get("Content-Type")
		st := f.status
		f.mu.Unlock()
		w.WriteHeader(st)
		if st >= 300 {
			io.WriteString(w, "Key not valid")
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeIndexNow) calls() []indexnow.Payload {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]indexnow.Payload(nil), f.payloads...)
}

const testIndexNowKey = "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6"

func TestIndexNowRequiresToken(t *testing.T) {
	fake := newFakeIndexNow(t, 200)
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
	if n := len(fake.calls()); n != 0 {
		t.Errorf("IndexNow called %d times without a token", n)
	}
	// Nothing was stored: no key file.
	if r := get(t, h, "/"+testIndexNowKey+".txt"); r.StatusCode != http.StatusNotFound {
		t.Errorf("key file without a saved key: %d, want 404", r.StatusCode)
	}
}

func TestIndexNowKeyValidation(t *testing.T) {
	srv, _ := adminServer(t, nil)
	h := srv.Handler()
	tok := unlock(t, h)
	for _, bad := range []string{"", "short", strings.Repeat("a", 129), "has space in it", "under_score_key", "ключключключ", "../../etc/passwd", "abc.txt12345"} {
		r := jsonReq(t, h, "PUT", "/api/admin/indexnow/key", tok, map[string]string{"key": bad})
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "8-128 characters") {
			t.Errorf("key %q: %d %s, want 400", bad, r.StatusCode, r.Body)
		}
	}
	if r := jsonReq(t, h, "GET", "/api/admin/indexnow/key", tok, nil); r.StatusCode != 200 || !strings.Contains(r.Body, `"key":""`) {
		t.Errorf("no key stored yet: %d %s", r.StatusCode, r.Body)
	}
	for _, good := range []string{"abcd-1234", strings.Repeat("Z", 128), testIndexNowKey} {
		r := jsonReq(t, h, "PUT", "/api/admin/indexnow/key", tok, map[string]string{"key": good})
		if r.StatusCode != 200 {
			t.Errorf("key %q: %d %s, want 200", good, r.StatusCode, r.Body)
		}
	}
	r := jsonReq(t, h, "GET", "/api/admin/indexnow/key", tok, nil)
	var got struct{ Key, KeyLocation string }
	json.Unmarshal([]byte(r.Body), &got)
	if got.Key != testIndexNowKey || got.KeyLocation != testBase+"/"+testIndexNowKey+".txt" {
		t.Errorf("stored key = %+v", got)
	}
	// A bad key in a submission is refused too.
	r = jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": []string{testBase + "/"}, "apiKey": "bad key!"})
	if r.StatusCode != http.StatusBadRequest {
		t.Errorf("submit with a bad key: %d %s", r.StatusCode, r.Body)
	}
}

func TestIndexNowSubmitReachesEndpoint(t *testing.T) {
	fake := newFakeIndexNow(t, http.StatusAccepted)
	srv, _ := adminServer(t, map[string]string{"INDEXNOW_ENDPOINT": fake.URL})
	h := srv.Handler()
	tok := unlock(t, h)
	urls := []string{testBase + "/", testBase + "/contact", "/services", testBase + "/contact#form"}
	r := jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": urls, "apiKey": testIndexNowKey})
	if r.StatusCode != 200 || !strings.Contains(r.Body, `"submitted":3`) {
		t.Fatalf("submit: %d %s", r.StatusCode, r.Body)
	}
	calls := fake.calls()
	if len(calls) != 1 {
		t.Fatalf("IndexNow called %d times, want 1", len(calls))
	}
	p := calls[0]
	want := indexnow.Payload{Host: "www.example-restoration.test", Key: testIndexNowKey, KeyLocation: testBase + "/" + testIndexNowKey + ".txt",
		URLList: []string{testBase + "/", testBase + "/contact", testBase + "/services"}}
	if p.Host != want.Host || p.Key != want.Key || p.KeyLocation != want.KeyLocation || strings.Join(p.URLList, " ") != strings.Join(want.URLList, " ") {
		t.Errorf("payload = %+v\nwant      %+v", p, want)
	}
	if !strings.HasPrefix(fake.ctype, "application/json") {
		t.Errorf("content type %q", fake.ctype)
	}
	// The submitted key was stored, so its verification file is served.
	if r := get(t, h, "/"+testIndexNowKey+".txt"); r.StatusCode != 200 || r.Body != testIndexNowKey {
		t.Errorf("key file after submit: %d %q", r.StatusCode, r.Body)
	}

	// Submit All Site Pages sends every sitemap URL.
	r = jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"all": true, "apiKey": testIndexNowKey})
	if r.StatusCode != 200 {
		t.Fatalf("submit all: %d %s", r.StatusCode, r.Body)
	}
	calls = fake.calls()
	sm := srv.site.SitemapURLs()
	all := calls[len(calls)-1].URLList
	if len(all) != len(sm) || len(all) < 50 {
		t.Fatalf("submit all sent %d URLs, sitemap has %d", len(all), len(sm))
	}
	for i, u := range sm {
		if all[i] != u.Loc {
			t.Fatalf("URL %d = %s, want %s", i, all[i], u.Loc)
		}
	}
	for _, u := range all {
		if strings.Contains(u, "/admin") {
			t.Errorf("non-indexable URL submitted: %s", u)
		}
	}

	// No key at all: refused before any call.
	srv2, _ := adminServer(t, map[string]string{"INDEXNOW_ENDPOINT": fake.URL})
	tok2 := unlock(t, srv2.Handler())
	before := len(fake.calls())
	r = jsonReq(t, srv2.Handler(), "POST", "/api/admin/indexnow/submit", tok2, map[string]any{"urls": []string{testBase + "/"}})
	if r.StatusCode != http.StatusBadRequest || len(fake.calls()) != before {
		t.Errorf("submit without key: %d %s", r.StatusCode, r.Body)
	}
	// No URLs.
	r = jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": []string{" ", ""}, "apiKey": testIndexNowKey})
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "Please enter URLs to submit") {
		t.Errorf("empty URL list: %d %s", r.StatusCode, r.Body)
	}
}

func TestIndexNowRejectsForeignAndTooMany(t *testing.T) {
	fake := newFakeIndexNow(t, 200)
	srv, _ := adminServer(t, map[string]string{"INDEXNOW_ENDPOINT": fake.URL})
	h := srv.Handler()
	tok := unlock(t, h)
	for _, foreign := range []string{
		"https://evil.example.com/", "https://www.example-restoration.test.evil.com/", "http://www.example-restoration.test:8443/",
		"//evil.example.com/x", "javascript:alert(1)", "ftp://www.example-restoration.test/", "https://user@www.example-restoration.test/",
	} {
		r := jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": []string{testBase + "/", foreign}, "apiKey": testIndexNowKey})
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "Only this site's own addresses") {
			t.Errorf("%s: %d %s, want 400", foreign, r.StatusCode, r.Body)
		}
	}
	many := make([]string, indexnowweb.MaxIndexNowURLs+1)
	for i := range many {
		many[i] = "/"
	}
	r := jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": many, "apiKey": testIndexNowKey})
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "At most 10000") {
		t.Errorf("10,001 URLs: %d %s", r.StatusCode, r.Body)
	}
	if n := len(fake.calls()); n != 0 {
		t.Errorf("IndexNow called %d times for refused submissions", n)
	}
}

func TestIndexNowEndpointFailure(t *testing.T) {
	fake := newFakeIndexNow(t, http.StatusForbidden)
	srv, _ := adminServer(t, map[string]string{"INDEXNOW_ENDPOINT": fake.URL})
	h := srv.Handler()
	tok := unlock(t, h)
	r := jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": []string{testBase + "/"}, "apiKey": testIndexNowKey})
	if want := "The submission to IndexNow failed: HTTP 403 from IndexNow (key not valid: the key file was not found or does not match)."; r.StatusCode != http.StatusBadGateway || !strings.Contains(r.Body, want) {
		t.Errorf("403 from IndexNow: %d %s, want 502 naming it", r.StatusCode, r.Body)
	}
	// An unreachable endpoint is a 502 too.
	fake.Close()
	r = jsonReq(t, h, "POST", "/api/admin/indexnow/submit", tok, map[string]any{"urls": []string{testBase + "/"}, "apiKey": testIndexNowKey})
	if r.StatusCode != http.StatusBadGateway || !strings.Contains(r.Body, "The submission to IndexNow failed: connection refused.") {
		t.Errorf("unreachable IndexNow: %d %s, want 502", r.StatusCode, r.Body)
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

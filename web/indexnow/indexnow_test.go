package indexnow

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/indexnow"
	"github.com/atlanta-restoration/site/indexnow/indexnowtest"
)

const testIndexNowKey = "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6"

// A key is 8-128 letters, digits and dashes: anything else is refused,
// in a save and in a submission; a saved key is read back with the
// address of its file.
func TestIndexNowKeyValidation(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		r := newRoom(t, store, indexnowtest.New(t, http.StatusOK).URL)
		for _, bad := range []string{"", "short", strings.Repeat("a", 129), "has space in it", "under_score_key", "ключключключ", "../../etc/passwd", "abc.txt12345"} {
			res := r.call(t, "PUT", "/api/admin/indexnow/key", map[string]string{"key": bad})
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(res.Body, "8-128 characters") {
				t.Errorf("key %q: %d %s, want 400", bad, res.StatusCode, res.Body)
			}
		}
		if res := r.call(t, "GET", "/api/admin/indexnow/key", nil); res.StatusCode != 200 || !strings.Contains(res.Body, `"key":""`) {
			t.Errorf("no key stored yet: %d %s", res.StatusCode, res.Body)
		}
		for _, good := range []string{"abcd-1234", strings.Repeat("Z", 128), testIndexNowKey} {
			res := r.call(t, "PUT", "/api/admin/indexnow/key", map[string]string{"key": good})
			if res.StatusCode != 200 {
				t.Errorf("key %q: %d %s, want 200", good, res.StatusCode, res.Body)
			}
		}
		res := r.call(t, "GET", "/api/admin/indexnow/key", nil)
		var got struct{ Key, KeyLocation string }
		json.Unmarshal([]byte(res.Body), &got)
		if got.Key != testIndexNowKey || got.KeyLocation != testBase+"/"+testIndexNowKey+".txt" {
			t.Errorf("stored key = %+v", got)
		}
		// A bad key in a submission is refused too.
		res = r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{testBase + "/"}, "apiKey": "bad key!"})
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("submit with a bad key: %d %s", res.StatusCode, res.Body)
		}
	})
}

// A submission reaches IndexNow once, as JSON, with the site's host, the
// key, the key file's address and the site's own URLs (paths made
// absolute, fragments and repeats dropped); the key it carried is stored
// and its file served. Submit All Site Pages sends every sitemap URL.
// Without a key, or without URLs, nothing is sent.
func TestIndexNowSubmitReachesEndpoint(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		fake := indexnowtest.New(t, http.StatusAccepted)
		r := newRoom(t, store, fake.URL)
		urls := []string{testBase + "/", testBase + "/contact", "/services", testBase + "/contact#form"}
		res := r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": urls, "apiKey": testIndexNowKey})
		if res.StatusCode != 200 || !strings.Contains(res.Body, `"submitted":3`) {
			t.Fatalf("submit: %d %s", res.StatusCode, res.Body)
		}
		calls := fake.Calls()
		if len(calls) != 1 {
			t.Fatalf("IndexNow called %d times, want 1", len(calls))
		}
		p := calls[0]
		want := indexnow.Payload{Host: "www.example-restoration.test", Key: testIndexNowKey, KeyLocation: testBase + "/" + testIndexNowKey + ".txt",
			URLList: []string{testBase + "/", testBase + "/contact", testBase + "/services"}}
		if p.Host != want.Host || p.Key != want.Key || p.KeyLocation != want.KeyLocation || strings.Join(p.URLList, " ") != strings.Join(want.URLList, " ") {
			t.Errorf("payload = %+v\nwant      %+v", p, want)
		}
		if !strings.HasPrefix(fake.ContentType(), "application/json") {
			t.Errorf("content type %q", fake.ContentType())
		}
		// The submitted key was stored, so its verification file is served.
		if res := r.Call(t, "GET", "/"+testIndexNowKey+".txt", "", nil); res.StatusCode != 200 || res.Body != testIndexNowKey {
			t.Errorf("key file after submit: %d %q", res.StatusCode, res.Body)
		}

		// Submit All Site Pages sends every sitemap URL.
		res = r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"all": true, "apiKey": testIndexNowKey})
		if res.StatusCode != 200 {
			t.Fatalf("submit all: %d %s", res.StatusCode, res.Body)
		}
		calls = fake.Calls()
		sm := r.h.Site.SitemapURLs()
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
		r2 := newRoom(t, db.NewTestSQLite(t), fake.URL)
		before := len(fake.Calls())
		res = r2.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{testBase + "/"}})
		if res.StatusCode != http.StatusBadRequest || len(fake.Calls()) != before {
			t.Errorf("submit without key: %d %s", res.StatusCode, res.Body)
		}
		// No URLs.
		res = r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{" ", ""}, "apiKey": testIndexNowKey})
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(res.Body, "Please enter URLs to submit") {
			t.Errorf("empty URL list: %d %s", res.StatusCode, res.Body)
		}
	})
}

// Another site's addresses, or more URLs than one submission may carry,
// are refused before any call.
func TestIndexNowRejectsForeignAndTooMany(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		fake := indexnowtest.New(t, http.StatusOK)
		r := newRoom(t, store, fake.URL)
		for _, foreign := range []string{
			"https://evil.example.com/", "https://www.example-restoration.test.evil.com/", "http://www.example-restoration.test:8443/",
			"//evil.example.com/x", "javascript:alert(1)", "ftp://www.example-restoration.test/", "https://user@www.example-restoration.test/",
		} {
			res := r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{testBase + "/", foreign}, "apiKey": testIndexNowKey})
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(res.Body, "Only this site's own addresses") {
				t.Errorf("%s: %d %s, want 400", foreign, res.StatusCode, res.Body)
			}
		}
		many := make([]string, MaxIndexNowURLs+1)
		for i := range many {
			many[i] = "/"
		}
		res := r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": many, "apiKey": testIndexNowKey})
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(res.Body, "At most 10000") {
			t.Errorf("10,001 URLs: %d %s", res.StatusCode, res.Body)
		}
		if n := len(fake.Calls()); n != 0 {
			t.Errorf("IndexNow called %d times for refused submissions", n)
		}
	})
}

// IndexNow refusing a submission, or not answering, is a 502 that says
// so in plain words.
func TestIndexNowEndpointFailure(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, store *db.Store) {
		t.Parallel()
		fake := indexnowtest.New(t, http.StatusForbidden)
		r := newRoom(t, store, fake.URL)
		res := r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{testBase + "/"}, "apiKey": testIndexNowKey})
		if want := "The submission to IndexNow failed: HTTP 403 from IndexNow (key not valid: the key file was not found or does not match)."; res.StatusCode != http.StatusBadGateway || !strings.Contains(res.Body, want) {
			t.Errorf("403 from IndexNow: %d %s, want 502 naming it", res.StatusCode, res.Body)
		}
		// An unreachable endpoint is a 502 too.
		fake.Close()
		res = r.call(t, "POST", "/api/admin/indexnow/submit", map[string]any{"urls": []string{testBase + "/"}, "apiKey": testIndexNowKey})
		if res.StatusCode != http.StatusBadGateway || !strings.Contains(res.Body, "The submission to IndexNow failed: connection refused.") {
			t.Errorf("unreachable IndexNow: %d %s, want 502", res.StatusCode, res.Body)
		}
	})
}

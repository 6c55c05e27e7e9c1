package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/atlanta-restoration/site/cdnpurge"
	"github.com/atlanta-restoration/site/db"
)

// TestSitemapPurgedByTheHookWhenTheProxiesHeardFirst: an instance follows
// its own publish (applyRemote: the proxies only), and that can run
// before the publish's own purge. The proxies hear of the new sitemap
// once, and the CDN hook still does: each keeps its own record of what it
// was last told (a shared one let the first caller use the change up, so
// the CDN kept an old sitemap.xml).
func TestSitemapPurgedByTheHookWhenTheProxiesHeardFirst(t *testing.T) {
	var mu sync.Mutex
	var hooked [][]string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req cdnpurge.Request
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &req)
		mu.Lock()
		hooked = append(hooked, req.Paths)
		mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	var proxied []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		proxied = append(proxied, r.Method+" "+r.URL.Path)
		mu.Unlock()
	}))
	t.Cleanup(proxy.Close)
	jobs := &testJobs{jobs: []db.PublishedJob{}}
	e := map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir(), "CDN_PURGE_URL": hook.URL, "PROXY_PURGE_URLS": proxy.URL}
	srv, err := buildServer(t, testParts{Config: testConfig(t, e), Store: db.NewTestSQLite(t), Warm: true, Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.Cache().WarmSync(context.Background())
	before := srv.served()
	if len(before) == 0 {
		t.Fatal("nothing served before the change")
	}
	jobs.publish(mariettaJob()) // a new page: the sitemap changes
	srv.pages.RefreshLocal("job published")

	srv.purgeChanged(before, "content version 1 (notify)", 0, false) // following its own publish
	srv.purgeChanged(before, "job published", 1, true)               // the publish's own purge

	mu.Lock()
	defer mu.Unlock()
	if len(hooked) != 1 || !slices.Contains(hooked[0], "/sitemap.xml") || !slices.Contains(hooked[0], "/portfolio/marietta-kitchen-leak") {
		t.Errorf("the CDN hook heard %v; want one call with the new page and /sitemap.xml", hooked)
	}
	n := 0
	for _, p := range proxied {
		if p == "PURGE /sitemap.xml" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the proxy was asked to drop /sitemap.xml %d times, want once: %v", n, proxied)
	}
}

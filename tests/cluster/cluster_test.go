// Package cluster_test runs two instances of the real binary against one
// PostgreSQL database and one S3-compatible bucket (gofakes3, in process)
// and checks that they behave as one site. It needs PostgreSQL
// (skipped when unreachable, failed in CI) and builds bin/site itself.
package cluster_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/atlanta-restoration/site/tests/sitetest"
)

const pin = "739154"

// instance is one running site process.
type instance = sitetest.Process

var root = sitetest.Root

// cluster is two instances on one database and one bucket.
type cluster struct {
	t          *testing.T
	dsn        string
	a, b       *instance
	bin        string
	s3         *httptest.Server
	env        []string
	indexNowMu sync.Mutex
	indexNow   []string // bodies received by the fake IndexNow endpoint
	purges     []string // bodies received by the fake CDN purge hook
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	shared := sitetest.NewShared(t, "cluster")
	c := &cluster{t: t, dsn: shared.DSN, s3: shared.Bucket}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		c.indexNowMu.Lock()
		if strings.Contains(r.URL.Path, "purge") {
			c.purges = append(c.purges, string(body))
		} else {
			c.indexNow = append(c.indexNow, string(body))
		}
		c.indexNowMu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(hook.Close)

	c.bin = sitetest.Build(t)
	c.env = shared.Env("project-photos",
		"ADMIN_PIN="+pin, "ADMIN_MAX_ATTEMPTS=5", "BASE_URL=https://www.cluster-test.example", "SHUTDOWN_DRAIN=1s", "SHUTDOWN_TIMEOUT=30s",
		"INDEXNOW_ENDPOINT="+hook.URL+"/indexnow", "INDEXNOW_KEY=0123456789abcdef0123456789abcdef", "INDEXNOW_DEBOUNCE=1s",
		"CDN_PURGE_URL="+hook.URL+"/purge", "MAX_CONNS_PER_IP=0",
	)
	c.a = c.start("A")
	c.b = c.start("B")
	c.a.WaitReady(t, 60*time.Second)
	c.b.WaitReady(t, 60*time.Second)
	return c
}

func (c *cluster) start(name string) *instance {
	c.t.Helper()
	return sitetest.Start(c.t, c.bin, name, append(c.env, "DATA_DIR="+c.t.TempDir()))
}

func unlock(t *testing.T, in *instance, p string) (int, string) {
	t.Helper()
	res, err := http.Post(in.Base+"/api/admin/unlock", "application/json", strings.NewReader(`{"pin":"`+p+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ Token string }
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out.Token
}

var (
	do            = sitetest.Do
	multipartFile = sitetest.MultipartFile
)

func jpegBytes(w, h int) []byte { return sitetest.JPEG(w, h, 90) }

// ceiling is how long a test waits for what the instances signal (a
// page changed on the other instance, a purge, a submission): generous,
// as a busy machine re-renders the whole site in tens of seconds (the
// first project changes every page) where an idle one takes two.
const ceiling = 3 * time.Minute

// waitFor polls until ok or the limit passes, and returns how long it took.
func waitFor(limit time.Duration, ok func() bool) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < limit {
		if ok() {
			return time.Since(start), true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start), false
}

func TestTwoInstancesBehaveAsOneSite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	c := newCluster(t)
	_, tokA := unlock(t, c.a, pin)
	_, tokB := unlock(t, c.b, pin)
	portfolio := func(in *instance) string { _, b := do(t, "GET", in.Base+"/portfolio", "", "", nil); return b }
	if strings.Contains(portfolio(c.b), "Cluster Kitchen") {
		t.Fatal("the project exists before the upload")
	}

	// IndexNow's first run records the baseline that later changes are
	// judged against (INDEXNOW_DEBOUNCE after the boot's warm-up); an
	// upload before it would be part of the baseline and never sent.
	if _, ok := waitFor(ceiling, func() bool {
		return strings.Contains(c.a.Log.String()+c.b.Log.String(), "recorded the current version of")
	}); !ok {
		t.Fatal("IndexNow never recorded its baseline")
	}

	// The first project changes every page (the menu offers OUR WORK
	// from then on, ADR 050): it is uploaded first, and what it purged
	// and submitted is set aside once both have been heard.
	first, fct := multipartFile("first.jpg", jpegBytes(320, 240))
	if code, up := do(t, "POST", c.a.Base+"/api/admin/media?project=Cluster+First", tokA, fct, bytes.NewReader(first)); code != http.StatusCreated {
		t.Fatalf("first upload on A: %d %s", code, up)
	}
	if _, ok := waitFor(ceiling, func() bool {
		c.indexNowMu.Lock()
		defer c.indexNowMu.Unlock()
		return len(c.purges) > 0 && len(c.indexNow) > 0
	}); !ok {
		t.Fatal("the first project was never purged and submitted")
	}
	time.Sleep(3 * time.Second) // longer than INDEXNOW_DEBOUNCE
	c.indexNowMu.Lock()
	c.purges, c.indexNow = nil, nil
	c.indexNowMu.Unlock()

	// An upload on A appears on B's cached /portfolio.
	portfolio(c.b) // make sure B has it cached
	body, ct := multipartFile("kitchen.jpg", jpegBytes(640, 480))
	code, up := do(t, "POST", c.a.Base+"/api/admin/media?project=Cluster+Kitchen", tokA, ct, bytes.NewReader(body))
	if code != http.StatusCreated {
		t.Fatalf("upload on A: %d %s", code, up)
	}
	var item struct{ ID, URL string }
	json.Unmarshal([]byte(up), &item)
	took, ok := waitFor(ceiling, func() bool { return strings.Contains(portfolio(c.b), "Cluster Kitchen") })
	if !ok {
		t.Fatal("the upload on A never appeared on B's /portfolio")
	}
	t.Logf("upload on A visible on B's /portfolio after %v", took.Round(time.Millisecond))
	// The CDN purge hook hears of it once, from A, with the changed pages
	// only.
	var purge struct{ Paths []string }
	if _, ok := waitFor(ceiling, func() bool {
		c.indexNowMu.Lock()
		defer c.indexNowMu.Unlock()
		if len(c.purges) == 0 {
			return false
		}
		json.Unmarshal([]byte(c.purges[0]), &purge)
		return true
	}); !ok {
		t.Fatal("the CDN purge hook was never called")
	}
	got := strings.Join(purge.Paths, " ")
	if !strings.Contains(" "+got+" ", " / ") || !strings.Contains(got, "/portfolio") || strings.Contains(got, "/services") {
		t.Errorf("purged paths %v: want / and /portfolio, not /services", purge.Paths)
	}
	time.Sleep(time.Second)
	c.indexNowMu.Lock()
	if len(c.purges) != 1 {
		t.Errorf("%d purge calls for one upload, want 1: %v", len(c.purges), c.purges)
	}
	c.purges = nil
	c.indexNowMu.Unlock()
	// IndexNow: one submission for one change (the job runs on one
	// instance), with the changed pages only.
	var sub struct{ URLList []string }
	if _, ok := waitFor(ceiling, func() bool {
		c.indexNowMu.Lock()
		defer c.indexNowMu.Unlock()
		if len(c.indexNow) == 0 {
			return false
		}
		json.Unmarshal([]byte(c.indexNow[0]), &sub)
		return true
	}); !ok {
		t.Fatal("no IndexNow submission after the upload")
	}
	time.Sleep(3 * time.Second) // longer than INDEXNOW_DEBOUNCE: a second instance would have sent by now
	c.indexNowMu.Lock()
	if len(c.indexNow) != 1 {
		t.Errorf("%d IndexNow submissions for one upload, want 1: %v", len(c.indexNow), c.indexNow)
	}
	c.indexNowMu.Unlock()
	if u := strings.Join(sub.URLList, " "); !strings.Contains(u, "/portfolio") || strings.Contains(u, "/services") {
		t.Errorf("IndexNow urlList %v: want / and /portfolio, not /services", sub.URLList)
	}
	// B serves the file from the shared bucket, with Range support.
	req, _ := http.NewRequest("GET", c.b.Base+item.URL, nil)
	req.Header.Set("Range", "bytes=0-1")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusPartialContent {
		t.Errorf("B serving A's upload with a range: %v %v", err, res)
	} else {
		res.Body.Close()
	}

	// A delete on B disappears from A.
	if code, b := do(t, "DELETE", c.b.Base+"/api/admin/media/"+item.ID, tokB, "", nil); code != 200 {
		t.Fatalf("delete on B: %d %s", code, b)
	}
	took, ok = waitFor(ceiling, func() bool { return !strings.Contains(portfolio(c.a), "Cluster Kitchen") })
	if !ok {
		t.Fatal("the delete on B never reached A's /portfolio")
	}
	t.Logf("delete on B gone from A's /portfolio after %v", took.Round(time.Millisecond))

	// A settings save on A changes B's home page.
	_, cur := do(t, "GET", c.a.Base+"/api/admin/settings", tokA, "", nil)
	var st map[string]any
	json.Unmarshal([]byte(cur), &st)
	if s, ok := st["settings"].(map[string]any); ok {
		st = s
	}
	st["businessName"] = "Clustered Restoration Co"
	nb, _ := json.Marshal(st)
	// The PIN reads the settings; an admin account changes them (ADR 039).
	owner := sitetest.AdminToken(t, c.bin, c.env, c.a.Base, "settings.owner@cluster-test.example", "the owner changes the settings")
	if code, b := do(t, "PUT", c.a.Base+"/api/admin/settings", owner, "application/json", bytes.NewReader(nb)); code != 200 {
		t.Fatalf("settings save on A: %d %s", code, b)
	}
	took, ok = waitFor(ceiling, func() bool {
		_, b := do(t, "GET", c.b.Base+"/", "", "", nil)
		return strings.Contains(b, "Clustered Restoration Co")
	})
	if !ok {
		t.Fatal("the settings save on A never reached B's home page")
	}
	t.Logf("settings save on A visible on B's home after %v", took.Round(time.Millisecond))

	// Wrong PINs count across instances: 3 on A and 3 on B hit the limit of 5.
	var codes []int
	for i := 0; i < 6; i++ {
		in := c.a
		if i%2 == 1 {
			in = c.b
		}
		code, _ := unlock(t, in, "000000")
		codes = append(codes, code)
	}
	if fmt.Sprint(codes) != "[401 401 401 401 401 429]" {
		t.Errorf("6 wrong PINs split across A and B: %v, want the 6th refused", codes)
	}
	if code, _ := unlock(t, c.a, pin); code != http.StatusTooManyRequests {
		t.Errorf("right PIN on A after the shared lockout: %d", code)
	}

	// Both instances report one content version and a live listener.
	var ha, hb struct {
		Content struct {
			Version   int64
			Listening bool
		}
	}
	_, ja := do(t, "GET", c.a.Base+"/healthz", "", "", nil)
	_, jb := do(t, "GET", c.b.Base+"/healthz", "", "", nil)
	json.Unmarshal([]byte(ja), &ha)
	json.Unmarshal([]byte(jb), &hb)
	if ha.Content.Version == 0 || ha.Content.Version != hb.Content.Version || !ha.Content.Listening || !hb.Content.Listening {
		t.Errorf("health: A %s B %s", ja, jb)
	}
}

// A rolling restart: SIGTERM to A while a stream of requests (and a slow
// upload, and a few leads) goes through a load balancer that follows the
// readiness check. No request fails, the upload completes, every lead
// lands once.
func TestRollingRestartLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	c := newCluster(t)
	lb := newBalancer(c.a, c.b)
	defer lb.stop()
	_, tokA := unlock(t, c.a, pin)

	ctx, cancel := context.WithCancel(context.Background())
	var total, failed atomic.Int64
	var failures sync.Map
	var wg sync.WaitGroup
	paths := []string{"/", "/services", "/portfolio", "/blog", "/service-areas", "/contact"}
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				code, err := lb.get(paths[(i+w)%len(paths)])
				total.Add(1)
				if err != nil || code != 200 {
					failed.Add(1)
					failures.Store(fmt.Sprint(code, err), true)
				}
			}
		}(w)
	}

	// A slow upload to A that is still arriving when A is told to stop.
	body, ct := multipartFile("slow.jpg", jpegBytes(800, 600))
	upload := make(chan string, 1)
	go func() {
		conn, err := net.Dial("tcp", strings.TrimPrefix(c.a.Base, "http://"))
		if err != nil {
			upload <- err.Error()
			return
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /api/admin/media?project=Rolling+Restart HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", tokA, ct, len(body))
		chunk := len(body) / 20
		for i := 0; i < len(body); i += chunk {
			conn.Write(body[i:min(i+chunk, len(body))])
			time.Sleep(100 * time.Millisecond)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			upload <- err.Error()
			return
		}
		upload <- res.Status
	}()

	time.Sleep(700 * time.Millisecond)
	c.a.Cmd.Process.Signal(syscall.SIGTERM)
	// Leads submitted while A drains and stops.
	var leadCodes []int
	for i := 0; i < 4; i++ {
		form := url.Values{"name": {fmt.Sprintf("Rolling Lead %d", i)}, "phone": {"(770) 555-01" + fmt.Sprintf("%02d", 40+i)}, "city": {"Marietta"}, "damageType": {"Water Damage"}, "emergency": {"no"}}
		code, _ := lb.post("/api/estimate", form)
		leadCodes = append(leadCodes, code)
		time.Sleep(400 * time.Millisecond)
	}
	select {
	case err := <-c.a.Done():
		t.Logf("A exited: %v", err)
	case <-time.After(40 * time.Second):
		t.Fatal("A did not exit after SIGTERM")
	}
	time.Sleep(300 * time.Millisecond)
	cancel()
	wg.Wait()
	if got := <-upload; !strings.HasPrefix(got, "201") {
		t.Errorf("the upload in flight during shutdown: %s", got)
	}
	if failed.Load() != 0 {
		var fs []string
		failures.Range(func(k, _ any) bool { fs = append(fs, k.(string)); return true })
		t.Errorf("%d of %d requests failed during the rolling restart: %v", failed.Load(), total.Load(), fs)
	}
	t.Logf("%d requests during the restart, %d failed; A served %d after SIGTERM", total.Load(), failed.Load(), lb.servedAfterStop.Load())
	for _, code := range leadCodes {
		if code < 200 || code > 299 {
			t.Errorf("lead submissions: %v", leadCodes)
			break
		}
	}
	x, err := sqlx.Connect("postgres", c.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var n int
	x.Get(&n, `SELECT COUNT(*) FROM avatar_leads WHERE first_name LIKE 'Rolling%'`)
	if n != 4 {
		t.Errorf("%d leads stored, want 4", n)
	}
}

// balancer is a minimal load balancer: round robin over the instances
// whose readiness check passes (polled every 100 ms), retrying a request
// on the other instance when a connection cannot be made, as real load
// balancers do.
type balancer struct {
	ins             []*instance
	ready           []atomic.Bool
	next            atomic.Int64
	stopc           chan struct{}
	client          *http.Client
	servedAfterStop atomic.Int64
}

func newBalancer(ins ...*instance) *balancer {
	b := &balancer{ins: ins, ready: make([]atomic.Bool, len(ins)), stopc: make(chan struct{}),
		client: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
	check := func() {
		for i, in := range b.ins {
			res, err := http.Get(in.Base + "/healthz?ready=1")
			ok := err == nil && res.StatusCode == 200
			if res != nil {
				res.Body.Close()
			}
			b.ready[i].Store(ok)
		}
	}
	check()
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.stopc:
				return
			case <-t.C:
				check()
			}
		}
	}()
	return b
}

func (b *balancer) stop() { close(b.stopc) }

func (b *balancer) pick() []int {
	start := int(b.next.Add(1))
	var order []int
	for i := range b.ins {
		j := (start + i) % len(b.ins)
		if b.ready[j].Load() {
			order = append(order, j)
		}
	}
	for i := range b.ins { // unready ones last, in case every check is stale
		j := (start + i) % len(b.ins)
		if !b.ready[j].Load() {
			order = append(order, j)
		}
	}
	return order
}

func (b *balancer) send(mk func(base string) *http.Request) (int, error) {
	var lastErr error
	for _, i := range b.pick() {
		res, err := b.client.Do(mk(b.ins[i].Base))
		if err != nil {
			lastErr = err // connection refused or reset: try the next one
			continue
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if !b.ready[i].Load() {
			b.servedAfterStop.Add(1)
		}
		return res.StatusCode, nil
	}
	return 0, lastErr
}

func (b *balancer) get(path string) (int, error) {
	return b.send(func(base string) *http.Request { r, _ := http.NewRequest("GET", base+path, nil); return r })
}

// post sends a form. Only connection failures are retried elsewhere: a
// request that reached an instance is never sent twice.
func (b *balancer) post(path string, form url.Values) (int, error) {
	return b.send(func(base string) *http.Request {
		r, _ := http.NewRequest("POST", base+path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Accept", "application/json")
		return r
	})
}

// A post an editor publishes on A is served by B within 2 s, with the
// lists that show it; IndexNow hears of the changed URLs only; renamed on
// B, its old address answers 301 on A.
func TestPublishReachesEveryInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	c := newCluster(t)
	email, password := "writer@cluster-test.example", "shared content, one truth"
	add := exec.Command(c.bin, "user", "add", "--email", email, "--role", "editor", "--name", "Cluster Editor")
	add.Dir, add.Env, add.Stdin = root, append(os.Environ(), c.env...), strings.NewReader(password+"\n")
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("user add: %v %s", err, out)
	}
	signIn := func(in *instance) string {
		res, err := http.Post(in.Base+"/api/admin/login", "application/json", strings.NewReader(`{"email":"`+email+`","password":"`+password+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		for _, ck := range res.Cookies() {
			if strings.HasSuffix(ck.Name, "admin_session") {
				return ck.Value
			}
		}
		t.Fatalf("sign in on %s: %d", in.Name, res.StatusCode)
		return ""
	}
	tokA, tokB := signIn(c.a), signIn(c.b)
	get := func(in *instance, path string) (int, string) { return do(t, "GET", in.Base+path, "", "", nil) }
	for _, p := range []string{"/blog", "/services/roof-repair"} { // cached on B
		get(c.b, p)
	}
	// What IndexNow heard before the publish.
	time.Sleep(2 * time.Second)
	c.indexNowMu.Lock()
	before := len(c.indexNow)
	c.indexNowMu.Unlock()

	post := map[string]any{"slug": "cluster-post", "title": "A Post Published Across The Cluster", "excerpt": "One instance publishes, the other serves it.",
		"content": "## What happened\nIt was published on A.", "category": "restoration", "publishDate": "2026-11-26", "readTime": 2, "featured": false,
		"seoTitle": "A Post Published Across The Cluster", "metaDescription": "A post published on one instance of the site and served by the other within two seconds, with the blog's lists.", "keywords": []string{}}
	body, _ := json.Marshal(map[string]any{"kind": "article", "data": post})
	code, out := do(t, "POST", c.a.Base+"/api/admin/content", tokA, "application/json", bytes.NewReader(body))
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, out)
	}
	var it struct {
		ID      string
		Version int
	}
	json.Unmarshal([]byte(out), &it)
	pub, _ := json.Marshal(map[string]any{"version": it.Version})
	start := time.Now()
	if code, out := do(t, "POST", c.a.Base+"/api/admin/content/"+it.ID+"/publish", tokA, "application/json", bytes.NewReader(pub)); code != 200 {
		t.Fatalf("publish: %d %s", code, out)
	}
	took, ok := waitFor(ceiling, func() bool {
		code, _ := get(c.b, "/blog/cluster-post")
		_, list := get(c.b, "/blog")
		return code == 200 && strings.Contains(list, "/blog/cluster-post")
	})
	if !ok {
		t.Fatal("the post published on A never reached B")
	}
	// How long it took is a measurement, not an assertion: both instances
	// crawl themselves at boot, and beside the browser tests a loaded
	// machine took 2.3-5.1 s where a quiet one takes under 1 s. The
	// ceiling above is what the test asserts; run it alone to measure
	// (go test -count=1 -run TestPublishReachesEveryInstance -v ./tests/cluster/).
	t.Logf("publish on A served by B (the post and /blog) after %v (seen by B's poll after %v)", time.Since(start).Round(time.Millisecond), took.Round(time.Millisecond))
	// IndexNow: the post and the lists that changed, not the pages that did not.
	var urls []string
	waitFor(ceiling, func() bool {
		c.indexNowMu.Lock()
		defer c.indexNowMu.Unlock()
		urls = nil
		for _, b := range c.indexNow[before:] {
			var p struct{ URLList []string }
			json.Unmarshal([]byte(b), &p)
			urls = append(urls, p.URLList...)
		}
		return strings.Contains(strings.Join(urls, " "), "/blog/cluster-post")
	})
	all := " " + strings.Join(urls, " ") + " "
	if !strings.Contains(all, "/blog/cluster-post ") || !strings.Contains(all, "/blog ") || strings.Contains(all, "/services/roof-repair ") {
		t.Errorf("IndexNow after the publish: %v", urls)
	}
	// Renamed on B: A answers 301 from the old address.
	_, cur := do(t, "GET", c.b.Base+"/api/admin/content/"+it.ID, tokB, "", nil)
	json.Unmarshal([]byte(cur), &it)
	post["slug"] = "cluster-post-renamed"
	body, _ = json.Marshal(map[string]any{"version": it.Version, "data": post})
	code, out = do(t, "PUT", c.b.Base+"/api/admin/content/"+it.ID, tokB, "application/json", bytes.NewReader(body))
	json.Unmarshal([]byte(out), &it)
	pub, _ = json.Marshal(map[string]any{"version": it.Version})
	if code, out := do(t, "POST", c.b.Base+"/api/admin/content/"+it.ID+"/publish", tokB, "application/json", bytes.NewReader(pub)); code != 200 {
		t.Fatalf("publish the rename on B: %d %s", code, out)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if _, ok := waitFor(ceiling, func() bool {
		res, err := noFollow.Get(c.a.Base + "/blog/cluster-post")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusMovedPermanently && res.Header.Get("Location") == "/blog/cluster-post-renamed"
	}); !ok {
		t.Error("A never answered 301 from the old address")
	}
}

// Package proxy_test runs the deployment of docs/deploying.md: two
// instances of the real binary on one PostgreSQL database and one bucket
// (gofakes3, in process), behind Varnish running the repository's own
// configuration, deploy/varnish/site.vcl (ADR 068). It needs PostgreSQL
// and Varnish: Varnish is installed from Debian when missing
// (scripts/ensure-varnish.sh), and the test is skipped only when that
// cannot be done (failed with CI=true, as without PostgreSQL).
package proxy_test

import (
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
	"path/filepath"
	"regexp"
	"slices"
	"sort"
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

const (
	pin = "739154"
	// host is the public host (BASE_URL's): visitors' requests carry it,
	// and the instances' purges name it.
	host = "www.proxy-test.example"
	// drain outlasts two failed readiness probes (site.vcl: every second),
	// so the proxy stops sending an instance requests before it closes.
	drain = "5s"
)

// ceiling is how long the test waits for what it can poll: a busy
// machine boots an instance in a minute and more where a quiet one takes
// seconds.
const ceiling = 3 * time.Minute

var root = sitetest.Root

// waitFor polls ok every 20 ms until it holds or limit passes, and
// returns how long it took.
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

// varnishd finds Varnish, installing it from Debian when missing.
func varnishd(t *testing.T) string {
	t.Helper()
	find := func() string {
		if p, err := exec.LookPath("varnishd"); err == nil {
			return p
		}
		if _, err := os.Stat("/usr/sbin/varnishd"); err == nil {
			return "/usr/sbin/varnishd"
		}
		return ""
	}
	if p := find(); p != "" {
		return p
	}
	out, err := exec.Command("bash", filepath.Join(root, "scripts", "ensure-varnish.sh")).CombinedOutput()
	if p := find(); err == nil && p != "" {
		return p
	}
	msg := fmt.Sprintf("Varnish is not installed and scripts/ensure-varnish.sh could not install it (%v): %s", err, strings.TrimSpace(string(out)))
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// proxy is one varnishd running deploy/varnish/site.vcl.
type proxy struct {
	t    *testing.T
	dir  string // its -n folder
	base string // http://127.0.0.1:PORT
	log  *sitetest.Log
	cmd  *exec.Cmd
	hc   *http.Client
}

// startProxy writes backends.vcl for the instances on ports (purges
// accepted from this machine) and starts Varnish on port with the
// repository's site.vcl, which finds backends.vcl through vcl_path. The
// port is chosen before the instances start: their PROXY_PURGE_URLS
// names it.
func startProxy(t *testing.T, bin string, port int, ports ...int) *proxy {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for i, p := range ports {
		fmt.Fprintf(&b, "backend instance_%c {\n    .host = \"127.0.0.1\";\n    .port = \"%d\";\n    .probe = ready;\n}\n", 'a'+i, p)
	}
	b.WriteString("sub vcl_init {\n")
	for i := range ports {
		fmt.Fprintf(&b, "    site.add_backend(instance_%c);\n", 'a'+i)
	}
	b.WriteString("}\nacl purgers {\n    \"127.0.0.1\";\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "backends.vcl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, dir: filepath.Join(dir, "varnish"), base: fmt.Sprintf("http://127.0.0.1:%d", port), log: &sitetest.Log{},
		hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	// -F: in the foreground, so the test owns the process. -j none: no
	// privilege separation, so the varnish user needs no access to the
	// test's folders.
	p.cmd = exec.Command(bin, "-F", "-j", "none", "-n", p.dir, "-a", fmt.Sprintf("127.0.0.1:%d", port),
		"-f", filepath.Join(root, "deploy", "varnish", "site.vcl"), "-p", "vcl_path="+dir,
		"-s", "malloc,64m", "-T", "127.0.0.1:0")
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("--- varnishd ---\n%s", p.log.String())
		}
	})
	if _, ok := waitFor(ceiling, func() bool {
		select {
		case err := <-done:
			t.Fatalf("varnishd exited: %v\n%s", err, p.log.String())
		default:
		}
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			return false
		}
		c.Close()
		return true
	}); !ok {
		t.Fatalf("varnishd never listened:\n%s", p.log.String())
	}
	return p
}

// varnishadm is Varnish's control program (Debian puts it in /usr/bin).
var varnishadm = func() string {
	if p, err := exec.LookPath("varnishadm"); err == nil {
		return p
	}
	return "/usr/bin/varnishadm"
}()

// healthy reports which instances the proxy's probes find ready
// (varnishadm backend.list).
func (p *proxy) healthy() map[string]bool {
	out, err := exec.Command(varnishadm, "-n", p.dir, "backend.list").CombinedOutput()
	if err != nil {
		return nil
	}
	h := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && strings.HasPrefix(f[0], "boot.instance_") {
			h[strings.TrimPrefix(f[0], "boot.")] = slices.Contains(f, "healthy")
		}
	}
	return h
}

// waitHealth waits until the proxy sees each named instance as want.
func (p *proxy) waitHealth(want map[string]bool) {
	p.t.Helper()
	if _, ok := waitFor(ceiling, func() bool {
		h := p.healthy()
		for k, v := range want {
			if h[k] != v {
				return false
			}
		}
		return true
	}); !ok {
		p.t.Fatalf("the proxy never saw %v; it sees %v", want, p.healthy())
	}
}

// answer is what the proxy answered.
type answer struct {
	code  int
	body  string
	cache string // X-Cache: HIT, MISS, PASS, STALE, STALE-IF-ERROR
	cc    string
	age   string
	hdr   http.Header
}

// do sends one request to the proxy as a visitor of host would, with
// header pairs.
func (p *proxy) do(method, path string, body io.Reader, hdr ...string) (answer, error) {
	req, err := http.NewRequest(method, p.base+path, body)
	if err != nil {
		return answer{}, err
	}
	req.Host = host
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := p.hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, err
	}
	return answer{code: res.StatusCode, body: string(b), cache: res.Header.Get("X-Cache"), cc: res.Header.Get("Cache-Control"),
		age: res.Header.Get("Age"), hdr: res.Header}, nil
}

func (p *proxy) get(path string, hdr ...string) answer {
	p.t.Helper()
	a, err := p.do("GET", path, nil, hdr...)
	if err != nil {
		p.t.Fatalf("GET %s through the proxy: %v", path, err)
	}
	return a
}

// site is the deployment: the instances' shared environment, the proxy,
// and the CDN hook's record of the changed paths.
type site struct {
	t      *testing.T
	bin    string
	env    []string
	dsn    string
	portA  int
	portB  int
	mu     sync.Mutex
	hooked [][]string // the paths of each CDN hook call
}

func (s *site) start(name string, port int, extra ...string) *sitetest.Process {
	s.t.Helper()
	env := append(append(slices.Clone(s.env), "DATA_DIR="+s.t.TempDir()), extra...)
	return sitetest.StartOn(s.t, s.bin, name, port, env)
}

// load sends requests through the proxy from 4 loops until stopped:
// cached pages, a signed-in owner's home page (passed to an instance)
// and the reviews API (passed). Every answer must be a 200.
type load struct {
	total, failed atomic.Int64
	mu            sync.Mutex
	failures      []string
	stop          context.CancelFunc
	wg            sync.WaitGroup
}

func startLoad(p *proxy, cookie string) *load {
	ctx, cancel := context.WithCancel(context.Background())
	l := &load{stop: cancel}
	kinds := []func() (answer, error){
		func() (answer, error) { return p.do("GET", "/services", nil) },
		func() (answer, error) { return p.do("GET", "/", nil, "Cookie", cookie) },
		func() (answer, error) { return p.do("GET", "/api/reviews", nil) },
		func() (answer, error) { return p.do("GET", "/contact", nil) },
	}
	for w := 0; w < 4; w++ {
		l.wg.Add(1)
		go func(w int) {
			defer l.wg.Done()
			for i := w; ctx.Err() == nil; i++ {
				a, err := kinds[i%len(kinds)]()
				l.total.Add(1)
				if err != nil || a.code != http.StatusOK {
					l.failed.Add(1)
					l.mu.Lock()
					l.failures = append(l.failures, fmt.Sprintf("kind %d: %d %v %.80q", i%len(kinds), a.code, err, a.body))
					l.mu.Unlock()
				}
			}
		}(w)
	}
	return l
}

// end stops the loops once n more requests have been answered, and
// reports what failed.
func (l *load) end(t *testing.T, what string, n int64) {
	t.Helper()
	target := l.total.Load() + n
	waitFor(ceiling, func() bool { return l.total.Load() >= target })
	l.stop()
	l.wg.Wait()
	if l.failed.Load() != 0 {
		t.Errorf("%s: %d of %d requests through the proxy failed: %v", what, l.failed.Load(), l.total.Load(), l.failures[:min(len(l.failures), 10)])
	}
	t.Logf("%s: %d requests through the proxy, %d failed", what, l.total.Load(), l.failed.Load())
}

// stopped sends SIGTERM and waits for the exit.
func stopped(t *testing.T, in *sitetest.Process) {
	t.Helper()
	in.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-in.Done():
	case <-time.After(ceiling):
		t.Fatalf("%s did not stop", in.Name)
	}
}

var locRE = regexp.MustCompile(`<loc>([^<]+)</loc>`)

func TestVarnishInFrontOfTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers and Varnish")
	}
	begin := time.Now()
	vbin := varnishd(t)
	shared := sitetest.NewShared(t, "proxy")
	s := &site{t: t, dsn: shared.DSN, bin: sitetest.Build(t)}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Paths []string }
		json.NewDecoder(r.Body).Decode(&req)
		s.mu.Lock()
		s.hooked = append(s.hooked, req.Paths)
		s.mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	s.portA, s.portB = sitetest.FreePort(t), sitetest.FreePort(t)
	vport := sitetest.FreePort(t)
	// PROXY_PURGE_URLS needs the proxy's port before the instances
	// start, and the proxy's backends.vcl the instances' ports.
	s.env = shared.Env("proxy-photos",
		"ADMIN_PIN="+pin, "BASE_URL=https://"+host, "TRUST_PROXY=true",
		"SHUTDOWN_DRAIN="+drain, "SHUTDOWN_TIMEOUT=30s",
		"CDN_PURGE_URL="+hook.URL, fmt.Sprintf("PROXY_PURGE_URLS=http://127.0.0.1:%d", vport),
	)
	a := s.start("A", s.portA, "CDN_SMAXAGE=10m")
	b := s.start("B", s.portB, "CDN_SMAXAGE=10m")
	a.WaitReady(t, ceiling)
	b.WaitReady(t, ceiling)
	p := startProxy(t, vbin, vport, s.portA, s.portB)
	p.waitHealth(map[string]bool{"instance_a": true, "instance_b": true})
	t.Logf("two instances and the proxy ready after %v", time.Since(begin).Round(time.Millisecond))

	// The PIN's session: the load's signed-in visitor.
	var unlocked struct{ Token string }
	un, err := p.do("POST", "/api/admin/unlock", strings.NewReader(`{"pin":"`+pin+`"}`), "Content-Type", "application/json")
	if err != nil || un.code != http.StatusOK {
		t.Fatalf("unlock through the proxy: %d %v %s", un.code, err, un.body)
	}
	json.Unmarshal([]byte(un.body), &unlocked)

	t.Run("public pages are cached as the site says", func(t *testing.T) {
		first, second := p.get("/services"), p.get("/services")
		if first.code != 200 || second.code != 200 || second.cache != "HIT" || !strings.Contains(second.cc, "s-maxage=600") {
			t.Errorf("/services twice: %d %s, %d %s %q", first.code, first.cache, second.code, second.cache, second.cc)
		}
		// Campaign parameters share the page's copy.
		if ad := p.get("/services?utm_source=google&gclid=abc"); ad.cache != "HIT" || ad.body != second.body {
			t.Errorf("/services from an ad: %s", ad.cache)
		}
	})

	t.Run("the admin and every personal page are never cached", func(t *testing.T) {
		checkNeverCached(t, s, p, unlocked.Token)
	})

	t.Run("a publish through the admin API is visible through the proxy, and only the changed pages are dropped", func(t *testing.T) {
		checkPublish(t, s, p, a, b)
	})

	// One instance stopped under load: the proxy's probe takes it out
	// while it drains; a GET that still finds it closed tries the other.
	cookie := "__Host-admin_session=" + unlocked.Token
	l := startLoad(p, cookie)
	// Both instances take requests (round robin over the ready ones).
	if _, ok := waitFor(ceiling, func() bool {
		return strings.Count(a.Log.String(), "path=/api/reviews ") > 0 && strings.Count(b.Log.String(), "path=/api/reviews ") > 0
	}); !ok {
		t.Errorf("the proxy did not spread requests: A %d, B %d", strings.Count(a.Log.String(), "path=/api/reviews "), strings.Count(b.Log.String(), "path=/api/reviews "))
	}
	stopAt := time.Now()
	a.Cmd.Process.Signal(syscall.SIGTERM)
	// Leads sent while A drains and stops: each stored once.
	for i := 0; i < 3; i++ {
		form := url.Values{"name": {fmt.Sprintf("Proxy Lead%d", i)}, "phone": {fmt.Sprintf("(770) 555-01%02d", 60+i)}, "city": {"Marietta"}, "damageType": {"Water Damage"}, "emergency": {"yes"}}
		if r, err := p.do("POST", "/api/estimate", strings.NewReader(form.Encode()), "Content-Type", "application/x-www-form-urlencoded", "Accept", "application/json"); err != nil || r.code != http.StatusCreated {
			t.Errorf("lead %d through the proxy while A stops: %d %v %s", i, r.code, err, r.body)
		}
	}
	select {
	case <-a.Done():
	case <-time.After(ceiling):
		t.Fatal("A did not exit after SIGTERM")
	}
	t.Logf("A exited %v after SIGTERM", time.Since(stopAt).Round(time.Millisecond))
	l.end(t, "A stopped under load", 200)
	x, err := sqlx.Connect("postgres", s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var n int
	x.Get(&n, `SELECT COUNT(*) FROM avatar_leads WHERE first_name = 'Proxy' AND last_name LIKE 'Lead_'`)
	if n != 3 {
		t.Errorf("%d leads stored from the 3 sent while A stopped", n)
	}

	// A rolling restart with a new setting: A comes back keeping pages
	// 2 s (stale-while-revalidate 2 s too), then B stops under load.
	a2 := s.start("A2", s.portA, "CDN_SMAXAGE=2s")
	a2.WaitReady(t, ceiling)
	p.waitHealth(map[string]bool{"instance_a": true})
	l = startLoad(p, cookie)
	b.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-b.Done():
	case <-time.After(ceiling):
		t.Fatal("B did not exit after SIGTERM")
	}
	l.end(t, "B stopped under load", 200)

	t.Run("with both instances stopped, stored pages still answer", func(t *testing.T) {
		checkStaleIfError(t, s, p, a2)
	})
	t.Logf("the whole test took %v", time.Since(begin).Round(time.Millisecond))
}

func checkNeverCached(t *testing.T, s *site, p *proxy, pinToken string) {
	// The admin app's document: passed every time, and the site itself
	// forbids shared caches to keep it.
	for _, path := range []string{"/admin", "/admin/leads"} {
		for i := 0; i < 2; i++ {
			if r := p.get(path); r.code != 200 || r.cache != "PASS" || r.cc != "private, no-cache" {
				t.Errorf("GET %s (%d): %d %s %q", path, i, r.code, r.cache, r.cc)
			}
		}
	}
	// The admin API, with and without a session.
	for i := 0; i < 2; i++ {
		if r := p.get("/api/admin/session", "Authorization", "Bearer "+pinToken); r.code != 200 || r.cache != "PASS" || r.cc != "no-store" {
			t.Errorf("GET /api/admin/session (%d): %d %s %q", i, r.code, r.cache, r.cc)
		}
		if r := p.get("/api/admin/overview"); r.code != http.StatusUnauthorized || r.cache != "PASS" {
			t.Errorf("GET /api/admin/overview without a session (%d): %d %s", i, r.code, r.cache)
		}
	}
	// A public page asked for with a session cookie is the instance's.
	home := p.get("/")
	for i := 0; i < 2; i++ {
		if r := p.get("/", "Cookie", "__Host-admin_session="+pinToken); r.code != 200 || r.cache != "PASS" {
			t.Errorf("GET / with a session cookie (%d): %d %s", i, r.code, r.cache)
		}
	}
	if r := p.get("/", "Cookie", "_ga=GA1.1.1"); r.cache != "HIT" || r.body != home.body {
		t.Errorf("GET / with an analytics cookie: %s, want the stored page", r.cache)
	}
	// An answer that says no-store is never kept (search results).
	for i := 0; i < 2; i++ {
		if r := p.get("/search?q=water"); r.code != 200 || r.cache == "HIT" || !strings.Contains(r.cc, "no-store") {
			t.Errorf("GET /search?q=water (%d): %d %s %q", i, r.code, r.cache, r.cc)
		}
	}

	// A homeowner's pages: the estimate form (a POST, passed) answers
	// with the link to their booking page.
	form := url.Values{"name": {"Private Homeowner"}, "phone": {"(770) 555-0150"}, "city": {"Marietta"}, "damageType": {"Mold"}, "emergency": {"no"}}
	r, err := p.do("POST", "/api/estimate", strings.NewReader(form.Encode()), "Content-Type", "application/x-www-form-urlencoded", "Accept", "application/json")
	if err != nil || r.code != http.StatusCreated || r.cache != "PASS" {
		t.Fatalf("estimate through the proxy: %d %s %v %s", r.code, r.cache, err, r.body)
	}
	var done struct{ Booking string }
	json.Unmarshal([]byte(r.body), &done)
	my := strings.TrimSuffix(done.Booking, "/booking")
	if !strings.HasPrefix(my, "/my/") {
		t.Fatalf("no homeowner link in %s", r.body)
	}
	// An insurer's page: a link an admin issues.
	owner := sitetest.AdminToken(t, s.bin, append(slices.Clone(s.env), "DATA_DIR="+t.TempDir()), p.base, "boss@proxy-test.example", "claims shared via varnish")
	x, err := sqlx.Connect("postgres", s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var leadID string
	if err := x.Get(&leadID, `SELECT id FROM avatar_leads WHERE first_name = 'Private'`); err != nil {
		t.Fatal(err)
	}
	r, err = p.do("POST", "/api/admin/leads/"+leadID+"/links", strings.NewReader(`{"days":3}`), "Content-Type", "application/json", "Authorization", "Bearer "+owner)
	if err != nil || r.code != http.StatusCreated {
		t.Fatalf("issue an insurer's link: %d %v %s", r.code, err, r.body)
	}
	var issued struct{ URL string }
	json.Unmarshal([]byte(r.body), &issued)
	claim := strings.TrimPrefix(issued.URL, "https://"+host)
	for _, path := range []string{my, my + "/booking", my + "/files", claim, claim + "/files"} {
		for i := 0; i < 2; i++ {
			r := p.get(path)
			if r.code != 200 || r.cache != "PASS" || !strings.Contains(r.cc, "no-store") || r.hdr.Get("Age") != "0" {
				t.Errorf("GET %s (%d): %d %s %q age %s", path, i, r.code, r.cache, r.cc, r.age)
			}
		}
	}
	if r := p.get(my); !strings.Contains(r.body, "Private") {
		t.Errorf("the homeowner's page does not greet them: %.200q", r.body)
	}
}

// checkPublish publishes a post through the admin API (through the
// proxy), measures until the proxy serves it and the blog lists it, and
// checks that the proxy dropped exactly the pages whose bytes changed:
// the CDN hook's list (the site's own diff), from both instances.
func checkPublish(t *testing.T, s *site, p *proxy, a, b *sitetest.Process) {
	email, password := "writer@proxy-test.example", "cached, purged, and current"
	if code, out, errs := sitetest.Run(t, s.bin, append(slices.Clone(s.env), "DATA_DIR="+t.TempDir()), password+"\n", "user", "add", "--email", email, "--role", "editor", "--name", "Proxy Editor"); code != 0 {
		t.Fatalf("user add: %d %s %s", code, out, errs)
	}
	login, err := p.do("POST", "/api/admin/login", strings.NewReader(`{"email":"`+email+`","password":"`+password+`"}`), "Content-Type", "application/json")
	if err != nil || login.code != http.StatusOK || login.cache != "PASS" {
		t.Fatalf("sign in through the proxy: %d %s %v", login.code, login.cache, err)
	}
	token := ""
	for _, ck := range (&http.Response{Header: login.hdr}).Cookies() {
		if strings.HasSuffix(ck.Name, "admin_session") {
			token = ck.Value
		}
	}
	if token == "" {
		t.Fatalf("no session cookie: %v", login.hdr)
	}

	// Every page of the sitemap, the sitemap and robots.txt are stored.
	sm := p.get("/sitemap.xml")
	warm := []string{"/sitemap.xml", "/robots.txt"}
	for _, m := range locRE.FindAllStringSubmatch(sm.body, -1) {
		warm = append(warm, strings.TrimPrefix(m[1], "https://"+host))
	}
	if len(warm) < 50 {
		t.Fatalf("the sitemap lists %d pages", len(warm))
	}
	for _, path := range warm {
		p.get(path)
		if r := p.get(path); r.code != 200 || r.cache != "HIT" {
			t.Fatalf("%s is not stored: %d %s", path, r.code, r.cache)
		}
	}
	s.mu.Lock()
	s.hooked = nil
	s.mu.Unlock()
	logA, logB := len(a.Log.String()), len(b.Log.String())

	post := map[string]any{"slug": "proxy-post", "title": "A Post Behind The Proxy", "excerpt": "Published on one instance, served by the proxy.",
		"content": "## What happened\nIt was published behind Varnish.", "category": "restoration", "publishDate": "2026-11-26", "readTime": 2, "featured": false,
		"seoTitle": "A Post Behind The Proxy", "metaDescription": "A post published on one instance of the site and served by the caching proxy in front of both within two seconds.", "keywords": []string{}}
	body, _ := json.Marshal(map[string]any{"kind": "article", "data": post})
	r, err := p.do("POST", "/api/admin/content", bytes.NewReader(body), "Content-Type", "application/json", "Authorization", "Bearer "+token)
	if err != nil || r.code != http.StatusCreated {
		t.Fatalf("create: %d %v %s", r.code, err, r.body)
	}
	var it struct {
		ID      string
		Version int
	}
	json.Unmarshal([]byte(r.body), &it)
	pub, _ := json.Marshal(map[string]any{"version": it.Version})
	start := time.Now()
	if r, err := p.do("POST", "/api/admin/content/"+it.ID+"/publish", bytes.NewReader(pub), "Content-Type", "application/json", "Authorization", "Bearer "+token); err != nil || r.code != http.StatusOK {
		t.Fatalf("publish: %d %v %s", r.code, err, r.body)
	}
	answered := time.Since(start)
	took, ok := waitFor(ceiling, func() bool {
		return p.get("/blog/proxy-post").code == 200 && strings.Contains(p.get("/blog").body, "/blog/proxy-post")
	})
	if !ok {
		t.Fatal("the proxy never served the published post and the blog listing it")
	}
	// The pages are kept ten minutes: only the purge can have shown the
	// post this soon. The 2 s goal is measured here, not asserted (a
	// loaded machine re-renders slowly; the ceiling is the assertion).
	t.Logf("publish through the admin API: answered after %v, visible through the proxy (the post and /blog) %v later", answered.Round(time.Millisecond), took.Round(time.Millisecond))
	for i := 0; i < 5; i++ {
		if !strings.Contains(p.get("/blog").body, "/blog/proxy-post") {
			t.Fatal("the proxy went back to the old /blog")
		}
	}

	// Both instances purge: the one that published, and the other once it
	// serves the new pages.
	if _, ok := waitFor(ceiling, func() bool {
		return strings.Contains(a.Log.String()[logA:], `msg="proxies purged"`) && strings.Contains(b.Log.String()[logB:], `msg="proxies purged"`)
	}); !ok {
		t.Fatalf("both instances should purge the proxy: A %v, B %v", strings.Contains(a.Log.String()[logA:], "proxies purged"), strings.Contains(b.Log.String()[logB:], "proxies purged"))
	}
	var changed []string
	if _, ok := waitFor(ceiling, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.hooked) == 0 {
			return false
		}
		changed = slices.Concat(s.hooked...)
		return true
	}); !ok {
		t.Fatal("the CDN hook never heard of the publish")
	}
	if !slices.Contains(changed, "/blog/proxy-post") || !slices.Contains(changed, "/blog") || !slices.Contains(changed, "/sitemap.xml") || slices.Contains(changed, "/services/roof-repair") {
		t.Errorf("changed paths %v: want the post, /blog and the sitemap, not /services/roof-repair", changed)
	}
	// Now the proxy holds every stored page but those: exactly they miss.
	var missed, want []string
	for _, path := range warm {
		if path == "/blog" { // fetched again while polling
			continue
		}
		if slices.Contains(changed, path) {
			want = append(want, path)
		}
		if r := p.get(path); r.cache != "HIT" {
			missed = append(missed, path)
		}
	}
	sort.Strings(missed)
	sort.Strings(want)
	if !slices.Equal(missed, want) {
		t.Errorf("the proxy dropped %v; the pages that changed (without /blog) are %v", missed, want)
	}
	t.Logf("a publish dropped %d of %d stored pages: %v", len(missed), len(warm), missed)
}

// checkStaleIfError: pages A2 served (kept 2 s, stale-while-revalidate
// 2 s) are still answered, past both, once every instance is stopped;
// a page the proxy never stored gets its "back in a minute" page.
func checkStaleIfError(t *testing.T, s *site, p *proxy, a2 *sitetest.Process) {
	paths := []string{"/services/roof-repair", "/service-areas", "/estimate"}
	kept := map[string]string{}
	for _, path := range paths {
		// Dropped as an instance's purge would, then fetched from A2,
		// the one instance up.
		if r, err := p.do("PURGE", path, nil); err != nil || r.code != 200 {
			t.Fatalf("PURGE %s: %d %v", path, r.code, err)
		}
		r := p.get(path)
		if r.code != 200 || r.cache != "MISS" || !strings.Contains(r.cc, "s-maxage=2,") || !strings.Contains(r.cc, "stale-if-error=86400") {
			t.Fatalf("%s from A2: %d %s %q", path, r.code, r.cache, r.cc)
		}
		kept[path] = r.body
	}
	// The proxy's probes notice within seconds; until then a fetch that
	// fails sends the request back for the stored copy (vcl_synth).
	stopped(t, a2)
	// Polled until the copy is older than its TTL and its
	// stale-while-revalidate: every answer meanwhile is the stored page.
	var last answer
	if _, ok := waitFor(ceiling, func() bool {
		last = p.get(paths[0])
		if last.code != 200 || last.body != kept[paths[0]] {
			t.Fatalf("%s with every instance stopped: %d %s %.200q", paths[0], last.code, last.cache, last.body)
		}
		return last.cache == "STALE-IF-ERROR"
	}); !ok {
		t.Fatalf("%s never served past its stale-while-revalidate: %s, age %s", paths[0], last.cache, last.age)
	}
	for _, path := range paths {
		if r := p.get(path); r.code != 200 || r.cache != "STALE-IF-ERROR" || r.body != kept[path] {
			t.Errorf("%s with every instance stopped: %d %s", path, r.code, r.cache)
		}
	}
	// Pages still within their 10 minutes are plain hits.
	if r := p.get("/contact"); r.code != 200 || r.cache != "HIT" {
		t.Errorf("/contact with every instance stopped: %d %s", r.code, r.cache)
	}
	// A page never stored: the proxy's own page, with Retry-After.
	if r := p.get("/blog/category/never-stored"); r.code != http.StatusServiceUnavailable || r.hdr.Get("Retry-After") == "" || !strings.Contains(r.body, "Back in a minute") || strings.Contains(r.body, "Varnish") {
		t.Errorf("a page never stored, with every instance stopped: %d %q %.200q", r.code, r.hdr.Get("Retry-After"), r.body)
	}
	// Both back: fresh pages again.
	a3 := s.start("A3", s.portA, "CDN_SMAXAGE=10m")
	b3 := s.start("B3", s.portB, "CDN_SMAXAGE=10m")
	a3.WaitReady(t, ceiling)
	b3.WaitReady(t, ceiling)
	p.waitHealth(map[string]bool{"instance_a": true, "instance_b": true})
	if r := p.get(paths[0]); r.code != 200 || r.cache != "MISS" || !strings.Contains(r.cc, "s-maxage=600") {
		t.Errorf("%s once the instances are back: %d %s %q", paths[0], r.code, r.cache, r.cc)
	}
}

// Package drill_test is the restore drill (issue 24), run by `make test`
// through `go test ./...`: the real binary is built and started; leads,
// accounts, settings and uploads are made through it; a backup is taken
// while estimate requests keep arriving (none may fail); a restore is
// refused while the site runs; the data is lost (DATA_DIR wiped, or on
// PostgreSQL a new empty database and bucket); `site restore` brings it
// back; the site boots on it and everything is there, the media byte for
// byte. The PostgreSQL variant needs PostgreSQL and pg_dump (skipped
// without them, failed in CI).
package drill_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	_ "github.com/lib/pq"
	_ "modernc.org/sqlite"
)

const (
	pin       = "739154"
	staffMail = "crew@example.com"
	staffPass = "a long staff passphrase"
	adminMail = "owner@example.com"
	adminPass = "correct horse battery staple"
)

var root = func() string { r, _ := filepath.Abs("../.."); return r }()

// buildOnce builds the binary once for both variants.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "drill-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "site")
		cmd := exec.Command("go", "build", "-ldflags", "-X main.version=drill -X main.commit=test", "-o", binPath, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// install is one site's configuration; instance a running process of it.
type install struct {
	t   *testing.T
	bin string
	env []string
}

type instance struct {
	base string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// run runs a command of the binary to its end.
func (in *install) run(stdin string, args ...string) (int, string, string) {
	in.t.Helper()
	cmd := exec.Command(in.bin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), in.env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		in.t.Fatal(err)
	}
	return code, out.String(), errw.String()
}

// start boots the site and waits until it is ready.
func (in *install) start() *instance {
	t := in.t
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(in.bin)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), in.env...), fmt.Sprintf("PORT=%d", port))
	p := &instance{base: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, log: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("--- log ---\n%s", p.log.String())
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(p.base + "/healthz?ready=1"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return p
			}
		}
		select {
		case err := <-p.done:
			t.Fatalf("the site exited: %v\n%s", err, p.log.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("the site never became ready:\n%s", p.log.String())
	return nil
}

// stop sends SIGTERM and waits for the exit.
func (p *instance) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the site did not stop")
	}
}

func do(t *testing.T, method, u, token, ctype string, body io.Reader, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func tokenFrom(t *testing.T, body string) string {
	var out struct{ Token string }
	json.Unmarshal([]byte(body), &out)
	if out.Token == "" {
		t.Fatalf("no token in %s", body)
	}
	return out.Token
}

func jpegBytes(w, h int, shade uint8) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), shade, 255})
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	return b.Bytes()
}

func multipartFile(name string, data []byte) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	part, _ := mw.CreateFormFile("file", name)
	part.Write(data)
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// estimate posts one estimate request from its own address (TRUST_PROXY
// is on: the limits count X-Forwarded-For).
func estimate(base string, n int, name string) (int, error) {
	form := url.Values{"name": {name}, "phone": {fmt.Sprintf("(770) 555-%04d", n%10000)}, "email": {fmt.Sprintf("lead%d@example.com", n)},
		"city": {"Marietta"}, "street": {"12 Roswell St"}, "zip": {"30060"}, "damageType": {"Water Damage"}, "emergency": {"no"}, "website": {""}}
	req, _ := http.NewRequest("POST", base+"/api/estimate", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n/65536%256, n/256%256, n%256))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// made is what the drill made before the backup, to find after the
// restore.
type made struct {
	leads    []string // names
	media    map[string][]byte
	business string
}

// populate makes leads, accounts, settings and uploads through the
// running site.
func populate(t *testing.T, in *install, p *instance) made {
	t.Helper()
	m := made{media: map[string][]byte{}, business: "Drill Restoration & Rebuild"}
	for i := 0; i < 6; i++ {
		name := fmt.Sprintf("Drill Person%d", i)
		if code, err := estimate(p.base, 1000+i, name); err != nil || code != http.StatusCreated {
			t.Fatalf("estimate %d: %d %v", i, code, err)
		}
		m.leads = append(m.leads, name)
	}
	if code, out, errs := in.run(adminPass+"\n", "user", "add", "--email", adminMail, "--role", "admin", "--name", "The Owner"); code != 0 {
		t.Fatalf("user add admin: %d %s %s", code, out, errs)
	}
	if code, out, errs := in.run(staffPass+"\n", "user", "add", "--email", staffMail, "--role", "staff", "--name", "Crew"); code != 0 {
		t.Fatalf("user add staff: %d %s %s", code, out, errs)
	}
	_, body := do(t, "POST", p.base+"/api/admin/unlock", "", "application/json", strings.NewReader(`{"pin":"`+pin+`"}`))
	tok := tokenFrom(t, body)
	_, cur := do(t, "GET", p.base+"/api/admin/settings", tok, "", nil)
	var st map[string]any
	json.Unmarshal([]byte(cur), &st)
	if s, ok := st["settings"].(map[string]any); ok {
		st = s
	}
	st["businessName"] = m.business
	nb, _ := json.Marshal(st)
	if code, b := do(t, "PUT", p.base+"/api/admin/settings", tok, "application/json", bytes.NewReader(nb)); code != 200 {
		t.Fatalf("settings: %d %s", code, b)
	}
	for i, project := range []string{"Drill Kitchen", "Drill Basement"} {
		body, ct := multipartFile("photo.jpg", jpegBytes(640+i*10, 480, uint8(40*i)))
		code, up := do(t, "POST", p.base+"/api/admin/media?project="+url.QueryEscape(project), tok, ct, bytes.NewReader(body))
		if code != http.StatusCreated {
			t.Fatalf("upload: %d %s", code, up)
		}
	}
	// Every stored file (originals, variants) as the site serves it.
	_, list := do(t, "GET", p.base+"/api/admin/media", tok, "", nil)
	for _, u := range regexp.MustCompile(`/media/[a-z0-9][a-z0-9/._-]*`).FindAllString(list, -1) {
		if _, ok := m.media[u]; ok {
			continue
		}
		code, b := do(t, "GET", p.base+u, "", "", nil)
		if code != 200 {
			t.Fatalf("%s: %d", u, code)
		}
		m.media[u] = []byte(b)
	}
	if len(m.media) < 2 {
		t.Fatalf("media listed: %s", list)
	}
	return m
}

// burstDuring runs fn while estimate requests keep arriving, and checks
// that every one was stored (201).
func burstDuring(t *testing.T, base string, fn func()) (posted int64) {
	t.Helper()
	var (
		stop   atomic.Bool
		n      atomic.Int64
		failed atomic.Int64
		wg     sync.WaitGroup
	)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				i := int(n.Add(1))
				code, err := estimate(base, 20000+i, fmt.Sprintf("Burst Person%d", i))
				if err != nil || code != http.StatusCreated {
					failed.Add(1)
					t.Errorf("an estimate request during the backup: %d %v", code, err)
				}
			}
		}()
	}
	time.Sleep(200 * time.Millisecond)
	fn()
	time.Sleep(100 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d estimate requests failed during the backup", failed.Load())
	}
	return n.Load()
}

// check finds after the restore what was made before the backup.
func check(t *testing.T, p *instance, m made, leadCount func() int, wantLeads int) {
	t.Helper()
	for u, b := range m.media {
		code, got := do(t, "GET", p.base+u, "", "", nil)
		if code != 200 || !bytes.Equal([]byte(got), b) {
			t.Errorf("%s after the restore: %d, %d bytes (want %d, byte-identical)", u, code, len(got), len(b))
		}
	}
	if _, home := do(t, "GET", p.base+"/", "", "", nil); !strings.Contains(home, "Drill Restoration &amp; Rebuild") {
		t.Error("the settings (business name) are not back")
	}
	if _, portfolio := do(t, "GET", p.base+"/portfolio", "", "", nil); !strings.Contains(portfolio, "Drill Kitchen") || !strings.Contains(portfolio, "Drill Basement") {
		t.Error("the portfolio's projects are not back")
	}
	// The staff account signs in with its password and reads the leads.
	code, body := do(t, "POST", p.base+"/api/admin/login", "", "application/json", strings.NewReader(`{"email":"`+staffMail+`","password":"`+staffPass+`"}`))
	if code != 200 {
		t.Fatalf("the staff account after the restore: %d %s", code, body)
	}
	if n := leadCount(); n != wantLeads {
		t.Errorf("%d leads after the restore, want %d (the backup's)", n, wantLeads)
	}
}

// The drill on the default install: SQLite and media under DATA_DIR.
func TestRestoreDrillSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the site")
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	backups := t.TempDir()
	in := &install{t: t, bin: build(t), env: []string{"DATA_DIR=" + dataDir, "ADMIN_PIN=" + pin, "SOURCE_DIR=" + root, "TRUST_PROXY=true",
		"SSR_POOL_SIZE=1", "MAX_CONNS_PER_IP=0", "BACKUP_EVERY=0", "BACKUP_TO=" + backups, "SHUTDOWN_DRAIN=0s", "LOG_FORMAT=json"}}
	p := in.start()
	// The binary's healthcheck against the running site.
	if code, out, errs := in.run("", "healthcheck", "--url", p.base+"/healthz"); code != 0 {
		t.Errorf("healthcheck: %d %s %s", code, out, errs)
	}
	if code, _, _ := in.run("", "healthcheck", "--url", p.base+"/healthz", "--ready"); code != 0 {
		t.Errorf("healthcheck --ready: %d", code)
	}
	m := populate(t, in, p)

	// A backup while estimate requests keep arriving: none fails, and the
	// copy is consistent (the backup checks it).
	var out, errs string
	var code int
	var took time.Duration
	posted := burstDuring(t, p.base, func() {
		start := time.Now()
		code, out, errs = in.run("", "backup", "--to", backups)
		took = time.Since(start)
	})
	if code != 0 {
		t.Fatalf("backup: %d %s %s", code, out, errs)
	}
	t.Logf("backup during a burst: %v, %d estimate requests posted, all stored; %s", took.Round(time.Millisecond), posted, strings.TrimSpace(strings.Split(out, "\n")[0]))
	loc := regexp.MustCompile(`site restore (\S+)`).FindStringSubmatch(out)
	if loc == nil {
		t.Fatalf("the backup does not say how to restore it: %s", out)
	}
	from := loc[1]
	var manifest struct{ Tables map[string]int64 }
	b, err := os.ReadFile(filepath.Join(from, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &manifest)
	wantLeads := int(manifest.Tables["avatar_leads"])
	if wantLeads < len(m.leads) || wantLeads > len(m.leads)+int(posted) {
		t.Errorf("the backup holds %d leads: %d made before it, %d posted during it", wantLeads, len(m.leads), posted)
	}
	// The dashboard's last good backup.
	_, body := do(t, "POST", p.base+"/api/admin/unlock", "", "application/json", strings.NewReader(`{"pin":"`+pin+`"}`))
	if _, ov := do(t, "GET", p.base+"/api/admin/overview", tokenFrom(t, body), "", nil); !strings.Contains(ov, filepath.Base(from)) {
		t.Errorf("the dashboard does not show the backup: %s", ov)
	}

	// The site holds its database: the restore is refused.
	if code, out, errs := in.run("", "restore", from); code != 1 || !strings.Contains(errs, "restore refused") {
		t.Errorf("restore while the site runs: %d %s %s", code, out, errs)
	}
	p.stop(t)
	if code, _, _ := in.run("", "healthcheck", "--url", p.base+"/healthz", "--timeout", "2s"); code != 1 {
		t.Errorf("healthcheck of a stopped site: %d", code)
	}

	// A damaged copy is refused with a clear message.
	damaged := filepath.Join(t.TempDir(), filepath.Base(from))
	exec.Command("cp", "-r", from, damaged).Run()
	media, _ := filepath.Glob(filepath.Join(damaged, "media", "projects", "*", "*"))
	if len(media) == 0 {
		t.Fatal("no media in the backup")
	}
	f, _ := os.OpenFile(media[0], os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte("x"))
	f.Close()
	if code, _, errs := in.run("", "restore", damaged); code != 1 || !strings.Contains(errs, "the backup is damaged") || !strings.Contains(errs, "nothing was restored") {
		t.Errorf("a damaged backup: %d %s", code, errs)
	}

	// The disk is lost.
	if err := os.RemoveAll(dataDir); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, out, errs = in.run("", "restore", from)
	if code != 0 || !strings.Contains(out, "restored backup "+filepath.Base(from)) || !strings.Contains(out, fmt.Sprintf("avatar_leads %d", wantLeads)) {
		t.Fatalf("restore: %d %s %s", code, out, errs)
	}
	t.Logf("restore: %v\n%s", time.Since(start).Round(time.Millisecond), out)
	p = in.start()
	check(t, p, m, func() int { return countLeads(t, "sqlite", "file:"+filepath.Join(dataDir, "site.db")+"?mode=ro") }, wantLeads)
	p.stop(t)
}

func countLeads(t *testing.T, driver, dsn string) int {
	t.Helper()
	x, err := sqlx.Connect(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var n int
	if err := x.Get(&n, `SELECT COUNT(*) FROM avatar_leads`); err != nil {
		t.Fatal(err)
	}
	return n
}

// The drill on a cluster's install: PostgreSQL (pg_dump, pg_restore) and
// media in an S3 bucket, backups to the bucket under their own prefix;
// the database and the media bucket are lost, and a new empty database
// and bucket take the restore.
func TestRestoreDrillPostgresAndS3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the site")
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip("pg_dump not found")
	}
	admin := os.Getenv("TEST_ADMIN_DATABASE_URL")
	if admin == "" {
		admin = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	adb, err := sqlx.Connect("postgres", admin)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	defer adb.Close()
	newDB := func() string {
		b := make([]byte, 6)
		rand.Read(b)
		name := "drill_" + hex.EncodeToString(b)
		if _, err := adb.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { adb.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
		u, _ := url.Parse(admin)
		u.Path = "/" + name
		return u.String()
	}
	s3 := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	defer s3.Close()
	lost := newDB()
	env := func(dsn, bucket string) []string {
		return []string{"DATABASE_URL=" + dsn, "DATA_DIR=" + t.TempDir(), "STORAGE=s3", "S3_ENDPOINT=" + s3.URL, "S3_BUCKET=" + bucket,
			"S3_ACCESS_KEY=drill-access", "S3_SECRET_KEY=drill-secret", "BACKUP_TO=s3://drill-backups/site", "ADMIN_PIN=" + pin, "SOURCE_DIR=" + root,
			"TRUST_PROXY=true", "SSR_POOL_SIZE=1", "MAX_CONNS_PER_IP=0", "BACKUP_EVERY=0", "SHUTDOWN_DRAIN=0s"}
	}
	in := &install{t: t, bin: build(t), env: env(lost, "drill-media")}
	p := in.start()
	m := populate(t, in, p)
	var code int
	var out, errs string
	var took time.Duration
	posted := burstDuring(t, p.base, func() {
		start := time.Now()
		code, out, errs = in.run("", "backup")
		took = time.Since(start)
	})
	if code != 0 {
		t.Fatalf("backup: %d %s %s", code, out, errs)
	}
	t.Logf("backup to S3 during a burst: %v, %d posted; %s", took.Round(time.Millisecond), posted, strings.Split(out, "\n")[0])
	loc := regexp.MustCompile(`site restore (s3://\S+)`).FindStringSubmatch(out)
	if loc == nil {
		t.Fatalf("backup output: %s", out)
	}
	wantLeads := countLeadsAtBackup(t, out)
	if code, _, errs := in.run("", "restore", loc[1]); code != 1 || !strings.Contains(errs, "restore refused") {
		t.Errorf("restore while the site runs: %d %s", code, errs)
	}
	p.stop(t)

	// The database and the media bucket are gone: a new empty database
	// and a new bucket take the restore.
	fresh := &install{t: t, bin: in.bin, env: env(newDB(), "drill-media-new")}
	start := time.Now()
	code, out, errs = fresh.run("", "restore", loc[1])
	if code != 0 || !strings.Contains(out, "database: postgres") {
		t.Fatalf("restore: %d %s %s", code, out, errs)
	}
	t.Logf("restore from S3 into a new database and bucket: %v\n%s", time.Since(start).Round(time.Millisecond), out)
	dsn := strings.TrimPrefix(fresh.env[0], "DATABASE_URL=")
	p = fresh.start()
	check(t, p, m, func() int { return countLeads(t, "postgres", dsn) }, wantLeads)
	p.stop(t)
}

// countLeadsAtBackup reads the lead count from the backup's summary.
func countLeadsAtBackup(t *testing.T, out string) int {
	m := regexp.MustCompile(`(\d+) leads?`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no lead count in %q", out)
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

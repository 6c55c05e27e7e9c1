// Package drill_test is the restore drill, run by `make test`
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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
	_ "modernc.org/sqlite"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/tests/sitetest"
)

const (
	pin       = "739154"
	staffMail = "crew@example.com"
	staffPass = "a long staff passphrase"
	adminMail = "owner@example.com"
	adminPass = "correct horse battery staple"
)

var root = sitetest.Root

func build(t *testing.T) string { return sitetest.Build(t) }

// install is one site's configuration; instance a running process of it.
type install struct {
	t   *testing.T
	bin string
	env []string
}

type instance = sitetest.Process

// run runs a command of the binary to its end.
func (in *install) run(stdin string, args ...string) (int, string, string) {
	in.t.Helper()
	return sitetest.Run(in.t, in.bin, in.env, stdin, args...)
}

// start boots the site and waits until it is ready.
func (in *install) start() *instance {
	in.t.Helper()
	p := sitetest.Start(in.t, in.bin, "the site", in.env)
	p.WaitReady(in.t, 90*time.Second)
	return p
}

var do = sitetest.Do

func tokenFrom(t *testing.T, body string) string {
	var out struct{ Token string }
	json.Unmarshal([]byte(body), &out)
	if out.Token == "" {
		t.Fatalf("no token in %s", body)
	}
	return out.Token
}

var (
	jpegBytes     = sitetest.JPEG
	multipartFile = sitetest.MultipartFile
)

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
		if code, err := estimate(p.Base, 1000+i, name); err != nil || code != http.StatusCreated {
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
	_, body := do(t, "POST", p.Base+"/api/admin/unlock", "", "application/json", strings.NewReader(`{"pin":"`+pin+`"}`))
	tok := tokenFrom(t, body)
	_, cur := do(t, "GET", p.Base+"/api/admin/settings", tok, "", nil)
	var st map[string]any
	json.Unmarshal([]byte(cur), &st)
	if s, ok := st["settings"].(map[string]any); ok {
		st = s
	}
	st["businessName"] = m.business
	nb, _ := json.Marshal(st)
	// The PIN reads the settings; an admin account changes them (ADR 039).
	owner := sitetest.AdminToken(t, in.bin, in.env, p.Base, "settings.owner@drill.example", "the owner changes the settings")
	if code, b := do(t, "PUT", p.Base+"/api/admin/settings", owner, "application/json", bytes.NewReader(nb)); code != 200 {
		t.Fatalf("settings: %d %s", code, b)
	}
	for i, project := range []string{"Drill Kitchen", "Drill Basement"} {
		body, ct := multipartFile("photo.jpg", jpegBytes(640+i*10, 480, uint8(40*i)))
		code, up := do(t, "POST", p.Base+"/api/admin/media?project="+url.QueryEscape(project), tok, ct, bytes.NewReader(body))
		if code != http.StatusCreated {
			t.Fatalf("upload: %d %s", code, up)
		}
	}
	// Every stored file (originals, variants) as the site serves it.
	_, list := do(t, "GET", p.Base+"/api/admin/media", tok, "", nil)
	for _, u := range regexp.MustCompile(`/media/[a-z0-9][a-z0-9/._-]*`).FindAllString(list, -1) {
		if _, ok := m.media[u]; ok {
			continue
		}
		code, b := do(t, "GET", p.Base+u, "", "", nil)
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
		code, got := do(t, "GET", p.Base+u, "", "", nil)
		if code != 200 || !bytes.Equal([]byte(got), b) {
			t.Errorf("%s after the restore: %d, %d bytes (want %d, byte-identical)", u, code, len(got), len(b))
		}
	}
	if _, home := do(t, "GET", p.Base+"/", "", "", nil); !strings.Contains(home, "Drill Restoration &amp; Rebuild") {
		t.Error("the settings (business name) are not back")
	}
	if _, portfolio := do(t, "GET", p.Base+"/portfolio", "", "", nil); !strings.Contains(portfolio, "Drill Kitchen") || !strings.Contains(portfolio, "Drill Basement") {
		t.Error("the portfolio's projects are not back")
	}
	// The staff account signs in with its password and reads the leads.
	code, body := do(t, "POST", p.Base+"/api/admin/login", "", "application/json", strings.NewReader(`{"email":"`+staffMail+`","password":"`+staffPass+`"}`))
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
	if code, out, errs := in.run("", "healthcheck", "--url", p.Base+"/healthz"); code != 0 {
		t.Errorf("healthcheck: %d %s %s", code, out, errs)
	}
	if code, _, _ := in.run("", "healthcheck", "--url", p.Base+"/healthz", "--ready"); code != 0 {
		t.Errorf("healthcheck --ready: %d", code)
	}
	m := populate(t, in, p)

	// A backup while estimate requests keep arriving: none fails, and the
	// copy is consistent (the backup checks it).
	var out, errs string
	var code int
	var took time.Duration
	posted := burstDuring(t, p.Base, func() {
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
	_, body := do(t, "POST", p.Base+"/api/admin/unlock", "", "application/json", strings.NewReader(`{"pin":"`+pin+`"}`))
	if _, ov := do(t, "GET", p.Base+"/api/admin/overview", tokenFrom(t, body), "", nil); !strings.Contains(ov, filepath.Base(from)) {
		t.Errorf("the dashboard does not show the backup: %s", ov)
	}

	// The site holds its database: the restore is refused.
	if code, out, errs := in.run("", "restore", from); code != 1 || !strings.Contains(errs, "restore refused") {
		t.Errorf("restore while the site runs: %d %s %s", code, out, errs)
	}
	p.Stop(t)
	if code, _, _ := in.run("", "healthcheck", "--url", p.Base+"/healthz", "--timeout", "2s"); code != 1 {
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
	p.Stop(t)
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
	newDB := func() string { return db.NewTestPostgresDatabase(t, "drill") }
	s3 := sitetest.NewBucket(t)
	lost := newDB()
	env := func(dsn, bucket string) []string {
		// DATABASE_URL first: the drill reads it back from env[0].
		return append([]string{"DATABASE_URL=" + dsn, "DATA_DIR=" + t.TempDir(), "BACKUP_TO=s3://drill-backups/site", "ADMIN_PIN=" + pin, "SOURCE_DIR=" + root,
			"TRUST_PROXY=true", "SSR_POOL_SIZE=1", "MAX_CONNS_PER_IP=0", "BACKUP_EVERY=0", "SHUTDOWN_DRAIN=0s"}, sitetest.StorageEnv(s3, bucket)...)
	}
	in := &install{t: t, bin: build(t), env: env(lost, "drill-media")}
	p := in.start()
	m := populate(t, in, p)
	var code int
	var out, errs string
	var took time.Duration
	posted := burstDuring(t, p.Base, func() {
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
	p.Stop(t)

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
	p.Stop(t)
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

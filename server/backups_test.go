package server

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
	backupsweb "github.com/atlanta-restoration/site/web/backups"
)

// gatedMedia holds a backup's media listing until the test opens the
// gate, so presses of 'Back up now' land while it runs.
type gatedMedia struct {
	*storage.Local
	armed atomic.Bool
	gate  chan struct{}
}

func (g *gatedMedia) List(ctx context.Context, prefix string, fn func(string, int64) error) error {
	if g.armed.Load() {
		select {
		case <-g.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return g.Local.List(ctx, prefix, fn)
}

// backupServer is an admin server (admin, staff, editor, the PIN) whose
// media listing can be held, with a 4 MB photo to back up.
func backupServer(t *testing.T) (*Server, *db.Store, http.Handler, *gatedMedia, principals) {
	t.Helper()
	dataDir := t.TempDir()
	local, err := storage.NewLocal(filepath.Join(dataDir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	media := &gatedMedia{Local: local, gate: make(chan struct{})}
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MB
	if _, err := media.Put(context.Background(), "projects/kitchen/big-photo.jpg", bytes.NewReader(big), "image/jpeg"); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": dataDir})
	newTestServer(t, map[string]string{"ADMIN_PIN": testPIN, "DATA_DIR": t.TempDir()}) // the shared engine and content
	store := db.NewTestSQLite(t)
	srv, err := buildServer(t, testParts{Config: cfg, Store: store, Media: media})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	sc := &stepClock{t: time.Now()}
	srv.auth.SetClock(sc.Now)
	clocks.Store(srv, sc)
	addUser(t, store, adminEmail, adminPass, "admin", "The Owner")
	addUser(t, store, staffEmail, staffPass, "staff", "Crew Lead")
	h := srv.Handler()
	return srv, store, h, media, allPrincipals(t, store, h)
}

func backupList(t *testing.T, h http.Handler, tok string) backupsweb.List {
	t.Helper()
	r := jsonReq(t, h, "GET", "/api/admin/backups", tok, nil)
	var l backupsweb.List
	if err := json.Unmarshal([]byte(r.Body), &l); r.StatusCode != 200 || err != nil {
		t.Fatalf("GET /api/admin/backups: %d %s", r.StatusCode, r.Body)
	}
	return l
}

// Every backups endpoint × every caller: only an admin account; no
// session 401; the PIN, staff, an editor and a role-less account 403,
// nothing started and nothing downloaded for them.
func TestBackupsOnlyForAdmins(t *testing.T) {
	_, store, h, _, p := backupServer(t)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/admin/backups"}, {"POST", "/api/admin/backups/run"}, {"GET", "/api/admin/backups/20261127-140200/download"},
	} {
		for tok, who := range map[string]string{"": "no session", p.forged: "forged", p.totp: "totp stage", p.pin: "pin", p.staff: "staff", p.editor: "editor", p.roleless: "role-less"} {
			want := http.StatusForbidden
			if who == "no session" || who == "forged" || who == "totp stage" {
				want = http.StatusUnauthorized
			}
			if r := jsonReq(t, h, c.method, c.path, tok, nil); r.StatusCode != want {
				t.Errorf("%s %s as %s: %d %s, want %d", c.method, c.path, who, r.StatusCode, r.Body, want)
			}
		}
	}
	if runs, _ := store.RecentBackups(context.Background(), 10); len(runs) != 0 {
		t.Errorf("a refused caller started a backup: %+v", runs)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/backups", p.admin, nil); r.StatusCode != 200 {
		t.Errorf("admin: %d %s", r.StatusCode, r.Body)
	}
	if r := jsonReq(t, h, "GET", "/api/admin/backups/20261127-140200/download", p.admin, nil); r.StatusCode != 404 {
		t.Errorf("admin, unknown backup: %d %s", r.StatusCode, r.Body)
	}
}

// 8 presses of 'Back up now' at once make one backup; the others answer
// with it ("A backup is already running, started 14:02 UTC by ..."). The
// screen shows it running, then checked; it downloads as an archive
// whose files match the manifest; the start and the download are
// audited; ids that are not a backup's are refused.
func TestBackUpNowAndDownload(t *testing.T) {
	_, store, h, media, p := backupServer(t)
	ctx := context.Background()
	l := backupList(t, h, p.admin)
	if !l.SameDisk || l.Warning != backupsweb.MsgSameDisk || len(l.Backups) != 0 || l.Running != nil {
		t.Fatalf("before any backup: %+v", l)
	}
	if strings.Contains(l.Warning, "BACKUP_TO") || strings.Contains(l.Warning, "DATA_DIR") {
		t.Error("the warning names a variable")
	}
	media.armed.Store(true)
	var wg sync.WaitGroup
	answers := make([]*response, 8)
	for i := range answers {
		wg.Add(1)
		go func() { defer wg.Done(); answers[i] = jsonReq(t, h, "POST", "/api/admin/backups/run", p.admin, nil) }()
	}
	wg.Wait()
	var started backupsweb.RunAnswer
	n := 0
	for _, r := range answers {
		if r.StatusCode == http.StatusAccepted {
			n++
			json.Unmarshal([]byte(r.Body), &started)
		}
	}
	if n != 1 || started.Backup == nil || started.Backup.RequestedBy != adminEmail {
		t.Fatalf("%d presses started a backup (%+v)", n, started)
	}
	for _, r := range answers {
		if r.StatusCode == http.StatusAccepted {
			continue
		}
		var a backupsweb.RunAnswer
		json.Unmarshal([]byte(r.Body), &a)
		want := "A backup is already running, started " + started.Backup.StartedAt.UTC().Format("15:04") + " UTC by " + adminEmail + "."
		if r.StatusCode != 200 || a.Started.Started || a.Backup == nil || a.Backup.ID != started.Backup.ID || a.Message != want {
			t.Errorf("a second press: %d %s, want the running backup and %q", r.StatusCode, r.Body, want)
		}
	}
	if l := backupList(t, h, p.admin); l.Running == nil || l.Running.ID != started.Backup.ID {
		t.Errorf("the screen while it runs: %+v", l.Running)
	}
	close(media.gate)
	deadline := time.Now().Add(60 * time.Second)
	for {
		l = backupList(t, h, p.admin)
		if l.Running == nil && len(l.Backups) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the backup did not finish: %+v", l)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(l.Backups) != 1 {
		t.Fatalf("8 presses made %d backups: %+v", len(l.Backups), l.Backups)
	}
	b := l.Backups[0]
	if b.ID != started.Backup.ID || b.Outcome != db.OutcomeOK || !b.Available || b.Kind != backup.KindManual || b.RequestedBy != adminEmail || b.Bytes < 4<<20 {
		t.Fatalf("the backup on the screen: %+v", b)
	}

	// The download: a tar of the backup's folder, manifest first, every
	// file matching the manifest's SHA-256, attachment, no-store.
	r := jsonReq(t, h, "GET", "/api/admin/backups/"+b.Name+"/download", p.admin, nil)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/x-tar" || r.Header.Get("Cache-Control") != "no-store" ||
		r.Header.Get("Content-Disposition") != `attachment; filename="backup-`+b.Name+`.tar"` {
		t.Fatalf("download: %d %v", r.StatusCode, r.Header)
	}
	tr := tar.NewReader(strings.NewReader(r.Body))
	sums := map[string]string{}
	var m backup.Manifest
	for i := 0; ; i++ {
		hd, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the archive does not read: %v", err)
		}
		body, _ := io.ReadAll(tr)
		if i == 0 {
			if hd.Name != b.Name+"/manifest.json" || json.Unmarshal(body, &m) != nil {
				t.Fatalf("the archive starts with %s", hd.Name)
			}
		}
		s := sha256.Sum256(body)
		sums[hd.Name] = hex.EncodeToString(s[:])
	}
	files := append([]backup.File{m.Database}, m.Files...)
	if len(sums) != len(files)+1 {
		t.Errorf("the archive holds %d files, the manifest %d", len(sums)-1, len(files))
	}
	for _, f := range files {
		if sums[b.Name+"/"+f.Path] != f.SHA256 {
			t.Errorf("%s does not match the manifest", f.Path)
		}
	}
	if sums[b.Name+"/media/projects/kitchen/big-photo.jpg"] == "" {
		t.Error("the photo is not in the archive")
	}

	// Ids that are not a backup's.
	for _, id := range []string{"..", "%2e%2e", "..%2f..%2fetc%2fpasswd", "%2fetc%2fpasswd", b.Name + "%2f..", b.Name + "%2fmanifest.json", "20200101-000000", b.Name + "-2", "media"} {
		if r := jsonReq(t, h, "GET", "/api/admin/backups/"+id+"/download", p.admin, nil); r.StatusCode != 404 || strings.Contains(r.Body, "root:") {
			t.Errorf("download %q: %d %s", id, r.StatusCode, r.Body)
		}
	}
	for _, path := range []string{"/api/admin/backups/../../../etc/passwd/download", "/api/admin/backups//etc/passwd/download", "/api/admin/backups/" + b.Name + "/../download"} {
		if r := jsonReq(t, h, "GET", path, p.admin, nil); r.StatusCode == 200 {
			t.Errorf("%s: %d", path, r.StatusCode)
		}
	}

	// Audited: the start (once) and the download (once), by account and IP.
	entries, _, err := store.ListAudit(ctx, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range entries {
		switch e.Action {
		case db.AuditBackupRun, db.AuditBackupDownload:
			count[e.Action]++
			if e.Actor != adminEmail || e.IP == "" {
				t.Errorf("audit %s: %+v", e.Action, e)
			}
			if e.Action == db.AuditBackupDownload && e.Detail != b.Name {
				t.Errorf("download audited as %q", e.Detail)
			}
		}
	}
	if count[db.AuditBackupRun] != 1 || count[db.AuditBackupDownload] != 1 {
		t.Errorf("audit: %v", count)
	}

	// The next press starts a new backup.
	if r := jsonReq(t, h, "POST", "/api/admin/backups/run", p.admin, nil); r.StatusCode != http.StatusAccepted {
		t.Errorf("a press after the backup: %d %s", r.StatusCode, r.Body)
	}
}

// The backups' tables unreadable (the database failing under them): the
// screen says so (503 with its message), and a press starts nothing.
func TestBackupsDatabaseDown(t *testing.T) {
	_, store, h, _, p := backupServer(t)
	for _, q := range []string{"DROP TABLE backup_active", "DROP TABLE backup_runs"} {
		if _, err := store.SQL().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ method, path, msg string }{
		{"GET", "/api/admin/backups", "Backups could not be loaded. Try again in a minute."},
		{"POST", "/api/admin/backups/run", "The backup could not be started. Try again in a minute."},
	} {
		r := jsonReq(t, h, c.method, c.path, p.admin, nil)
		var e struct{ Error string }
		json.Unmarshal([]byte(r.Body), &e)
		if r.StatusCode != 503 || e.Error != c.msg {
			t.Errorf("%s %s with the database failing: %d %s", c.method, c.path, r.StatusCode, r.Body)
		}
	}
}

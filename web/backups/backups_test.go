package backups

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// 8 presses of 'Back up now' at once make one backup; the others answer
// with it ("A backup is already running, started 14:02 UTC by ..."). The
// screen shows it running, then checked; it downloads as an archive
// whose files match the manifest; the start and the download are
// audited; ids that are not a backup's are refused.
func TestBackUpNowAndDownload(t *testing.T) {
	t.Parallel()
	r0 := newRoom(t)
	store, media := r0.store, r0.media
	ctx := context.Background()
	l := r0.list(t)
	if !l.SameDisk || l.Warning != MsgSameDisk || len(l.Backups) != 0 || l.Running != nil {
		t.Fatalf("before any backup: %+v", l)
	}
	if strings.Contains(l.Warning, "BACKUP_TO") || strings.Contains(l.Warning, "DATA_DIR") {
		t.Error("the warning names a variable")
	}
	media.armed.Store(true)
	var wg sync.WaitGroup
	answers := make([]*authtest.Response, 8)
	for i := range answers {
		wg.Add(1)
		go func() { defer wg.Done(); answers[i] = r0.Call(t, "POST", "/api/admin/backups/run", asAdmin, nil) }()
	}
	wg.Wait()
	var started RunAnswer
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
		var a RunAnswer
		json.Unmarshal([]byte(r.Body), &a)
		want := "A backup is already running, started " + started.Backup.StartedAt.UTC().Format("15:04") + " UTC by " + adminEmail + "."
		if r.StatusCode != 200 || a.Started.Started || a.Backup == nil || a.Backup.ID != started.Backup.ID || a.Message != want {
			t.Errorf("a second press: %d %s, want the running backup and %q", r.StatusCode, r.Body, want)
		}
	}
	if l := r0.list(t); l.Running == nil || l.Running.ID != started.Backup.ID {
		t.Errorf("the screen while it runs: %+v", l.Running)
	}
	close(media.gate)
	deadline := time.Now().Add(60 * time.Second)
	for {
		l = r0.list(t)
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
	r := r0.Call(t, "GET", "/api/admin/backups/"+b.Name+"/download", asAdmin, nil)
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
		if r := r0.Call(t, "GET", "/api/admin/backups/"+id+"/download", asAdmin, nil); r.StatusCode != 404 || strings.Contains(r.Body, "root:") {
			t.Errorf("download %q: %d %s", id, r.StatusCode, r.Body)
		}
	}
	for _, path := range []string{"/api/admin/backups/../../../etc/passwd/download", "/api/admin/backups//etc/passwd/download", "/api/admin/backups/" + b.Name + "/../download"} {
		if r := r0.Call(t, "GET", path, asAdmin, nil); r.StatusCode == 200 {
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
	if r := r0.Call(t, "POST", "/api/admin/backups/run", asAdmin, nil); r.StatusCode != http.StatusAccepted {
		t.Errorf("a press after the backup: %d %s", r.StatusCode, r.Body)
	}
}

// The backups' tables unreadable (the database failing under them): the
// screen says so (503 with its message), and a press starts nothing.
func TestBackupsDatabaseDown(t *testing.T) {
	t.Parallel()
	r0 := newRoom(t)
	store := r0.store
	for _, q := range []string{"DROP TABLE backup_active", "DROP TABLE backup_runs"} {
		if _, err := store.SQL().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ method, path, msg string }{
		{"GET", "/api/admin/backups", "Backups could not be loaded. Try again in a minute."},
		{"POST", "/api/admin/backups/run", "The backup could not be started. Try again in a minute."},
	} {
		r := r0.Call(t, c.method, c.path, asAdmin, nil)
		var e struct{ Error string }
		json.Unmarshal([]byte(r.Body), &e)
		if r.StatusCode != 503 || e.Error != c.msg {
			t.Errorf("%s %s with the database failing: %d %s", c.method, c.path, r.StatusCode, r.Body)
		}
	}
}

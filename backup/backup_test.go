package backup

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
)

// site is one install for a test: its data folder, database and media.
type site struct {
	dataDir string
	dsn     string // "" for SQLite
	store   *db.Store
	media   storage.Storage
}

func newSQLiteSite(t *testing.T) *site {
	t.Helper()
	dir := t.TempDir()
	store, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	media, err := storage.NewLocal(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	return &site{dataDir: dir, store: store, media: media}
}

// newPostgresDatabase makes a database of its own (pg_dump dumps a whole
// database) and returns its address; the test is skipped without
// PostgreSQL or pg_dump.
func newPostgresDatabase(t *testing.T) string {
	t.Helper()
	if _, err := pgTool("", "pg_dump"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return db.NewTestPostgresDatabase(t, "backup")
}

func newPostgresSite(t *testing.T, dsn string, media storage.Storage) *site {
	t.Helper()
	store, err := db.Open(context.Background(), dsn, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return &site{dataDir: t.TempDir(), dsn: dsn, store: store, media: media}
}

// fill gives a site leads (with a note and a notification), an account,
// settings, an audit entry, media files of several sizes and a spooled
// lead.
func fill(t *testing.T, s *site) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	for i := 0; i < 5; i++ {
		l := db.Lead{ID: fmt.Sprintf("lead-%d", i), CreatedAt: now, UpdatedAt: now, FirstName: "Maria", LastName: fmt.Sprint(i), Phone: "(770) 555-0134",
			Email: "maria@example.com", City: "Marietta", Status: "new", Source: "website"}
		rows := []db.OutboxRow{{Kind: db.OutboxEmail, Payload: "{}", NextAttemptAt: now, CreatedAt: now}}
		if _, err := s.store.CreateLeadWithOutbox(ctx, l, rows); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.store.AddLeadNote(ctx, "lead-0", db.Actor{Name: "owner"}, "gate code 4471", now); err != nil {
		t.Fatal(err)
	}
	if err := s.store.CreateUser(ctx, db.User{ID: "u1", Email: "owner@example.com", Name: "Owner", PasswordHash: "x", CreatedAt: now, UpdatedAt: now, Roles: []string{"admin"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.store.SetSettings(ctx, map[string]string{"business_name": "Restored Roofing"}, now); err != nil {
		t.Fatal(err)
	}
	s.store.AddAudit(ctx, db.AuditEntry{At: now, Actor: "owner@example.com", Action: db.AuditLogin})
	files := map[string][]byte{}
	for i, n := range []int{0, 1, 4096, 3 << 20} {
		b := make([]byte, n)
		rand.Read(b)
		key := fmt.Sprintf("projects/kitchen-%d/photo-%d.jpg", i%2, i)
		if _, err := s.media.Put(ctx, key, bytes.NewReader(b), "image/jpeg"); err != nil {
			t.Fatal(err)
		}
		files[key] = b
	}
	os.MkdirAll(filepath.Join(s.dataDir, "spool"), 0o755)
	os.WriteFile(filepath.Join(s.dataDir, "spool", "leads.jsonl"), []byte(`{"lead":{"id":"spooled-1"}}`+"\n"), 0o644)
	return files
}

func service(s *site, target *Target) *Service {
	return New(Options{Store: s.store, DatabaseURL: s.dsn, DataDir: s.dataDir, Media: s.media, Target: target, KeepDaily: 7, KeepWeekly: 4,
		Every: 24 * time.Hour, MaxAge: 26 * time.Hour, Version: "test"})
}

func localTarget(t *testing.T) *Target {
	t.Helper()
	tg, err := LocalTarget(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// checkRestored opens the restored install and compares it with the
// original: every table's rows, and every media file byte for byte.
func checkRestored(t *testing.T, want map[string]int64, dsn, dataDir string, media storage.Storage, files map[string][]byte) {
	t.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, dsn, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	got, err := store.RowCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("row counts after the restore (-backup, +restored):\n%s", diff)
	}
	l, err := store.GetLead(ctx, "lead-0")
	if err != nil || l.Email != "maria@example.com" {
		t.Errorf("lead after the restore: %+v %v", l, err)
	}
	if v, _ := store.GetSetting(ctx, "business_name"); v != "Restored Roofing" {
		t.Errorf("setting after the restore: %q", v)
	}
	if u, err := store.UserByEmail(ctx, "owner@example.com"); err != nil || u.Name != "Owner" {
		t.Errorf("account after the restore: %+v %v", u, err)
	}
	for key, b := range files {
		o, err := media.Open(ctx, key)
		if err != nil {
			t.Errorf("%s after the restore: %v", key, err)
			continue
		}
		var got bytes.Buffer
		got.ReadFrom(o)
		o.Close()
		if !bytes.Equal(got.Bytes(), b) {
			t.Errorf("%s differs after the restore (%d bytes, want %d)", key, got.Len(), len(b))
		}
	}
}

// A backup of a SQLite install, wiped and restored: every row, every
// account, setting and lead, every media file byte for byte, and the
// spool are back; the report says what was restored.
func TestBackupAndRestoreSQLite(t *testing.T) {
	ctx := context.Background()
	s := newSQLiteSite(t)
	files := fill(t, s)
	target := localTarget(t)
	res, err := service(s, target).Run(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	if m.Tables["avatar_leads"] != 5 || m.Tables["users"] != 1 || m.Tables["lead_events"] != 1 || m.Dialect != "sqlite" || m.Schema != db.LatestMigration() {
		t.Errorf("manifest %+v", m)
	}
	if n, _ := m.MediaCount(); n != 4 || len(m.Files) != 5 {
		t.Errorf("manifest files %+v", m.Files)
	}
	if !strings.Contains(res.Summary(), "5 leads") || !strings.Contains(res.Summary(), "4 files") {
		t.Errorf("summary %q", res.Summary())
	}
	last, good, _ := s.store.LastBackups(ctx)
	if last == nil || good == nil || good.Name != res.Name || good.Bytes != m.Bytes() || good.TriggeredBy != "test" {
		t.Errorf("recorded %+v %+v", last, good)
	}
	want := m.Tables
	s.store.Close()

	// The disk is lost: a new, empty data folder.
	fresh := t.TempDir()
	media, _ := storage.NewLocal(filepath.Join(fresh, "media"))
	rep, err := Restore(ctx, RestoreOptions{From: target, Name: res.Name, DataDir: fresh, Media: media})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MediaRestored != 4 || len(rep.SpoolRestored) != 1 {
		t.Errorf("report %+v", rep)
	}
	text := strings.Join(rep.Lines(), "\n")
	for _, w := range []string{"restored backup " + res.Name, "avatar_leads 5", "users 1", "4 files restored", "leads.jsonl", "schema"} {
		if !strings.Contains(text, w) {
			t.Errorf("the report lacks %q:\n%s", w, text)
		}
	}
	checkRestored(t, want, "", fresh, media, files)
	if b, _ := os.ReadFile(filepath.Join(fresh, "spool", "leads.jsonl")); !strings.Contains(string(b), "spooled-1") {
		t.Errorf("spool after the restore: %q", b)
	}
	// Restoring again over the restored install: the media are in place.
	rep, err = Restore(ctx, RestoreOptions{From: target, Name: res.Name, DataDir: fresh, Media: media})
	if err != nil || rep.MediaInPlace != 4 || rep.MediaRestored != 0 {
		t.Errorf("second restore: %+v %v", rep, err)
	}
}

// A restore refuses a database a running instance holds, and changes
// nothing.
func TestRestoreRefusedWhileTheSiteRuns(t *testing.T) {
	ctx := context.Background()
	s := newSQLiteSite(t)
	fill(t, s)
	target := localTarget(t)
	res, err := service(s, target).Run(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	release, err := s.store.HoldInstance(ctx, s.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	s.store.CreateLead(ctx, db.Lead{ID: "after-backup", CreatedAt: time.Now(), UpdatedAt: time.Now(), FirstName: "New", Phone: "4045550100", Status: "new", Source: "website"})
	_, err = Restore(ctx, RestoreOptions{From: target, Name: res.Name, DataDir: s.dataDir, Media: s.media})
	if !errors.Is(err, db.ErrInUse) || !strings.Contains(err.Error(), "restore refused") || !strings.Contains(err.Error(), "stop every instance") {
		t.Fatalf("restore while the site runs: %v", err)
	}
	if _, err := s.store.GetLead(ctx, "after-backup"); err != nil {
		t.Errorf("the running site's data changed: %v", err)
	}
}

// A damaged backup is refused with a message that names what is wrong,
// and the install is left as it was: a changed media file, a cut
// database, a missing file, a manifest that is not JSON, row counts
// that do not match, no manifest at all.
func TestDamagedBackupIsRefused(t *testing.T) {
	ctx := context.Background()
	s := newSQLiteSite(t)
	fill(t, s)
	for _, c := range []struct {
		name   string
		damage func(dir string)
		want   string
	}{
		{"changed media", func(dir string) {
			p := filepath.Join(dir, "media", "projects", "kitchen-0", "photo-2.jpg")
			b, _ := os.ReadFile(p)
			b[100] ^= 0xff
			os.WriteFile(p, b, 0o644)
		}, "media/projects/kitchen-0/photo-2.jpg does not match its checksum"},
		{"cut database", func(dir string) {
			p := filepath.Join(dir, "site.db")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)/2], 0o644)
		}, "site.db is"},
		{"missing file", func(dir string) {
			os.Remove(filepath.Join(dir, "media", "projects", "kitchen-1", "photo-3.jpg"))
		}, "media/projects/kitchen-1/photo-3.jpg is missing"},
		{"manifest not JSON", func(dir string) {
			os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{not json"), 0o644)
		}, "the manifest is not readable JSON"},
		{"counts differ", func(dir string) {
			p := filepath.Join(dir, ManifestFile)
			var m Manifest
			b, _ := os.ReadFile(p)
			json.Unmarshal(b, &m)
			m.Tables["avatar_leads"] = 6
			b, _ = json.Marshal(m)
			os.WriteFile(p, b, 0o644)
		}, "row counts differ from the manifest's: avatar_leads 5, manifest 6"},
		{"no manifest", func(dir string) {
			os.Remove(filepath.Join(dir, ManifestFile))
		}, "has no manifest.json: it is not a complete backup"},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := localTarget(t)
			res, err := service(s, target).Run(ctx, "test")
			if err != nil {
				t.Fatal(err)
			}
			c.damage(filepath.Join(target.String(), res.Name))
			fresh := t.TempDir()
			os.WriteFile(filepath.Join(fresh, "site.db"), []byte("the install's own database"), 0o644)
			media, _ := storage.NewLocal(filepath.Join(fresh, "media"))
			_, err = Restore(ctx, RestoreOptions{From: target, Name: res.Name, DataDir: fresh, Media: media})
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was restored") {
				t.Fatalf("err = %v\nwant ErrDamaged with %q", err, c.want)
			}
			if b, _ := os.ReadFile(filepath.Join(fresh, "site.db")); string(b) != "the install's own database" {
				t.Error("the install's database was touched")
			}
			// --check says the same without the lock.
			_, err = Restore(ctx, RestoreOptions{From: target, Name: res.Name, DataDir: fresh, Media: media, CheckOnly: true})
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("check: %v", err)
			}
		})
	}
}

// A backup taken during a burst of new leads is a consistent copy: its
// counts are those of one moment, its copy passes the integrity check,
// and no lead written during it fails.
func TestBackupDuringABurstOfLeads(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { backupDuringBurst(t, newSQLiteSite(t)) })
	t.Run("postgres", func(t *testing.T) {
		media, _ := storage.NewLocal(t.TempDir())
		backupDuringBurst(t, newPostgresSite(t, newPostgresDatabase(t), media))
	})
}

func backupDuringBurst(t *testing.T, s *site) {
	ctx := context.Background()
	fill(t, s)
	target := localTarget(t)
	var (
		wg      sync.WaitGroup
		stop    atomic.Bool
		written atomic.Int64
		failed  atomic.Int64
	)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				now := time.Now().UTC()
				l := db.Lead{ID: fmt.Sprintf("burst-%d-%d", w, i), CreatedAt: now, UpdatedAt: now, FirstName: "Burst", Phone: "4045550100", Status: "new", Source: "website"}
				if _, err := s.store.CreateLeadWithOutbox(ctx, l, []db.OutboxRow{{Kind: db.OutboxEmail, Payload: "{}", NextAttemptAt: now, CreatedAt: now}}); err != nil {
					failed.Add(1)
					t.Errorf("a lead failed during the backup: %v", err)
					return
				}
				written.Add(1)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	before := written.Load()
	res, err := service(s, target).Run(ctx, "test")
	after := written.Load()
	time.Sleep(50 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	n := res.Manifest.Tables["avatar_leads"] - 5
	if n < before || n > after || after == before {
		t.Errorf("the copy holds %d burst leads; %d were written before the backup and %d by its end", n, before, after)
	}
	// One moment: every lead in the copy has its notification.
	if res.Manifest.Tables["outbox"] != res.Manifest.Tables["avatar_leads"] {
		t.Errorf("leads %d and notifications %d: not one moment", res.Manifest.Tables["avatar_leads"], res.Manifest.Tables["outbox"])
	}
	if failed.Load() != 0 {
		t.Errorf("%d leads failed", failed.Load())
	}
	if _, err := Restore(ctx, RestoreOptions{From: target, Name: res.Name, DatabaseURL: s.dsn, DataDir: t.TempDir(), Media: s.media, CheckOnly: true}); err != nil {
		t.Errorf("the copy does not check: %v", err)
	}
	t.Logf("%d leads written during the backup, %d in the copy", after-before, n-before)
}

// Backups to an S3 bucket under their own prefix, of media in a bucket:
// made, listed, checked and restored into another bucket.
func TestBackupToS3(t *testing.T) {
	ctx := context.Background()
	fake := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	defer fake.Close()
	opts := storage.S3Options{Endpoint: fake.URL, Region: "us-east-1", Bucket: "project-photos", AccessKey: "k", SecretKey: "s"}
	media := storage.NewS3(opts)
	media.EnsureBucket(ctx)
	s := newSQLiteSite(t)
	s.media = media
	files := fill(t, s)
	target := S3Target(opts, "backups")
	res, err := service(s, target).Run(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	// The backups' own prefix is not media: a second backup holds the
	// same four files.
	res2, err := service(s, target).Run(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res2.Manifest.MediaCount(); n != 4 {
		t.Errorf("the second backup holds %d media files", n)
	}
	if res.Location != "s3://project-photos/backups/"+res.Name {
		t.Errorf("location %q", res.Location)
	}
	l, _ := target.List(ctx)
	if len(l.Complete) != 2 {
		t.Errorf("listing %+v", l)
	}
	want := res2.Manifest.Tables
	s.store.Close()
	restoredMedia := storage.NewS3(storage.S3Options{Endpoint: fake.URL, Region: "us-east-1", Bucket: "restored", AccessKey: "k", SecretKey: "s"})
	restoredMedia.EnsureBucket(ctx)
	fresh := t.TempDir()
	tg, name, err := Resolve(ctx, "s3://project-photos/backups/"+res2.Name, func(loc string) (*Target, error) {
		return S3Target(opts, strings.TrimPrefix(loc, "s3://project-photos/")), nil
	})
	if err != nil || name != res2.Name {
		t.Fatalf("resolve: %v %q", err, name)
	}
	if _, err := Restore(ctx, RestoreOptions{From: tg, Name: name, DataDir: fresh, Media: restoredMedia}); err != nil {
		t.Fatal(err)
	}
	checkRestored(t, want, "", fresh, restoredMedia, files)
}

// On PostgreSQL: pg_dump from an exported snapshot, the counts of that
// snapshot, pg_restore into an emptied database, counts checked.
func TestBackupAndRestorePostgres(t *testing.T) {
	ctx := context.Background()
	dsn := newPostgresDatabase(t)
	media, _ := storage.NewLocal(t.TempDir())
	s := newPostgresSite(t, dsn, media)
	files := fill(t, s)
	target := localTarget(t)
	res, err := service(s, target).Run(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	if res.Manifest.Dialect != "postgres" || res.Manifest.Database.Path != "site.pgdump" || res.Manifest.Tables["avatar_leads"] != 5 {
		t.Fatalf("manifest %+v", res.Manifest)
	}
	want := res.Manifest.Tables
	// Changes after the backup are undone by the restore; the site is
	// stopped first (it held the database).
	release, err := s.store.HoldInstance(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	s.store.CreateLead(ctx, db.Lead{ID: "after", CreatedAt: time.Now(), UpdatedAt: time.Now(), FirstName: "After", Phone: "4045550100", Status: "new", Source: "website"})
	if _, err := Restore(ctx, RestoreOptions{From: target, Name: res.Name, DatabaseURL: dsn, DataDir: s.dataDir, Media: media}); !errors.Is(err, db.ErrInUse) {
		t.Fatalf("restore while held: %v", err)
	}
	release()
	s.store.Close()
	rep, err := Restore(ctx, RestoreOptions{From: target, Name: res.Name, DatabaseURL: dsn, DataDir: t.TempDir(), Media: media})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rep.Lines(), "\n"), "postgres") {
		t.Errorf("report %q", rep.Lines())
	}
	checkRestored(t, want, dsn, t.TempDir(), media, files)
	// A SQLite backup is refused by a PostgreSQL site, and the other way.
	if _, err := Restore(ctx, RestoreOptions{From: target, Name: res.Name, DataDir: t.TempDir(), Media: media, CheckOnly: true}); err == nil || !strings.Contains(err.Error(), "is of a postgres database") {
		t.Errorf("a postgres backup into SQLite: %v", err)
	}
}

// Without pg_dump the backup fails and says what to do.
func TestPostgresBackupWithoutPgDump(t *testing.T) {
	_, err := pgTool(t.TempDir(), "pg_dump")
	if !errors.Is(err, ErrNoPGTool) || !strings.Contains(err.Error(), "PG_BIN_DIR") {
		t.Errorf("err = %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	_, err = pgTool("", "pg_dump")
	if !errors.Is(err, ErrNoPGTool) || !strings.Contains(err.Error(), DumpCommand) {
		t.Errorf("err = %v", err)
	}
}

// The scheduled job keeps the newest of each of the last 7 days and 4
// weeks, deletes the rest and any backup cut short more than a day ago.
func TestRetentionKeepsDailyAndWeekly(t *testing.T) {
	var names []string
	start := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	for d := 0; d < 40; d++ {
		names = append(names, start.AddDate(0, 0, -d).Format(NameLayout))
	}
	// A second backup on the newest day, by hand.
	names = append(names, start.Add(2*time.Hour).Format(NameLayout))
	keep := Keep(names, 7, 4)
	var kept []string
	for _, n := range names {
		if keep[n] {
			kept = append(kept, n)
		}
	}
	sortNewestFirst(kept)
	want := []string{"20261125-050000", "20261124-030000", "20261123-030000", "20261122-030000", "20261121-030000", "20261120-030000", "20261119-030000",
		"20261115-030000", "20261108-030000"}
	// Weeks (ISO, Monday first): 25 Nov 2026 is a Wednesday; the weeks
	// are those of the 25th, 22nd, 15th and 8th.
	if diff := cmp.Diff(want, kept); diff != "" {
		t.Errorf("kept (-want, +got):\n%s", diff)
	}

	ctx := context.Background()
	s := newSQLiteSite(t)
	target := localTarget(t)
	svc := service(s, target)
	for _, n := range names[:10] {
		os.MkdirAll(filepath.Join(target.String(), n), 0o755)
		os.WriteFile(filepath.Join(target.String(), n, ManifestFile), []byte("{}"), 0o644)
	}
	os.MkdirAll(filepath.Join(target.String(), "20261101-000000"), 0o755)
	os.WriteFile(filepath.Join(target.String(), "20261101-000000", "site.db"), []byte("cut short"), 0o644)
	svc.o.Now = func() time.Time { return start.Add(3 * time.Hour) }
	deleted, err := svc.Prune(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"20261118-030000", "20261117-030000", "20261116-030000", "20261101-000000"}, deleted); diff != "" {
		t.Errorf("deleted (-want, +got):\n%s", diff)
	}
	l, _ := target.List(ctx)
	if len(l.Complete) != 7 || len(l.Incomplete) != 0 {
		t.Errorf("left %+v", l)
	}
}

// The alarm: a failed last backup, a good one older than the limit, none
// at all on a site older than the limit; never with the alarm off.
func TestAlarm(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	run := func(ago time.Duration, outcome string) *db.BackupRun {
		return &db.BackupRun{StartedAt: now.Add(-ago), FinishedAt: now.Add(-ago), Outcome: outcome, Summary: "connection refused"}
	}
	good := run(3*time.Hour, db.OutcomeOK)
	for _, c := range []struct {
		name        string
		last, good  *db.BackupRun
		installed   time.Time
		maxAge      time.Duration
		wantContain string
	}{
		{"fresh and good", good, good, now.AddDate(0, -1, 0), 26 * time.Hour, ""},
		{"old", run(27*time.Hour, db.OutcomeOK), run(27*time.Hour, db.OutcomeOK), now.AddDate(0, -1, 0), 26 * time.Hour, "27 hours old, more than 26 hours"},
		{"failed", run(time.Hour, db.OutcomeFailed), good, now.AddDate(0, -1, 0), 26 * time.Hour, "The last backup failed (2026-11-25 11:00 UTC): connection refused. The last good one is 3 hours old."},
		{"never, new site", nil, nil, now.Add(-time.Hour), 26 * time.Hour, ""},
		{"never, old site", nil, nil, now.Add(-48 * time.Hour), 26 * time.Hour, "No backup has been made"},
		{"off", run(time.Hour, db.OutcomeFailed), nil, now.AddDate(-1, 0, 0), 0, ""},
	} {
		got := Judge(c.last, c.good, c.installed, now, c.maxAge)
		if (c.wantContain == "") != (got == "") || !strings.Contains(got, c.wantContain) {
			t.Errorf("%s: %q, want %q", c.name, got, c.wantContain)
		}
	}
}

// A location that holds several backups names the newest to restore.
func TestResolve(t *testing.T) {
	ctx := context.Background()
	s := newSQLiteSite(t)
	fill(t, s)
	dir := t.TempDir()
	target, _ := LocalTarget(dir)
	res, err := service(s, target).Run(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	open := func(loc string) (*Target, error) { return LocalTarget(loc) }
	if _, name, err := Resolve(ctx, filepath.Join(dir, res.Name), open); err != nil || name != res.Name {
		t.Errorf("resolve the backup: %q %v", name, err)
	}
	_, _, err = Resolve(ctx, dir, open)
	if err == nil || !strings.Contains(err.Error(), "holds 1 backup") || !strings.Contains(err.Error(), filepath.Join(dir, res.Name)) {
		t.Errorf("resolve the folder: %v", err)
	}
	_, _, err = Resolve(ctx, t.TempDir(), open)
	if err == nil || !strings.Contains(err.Error(), "holds no complete backup") {
		t.Errorf("resolve an empty folder: %v", err)
	}
}

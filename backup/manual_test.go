package backup

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/storage"
)

// pieceWriter records the largest single write: the archive is written
// in small pieces, never a whole file at once.
type pieceWriter struct {
	w       io.Writer
	largest int
	total   int64
}

func (p *pieceWriter) Write(b []byte) (int, error) {
	if len(b) > p.largest {
		p.largest = len(b)
	}
	p.total += int64(len(b))
	return p.w.Write(b)
}

// readArchive reads a downloaded archive: the names in order and each
// file's SHA-256.
func readArchive(t *testing.T, r io.Reader) (names []string, sums map[string]string, manifest *Manifest) {
	t.Helper()
	sums = map[string]string{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, sums, manifest
		}
		if err != nil {
			t.Fatalf("the archive does not read: %v", err)
		}
		names = append(names, h.Name)
		hs := sha256.New()
		b, err := io.ReadAll(io.TeeReader(tr, hs))
		if err != nil {
			t.Fatal(err)
		}
		sums[h.Name] = hex.EncodeToString(hs.Sum(nil))
		if filepath.Base(h.Name) == ManifestFile {
			manifest = &Manifest{}
			if err := json.Unmarshal(b, manifest); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkArchive downloads backup name and checks it against its manifest:
// the manifest first, then every file with the manifest's SHA-256, in
// pieces no larger than a copy buffer while a media file is megabytes.
func checkArchive(t *testing.T, svc *Service, name string) {
	t.Helper()
	ctx := context.Background()
	a, err := svc.OpenArchive(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	w := &pieceWriter{w: pw}
	errc := make(chan error, 1)
	go func() {
		_, err := a.WriteTo(ctx, w)
		pw.CloseWithError(err)
		errc <- err
	}()
	names, sums, m := readArchive(t, pr)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 || names[0] != name+"/"+ManifestFile || m == nil {
		t.Fatalf("the archive does not start with the manifest: %v", names)
	}
	want := append([]File{m.Database}, m.Files...)
	if len(names) != len(want)+1 {
		t.Errorf("the archive holds %d files, the manifest %d", len(names)-1, len(want))
	}
	var biggest int64
	for _, f := range want {
		if got := sums[name+"/"+f.Path]; got != f.SHA256 {
			t.Errorf("%s: SHA-256 %s, manifest %s", f.Path, got, f.SHA256)
		}
		biggest = max(biggest, f.Bytes)
	}
	if biggest < 3<<20 {
		t.Fatalf("the test needs a file of megabytes, the largest is %d bytes", biggest)
	}
	if w.largest > 64<<10 {
		t.Errorf("the archive was written in a piece of %d bytes: a file was held whole", w.largest)
	}
}

// A download is the backup as one archive, streamed and checked, from a
// folder and from S3.
func TestArchiveStreamsTheBackup(t *testing.T) {
	ctx := context.Background()
	t.Run("folder", func(t *testing.T) {
		s := newSQLiteSite(t)
		fill(t, s)
		svc := service(s, localTarget(t))
		res, err := svc.Run(ctx, TriggerCommand)
		if err != nil {
			t.Fatal(err)
		}
		checkArchive(t, svc, res.Name)
	})
	t.Run("s3", func(t *testing.T) {
		fake := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
		defer fake.Close()
		opts := storage.S3Options{Endpoint: fake.URL, Region: "us-east-1", Bucket: "site-backups", AccessKey: "k", SecretKey: "s"}
		s := newSQLiteSite(t)
		fill(t, s)
		svc := service(s, S3Target(opts, "backups"))
		res, err := svc.Run(ctx, TriggerCommand)
		if err != nil {
			t.Fatal(err)
		}
		checkArchive(t, svc, res.Name)
		if svc.o.Target.SameDisk(s.dataDir) {
			t.Error("an S3 target is judged the same disk")
		}
	})
}

// A name is a backup's name from the list, never a path; a damaged
// backup stops the stream.
func TestArchiveRefusesPathsAndDamage(t *testing.T) {
	ctx := context.Background()
	s := newSQLiteSite(t)
	fill(t, s)
	dir := t.TempDir()
	target, _ := LocalTarget(dir)
	svc := service(s, target)
	res, err := svc.Run(ctx, TriggerCommand)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("x"), 0o644)
	for _, name := range []string{"", "..", "../" + res.Name, res.Name + "/..", "/etc/passwd", dir, "%2e%2e", "..%2f..%2fetc", res.Name + "/" + ManifestFile,
		"secret.txt", "20200101-000000", res.Name + "-9", " " + res.Name, res.Name + "\x00"} {
		if _, err := svc.OpenArchive(ctx, name); !errors.Is(err, ErrNoBackup) {
			t.Errorf("OpenArchive(%q): %v, want ErrNoBackup", name, err)
		}
	}
	// An incomplete backup (no manifest) is not offered either.
	os.MkdirAll(filepath.Join(dir, "20200101-000000"), 0o755)
	os.WriteFile(filepath.Join(dir, "20200101-000000", "site.db"), []byte("x"), 0o644)
	if _, err := svc.OpenArchive(ctx, "20200101-000000"); !errors.Is(err, ErrNoBackup) {
		t.Errorf("incomplete backup: %v", err)
	}

	photo := ""
	for _, f := range res.Manifest.Files {
		if f.Bytes > 1000 {
			photo = filepath.Join(dir, res.Name, filepath.FromSlash(f.Path))
			break
		}
	}
	orig, _ := os.ReadFile(photo)
	for what, change := range map[string]func(){
		"changed":   func() { b := append([]byte(nil), orig...); b[len(b)/2] ^= 1; os.WriteFile(photo, b, 0o644) },
		"cut short": func() { os.WriteFile(photo, orig[:len(orig)-1], 0o644) },
		"longer":    func() { os.WriteFile(photo, append(append([]byte(nil), orig...), 'x'), 0o644) },
		"missing":   func() { os.Remove(photo) },
	} {
		change()
		a, err := svc.OpenArchive(ctx, res.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.WriteTo(ctx, io.Discard); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s file: %v, want ErrDamaged", what, err)
		}
		os.WriteFile(photo, orig, 0o644)
	}
	// A manifest naming a path outside the backup is refused outright.
	mf := filepath.Join(dir, res.Name, ManifestFile)
	raw, _ := os.ReadFile(mf)
	var m Manifest
	json.Unmarshal(raw, &m)
	m.Files = append(m.Files, File{Path: "../../secret.txt", Bytes: 1})
	b, _ := json.Marshal(m)
	os.WriteFile(mf, b, 0o644)
	if _, err := svc.OpenArchive(ctx, res.Name); !errors.Is(err, ErrDamaged) {
		t.Errorf("manifest with a traversal path: %v", err)
	}
}

// The same-disk decision: a folder under DATA_DIR, or one on DATA_DIR's
// device, is the same disk; another device is not; an unreadable one is
// not judged.
func TestSameDisk(t *testing.T) {
	data := t.TempDir()
	other := t.TempDir()
	devs := map[string]uint64{}
	dev := func(p string) (uint64, error) {
		if d, ok := devs[p]; ok {
			return d, nil
		}
		return 0, errors.New("no such folder")
	}
	under := filepath.Join(data, "backups")
	os.MkdirAll(under, 0o755)
	if !sameDisk(data, under, dev) {
		t.Error("DATA_DIR/backups (the default) is not judged the same disk")
	}
	if !sameDisk(data+"/", filepath.Join(data, "x", "..", "backups"), dev) {
		t.Error("an unclean path under DATA_DIR is not judged the same disk")
	}
	d, o := resolve(data), resolve(other)
	devs[d], devs[o] = 2049, 2049
	if !sameDisk(data, other, dev) {
		t.Error("another folder on the same device is not judged the same disk")
	}
	devs[o] = 2065
	if sameDisk(data, other, dev) {
		t.Error("a folder on another device is judged the same disk")
	}
	delete(devs, o)
	if sameDisk(data, other, dev) {
		t.Error("an unreadable folder is judged the same disk")
	}
	// A symbolic link into DATA_DIR is DATA_DIR's disk.
	link := filepath.Join(other, "link")
	if err := os.Symlink(under, link); err == nil && !sameDisk(data, link, dev) {
		t.Error("a link into DATA_DIR is not judged the same disk")
	}
	// The real lookup: two folders of one temporary folder are one device.
	tg, _ := LocalTarget(under)
	if !tg.SameDisk(data) {
		t.Error("the real device lookup: the default target is not the same disk")
	}
}

// gated holds a backup at its start until the test opens the gate, so
// presses land while it runs.
func gated(svc *Service, gate chan struct{}) {
	svc.o.Target.ready = func(ctx context.Context) error {
		select {
		case <-gate:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// 'Back up now' pressed 8 times at once, on two instances sharing one
// database (PostgreSQL: two pools with advisory locks; SQLite: one
// process), makes exactly one backup; every other press answers with
// the running one, who asked for it and when it started.
func TestBackUpNowOneAtATime(t *testing.T) {
	db.ForEachDBPair(t, func(t *testing.T, a, b *db.Store) {
		ctx := context.Background()
		dataDir := t.TempDir()
		media, _ := storage.NewLocal(filepath.Join(dataDir, "media"))
		dsn := ""
		var locker jobs.Locker
		if a.Dialect() == "postgres" {
			dsn = "postgres" // only its dialect is read before the gate
		}
		targetDir := filepath.Join(dataDir, "backups")
		svcs := make([]*Service, 2)
		gate := make(chan struct{})
		for i, st := range []*db.Store{a, b} {
			if st.Dialect() == "postgres" {
				locker = jobs.PostgresLocker{DB: st.SQL()}
			}
			tg, _ := LocalTarget(targetDir)
			svcs[i] = New(Options{Store: st, DatabaseURL: dsn, DataDir: dataDir, Media: media, Target: tg, Locker: locker, Version: "test"})
			gated(svcs[i], gate)
			t.Cleanup(func() { svcs[i].Stop(context.Background()) })
		}
		if a.Dialect() == "sqlite" {
			svcs[1] = svcs[0] // one process
		}
		var wg sync.WaitGroup
		answers := make([]Started, 8)
		errs := make([]error, 8)
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i], errs[i] = svcs[i%2].Start(ctx, fmt.Sprintf("owner%d@example.com", i))
			}()
		}
		wg.Wait()
		started := -1
		for i, st := range answers {
			if errs[i] != nil {
				t.Fatalf("press %d: %v", i, errs[i])
			}
			if st.Started {
				if started >= 0 {
					t.Fatalf("presses %d and %d both started a backup", started, i)
				}
				started = i
			}
		}
		if started < 0 {
			t.Fatal("no press started a backup")
		}
		winner := answers[started].Backup
		for i, st := range answers {
			if i == started {
				continue
			}
			if st.Backup == nil || st.Backup.ID != winner.ID || st.Backup.RequestedBy != fmt.Sprintf("owner%d@example.com", started) {
				t.Errorf("press %d answered %+v, want the running backup %+v", i, st.Backup, winner)
			}
		}
		// The screen, on either instance, shows it running.
		for _, svc := range svcs {
			o, err := svc.Overview(ctx)
			if err != nil || o.Running == nil || o.Running.ID != winner.ID {
				t.Errorf("overview while running: %+v %v", o.Running, err)
			}
		}
		// The scheduled job skips while it runs, and site backup refuses.
		if _, err := svcs[1].Job(ctx); err == nil || err.Error() != "a backup was already running" {
			t.Errorf("the schedule during a manual backup: %v", err)
		}
		if _, err := svcs[1].Run(ctx, TriggerCommand); !errors.Is(err, ErrBusy) {
			t.Errorf("site backup during a manual backup: %v", err)
		}
		close(gate)
		// It ends (failed on PostgreSQL: this test's dsn dumps nothing),
		// recorded once under its id, and the lock is free again.
		deadline := time.Now().Add(30 * time.Second)
		for {
			if r, _ := a.RunningBackup(ctx); r == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the backup did not end")
			}
			time.Sleep(20 * time.Millisecond)
		}
		runs, err := b.RecentBackups(ctx, 10)
		if err != nil || len(runs) != 1 || runs[0].ID != winner.ID || runs[0].RequestedBy != winner.RequestedBy || runs[0].TriggeredBy != TriggerManual {
			t.Fatalf("runs after 8 presses: %+v %v", runs, err)
		}
		if a.Dialect() == "sqlite" && runs[0].Outcome != db.OutcomeOK {
			t.Errorf("the backup failed: %s", runs[0].Summary)
		}
		// Released: the next press starts a new one.
		var again Started
		for time.Now().Before(deadline) {
			if again, err = svcs[1].Start(ctx, "next@example.com"); err != nil || again.Started {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil || !again.Started {
			t.Errorf("a press after the backup ended: %+v %v", again, err)
		}
	})
}

// A row left by an instance that died mid-backup is not shown as
// running, and the next backup clears it.
func TestStaleRunningBackup(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, st *db.Store) {
		ctx := context.Background()
		old := time.Now().UTC().Add(-time.Hour)
		if err := st.StartBackup(ctx, db.ActiveBackup{ID: "dead", StartedAt: old, TriggeredBy: TriggerManual, RequestedBy: "x@example.com", UpdatedAt: old}); err != nil {
			t.Fatal(err)
		}
		svc := New(Options{Store: st, DataDir: t.TempDir(), Target: &Target{}})
		if r, err := svc.Running(ctx); err != nil || r != nil {
			t.Errorf("a stale row is shown as running: %+v %v", r, err)
		}
		now := time.Now().UTC()
		if err := st.StartBackup(ctx, db.ActiveBackup{ID: "live", StartedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if r, _ := st.RunningBackup(ctx); r == nil || r.ID != "live" {
			t.Errorf("running after a new start: %+v", r)
		}
		if err := st.SetBackupProgress(ctx, "live", "Copying photos and videos: 3 files", now); err != nil {
			t.Fatal(err)
		}
		if r, _ := svc.Running(ctx); r == nil || r.Progress != "Copying photos and videos: 3 files" {
			t.Errorf("progress: %+v", r)
		}
		st.EndBackup(ctx, "live")
		if r, _ := st.RunningBackup(ctx); r != nil {
			t.Errorf("still running after its end: %+v", r)
		}
	})
}

// The Backups screen's list: each run with its kind; a good run's backup
// downloadable while the target holds it complete (a backup made after
// the cached listing included); failed runs, runs of another target and
// deleted backups not; backups kept longer than their runs listed too.
func TestOverviewLists(t *testing.T) {
	ctx := context.Background()
	s := newSQLiteSite(t)
	fill(t, s)
	dir := t.TempDir()
	target, _ := LocalTarget(dir)
	svc := service(s, target)
	first, err := svc.Run(ctx, TriggerCommand)
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.Overview(ctx) // fills the cached listing
	if err != nil || len(o.Backups) != 1 || !o.Backups[0].Available || o.Backups[0].Kind != KindCommand {
		t.Fatalf("after one backup: %+v %v", o.Backups, err)
	}
	// A second backup, made after the listing: found by its manifest.
	time.Sleep(1100 * time.Millisecond) // a name of its own second
	second, err := svc.Run(ctx, TriggerSchedule)
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := svc.Overview(ctx); len(o.Backups) != 2 || o.Backups[0].Name != second.Name || !o.Backups[0].Available {
		t.Fatalf("a backup made after the cached listing: %+v", o.Backups)
	}
	now := time.Now().UTC()
	s.store.RecordBackup(ctx, db.BackupRun{StartedAt: now, FinishedAt: now, Outcome: db.OutcomeFailed, TriggeredBy: TriggerManual, RequestedBy: "ada@example.com", Summary: "disk full", Location: target.String()})
	s.store.RecordBackup(ctx, db.BackupRun{StartedAt: now.Add(-time.Hour), FinishedAt: now.Add(-time.Hour), Outcome: db.OutcomeOK, TriggeredBy: TriggerCommand, Name: second.Name, Location: "/elsewhere"})
	// A backup kept longer than its run is remembered.
	os.MkdirAll(filepath.Join(dir, "20200101-000000"), 0o755)
	os.WriteFile(filepath.Join(dir, "20200101-000000", ManifestFile), []byte("{}"), 0o644)
	svc.forget()
	o, err = svc.Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		kind, outcome string
		available     bool
	}
	var got []row
	for _, e := range o.Backups {
		got = append(got, row{e.Kind, e.Outcome, e.Available})
	}
	want := []row{{KindManual, db.OutcomeFailed, false}, {KindScheduled, db.OutcomeOK, true}, {KindCommand, db.OutcomeOK, true}, {KindCommand, db.OutcomeOK, false}, {KindUnknown, "", true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the list: %v, want %v", got, want)
	}
	// Deleted: no longer downloadable once the listing is read again.
	os.RemoveAll(filepath.Join(dir, first.Name))
	svc.forget()
	o, _ = svc.Overview(ctx)
	for _, e := range o.Backups {
		if e.Name == first.Name && e.Available {
			t.Error("a deleted backup is offered for download")
		}
	}
}

// Package backup makes, checks, keeps and restores the site's backups
// (ADR 036): the database (SQLite's VACUUM INTO, or pg_dump from
// an exported snapshot), the media (the folder or the bucket) and the
// lead spool, each file with its SHA-256 and the database with every
// table's row count in a manifest written last. A backup is checked
// before it is recorded as good: the copy opens, passes its integrity
// check and is counted. A restore checks everything again before it
// changes anything, and refuses a database a running instance holds.
// There is no HTTP here; the scheduled job is wired in server/jobs.go
// and the commands in main.
package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/jobs"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/words"
)

// MediaPrefix is where uploads live in the media storage; only these keys
// are media (a bucket shared with backups holds backups/ too).
const MediaPrefix = "projects/"

// Options are a backup service's sources and rules.
type Options struct {
	// Store is the live database; DatabaseURL its address on PostgreSQL
	// ("" for SQLite in DataDir).
	Store       *db.Store
	DatabaseURL string
	DataDir     string
	// Media is the media storage (it must list: storage.Lister).
	Media storage.Storage
	// Target is where backups go (BACKUP_TO).
	Target *Target
	// PGBinDir holds pg_dump and pg_restore (PG_BIN_DIR; "" searches PATH).
	PGBinDir string
	// KeepDaily and KeepWeekly are the scheduled job's retention.
	KeepDaily, KeepWeekly int
	// Every is the schedule (0: none); MaxAge raises the alarm (0: never).
	Every, MaxAge time.Duration
	// Locker is the lock across instances (jobs.PostgresLocker on
	// PostgreSQL; nil: this process only), so one backup runs at a time.
	Locker jobs.Locker
	// Version is the site's version, written in every manifest.
	Version string
	Log     *slog.Logger
	// Now is time.Now (tests move it).
	Now func() time.Time
}

// Service makes backups and reports on them.
type Service struct {
	o Options
	// busy is this process's share of the backup lock (SQLite runs one
	// process; on PostgreSQL the advisory lock covers the others).
	busy sync.Mutex
	// life ends the backups started from the admin when the server stops;
	// running counts them.
	life    context.Context
	stop    context.CancelFunc
	running sync.WaitGroup
	// cache is the Backups screen's listing of the target.
	cache listCache
}

// New returns a backup service.
func New(o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Locker == nil {
		o.Locker = jobs.NoLocker{}
	}
	life, stop := context.WithCancel(context.Background())
	return &Service{o: o, life: life, stop: stop}
}

// Result is a finished backup.
type Result struct {
	Name     string
	Location string
	Manifest *Manifest
	Took     time.Duration
}

// Summary is the backup in one line (the job's and the command's).
func (r Result) Summary() string {
	n, mb := r.Manifest.MediaCount()
	return fmt.Sprintf("backup %s to %s: %s in all (database %s, %s, %s; %s of media); took %s", r.Name, r.Location,
		words.Bytes(r.Manifest.Bytes()), words.Bytes(r.Manifest.Database.Bytes), words.Count(len(r.Manifest.Tables), "table", "tables"),
		words.Count(int(r.Manifest.Tables["avatar_leads"]), "lead", "leads"), words.Count(n, "file", "files")+" "+words.Bytes(mb), r.Took.Round(time.Millisecond))
}

// Run makes one backup and records it (good or failed) in backup_runs,
// and waits for it. triggeredBy says who asked: TriggerSchedule or
// TriggerCommand. It is refused while another backup runs (here, or on
// another instance when Options.Locker spans them).
func (s *Service) Run(ctx context.Context, triggeredBy string) (Result, error) {
	res, started, err := s.runLocked(ctx, triggeredBy, "")
	if !started && err == nil {
		err = ErrBusy
		if a, rerr := s.Running(ctx); rerr == nil && a != nil {
			err = fmt.Errorf("%w: it started %s", ErrBusy, a.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
	}
	return res, err
}

// ErrBusy is Run's answer while another backup runs.
var ErrBusy = errors.New("another backup is running")

// record makes one backup and records it as rec (its ID, trigger and
// requester set by the caller); progress hears how far it got.
func (s *Service) record(ctx context.Context, start time.Time, rec db.BackupRun, progress func(string)) (Result, error) {
	res, err := s.run(ctx, start, progress)
	rec.StartedAt, rec.FinishedAt, rec.Name, rec.Location = start, s.o.Now().UTC(), res.Name, s.o.Target.String()
	if err != nil {
		rec.Outcome, rec.Summary = db.OutcomeFailed, err.Error()
		s.o.Log.Error("backup failed", "to", s.o.Target.String(), "err", err)
	} else {
		rec.Outcome, rec.Bytes, rec.Summary = db.OutcomeOK, res.Manifest.Bytes(), res.Summary()
		s.o.Log.Info("backup made", "name", res.Name, "to", res.Location, "bytes", rec.Bytes, "took", res.Took.Round(time.Millisecond).String())
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if rerr := s.o.Store.RecordBackup(rctx, rec); rerr != nil {
		s.o.Log.Error("backup not recorded", "err", rerr)
		if err == nil {
			err = fmt.Errorf("the backup %s was made but could not be recorded: %w", res.Name, rerr)
		}
	}
	return res, err
}

func (s *Service) run(ctx context.Context, start time.Time, progress func(string)) (Result, error) {
	lister, ok := s.o.Media.(storage.Lister)
	if !ok {
		return Result{}, errors.New("the media storage cannot be listed")
	}
	if s.o.Target.ready != nil {
		if err := s.o.Target.ready(ctx); err != nil {
			return Result{}, err
		}
	}
	name, err := s.freeName(ctx, start)
	if err != nil {
		return Result{}, err
	}
	res := Result{Name: name, Location: s.o.Target.Sub(name)}
	tmp, err := os.MkdirTemp(s.tempDir(), "backup-")
	if err != nil {
		return res, fmt.Errorf("temporary folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	ok = false
	defer func() {
		if !ok {
			// A backup cut short is removed, so only complete ones stay.
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			s.o.Target.remove(cctx, name)
			cancel()
		}
	}()

	dialect := s.o.Store.Dialect()
	m := &Manifest{Format: FormatVersion, Name: name, CreatedAt: start, Site: s.o.Version, Dialect: dialect}
	// The database first: every file it names was stored before it.
	dbPath := filepath.Join(tmp, dbFile(dialect))
	progress("Copying and checking the database")
	if m.Tables, m.Schema, err = s.copyDatabase(ctx, dbPath); err != nil {
		return res, err
	}
	if m.Database, err = s.upload(ctx, name, dbFile(dialect), dbPath); err != nil {
		return res, err
	}
	progress("Copying photos and videos")
	var mediaBytes int64
	err = lister.List(ctx, MediaPrefix, func(key string, _ int64) error {
		f, err := s.copyMedia(ctx, name, key)
		if errors.Is(err, storage.ErrNotFound) {
			return nil // deleted since it was listed
		}
		if err != nil {
			return err
		}
		m.Files = append(m.Files, f)
		mediaBytes += f.Bytes
		progress(fmt.Sprintf("Copying photos and videos: %s, %s so far", words.Count(len(m.Files), "file", "files"), words.Bytes(mediaBytes)))
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("media: %w", err)
	}
	progress("Copying leads waiting to be stored")
	spooled, err := s.copySpool(ctx, name)
	if err != nil {
		return res, fmt.Errorf("lead spool: %w", err)
	}
	m.Files = append(m.Files, spooled...)
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	progress("Writing the list of files and their checksums")
	body, _ := json.MarshalIndent(m, "", "  ")
	if _, err := s.o.Target.put(ctx, name+"/"+ManifestFile, strings.NewReader(string(body))); err != nil {
		return res, fmt.Errorf("write the manifest: %w", err)
	}
	ok = true
	res.Manifest, res.Took = m, s.o.Now().Sub(start)
	return res, nil
}

// tempDir is DATA_DIR/tmp (the database copy may be large: it stays on
// the data's disk, not a small /tmp).
func (s *Service) tempDir() string {
	d := filepath.Join(s.o.DataDir, "tmp")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return os.TempDir()
	}
	return d
}

// freeName is the backup's name: its start time, with -2, -3... when a
// backup of that second exists.
func (s *Service) freeName(ctx context.Context, start time.Time) (string, error) {
	l, err := s.o.Target.List(ctx)
	if err != nil {
		return "", err
	}
	taken := map[string]bool{}
	for _, n := range append(l.Complete, l.Incomplete...) {
		taken[n] = true
	}
	base := start.UTC().Format(NameLayout)
	name := base
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	return name, nil
}

// upload copies a local file into the backup and returns its entry.
func (s *Service) upload(ctx context.Context, name, rel, file string) (File, error) {
	f, err := os.Open(file)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	hr := newHashingReader(f)
	if _, err := s.o.Target.put(ctx, name+"/"+rel, hr); err != nil {
		return File{}, fmt.Errorf("write %s: %w", rel, err)
	}
	return File{Path: rel, Bytes: hr.n, SHA256: hr.sum()}, nil
}

// copyMedia streams one media file into the backup.
func (s *Service) copyMedia(ctx context.Context, name, key string) (File, error) {
	o, err := s.o.Media.Open(ctx, key)
	if err != nil {
		return File{}, err
	}
	defer o.Close()
	hr := newHashingReader(o)
	rel := "media/" + key
	if _, err := s.o.Target.put(ctx, name+"/"+rel, hr); err != nil {
		return File{}, fmt.Errorf("write %s: %w", rel, err)
	}
	return File{Path: rel, Bytes: hr.n, SHA256: hr.sum()}, nil
}

// copySpool copies the lead spool's files (leads taken while the
// database was down, not yet stored).
func (s *Service) copySpool(ctx context.Context, name string) ([]File, error) {
	dir := filepath.Join(s.o.DataDir, "spool")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []File
	for _, e := range entries {
		if !e.Type().IsRegular() || !storage.ValidKey("spool/"+e.Name()) {
			continue
		}
		if info, err := e.Info(); err != nil || info.Size() == 0 {
			continue // an empty spool holds no lead
		}
		f, err := s.upload(ctx, name, "spool/"+e.Name(), filepath.Join(dir, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Job is the scheduled backup (server/jobs.go): a backup, then the
// retention of BACKUP_KEEP_DAILY and BACKUP_KEEP_WEEKLY. The job runs
// on one instance (jobs.Job.Once).
func (s *Service) Job(ctx context.Context) (string, error) {
	res, started, err := s.runLocked(ctx, TriggerSchedule, "")
	if !started && err == nil {
		return "", jobs.Skip("a backup was already running")
	}
	if err != nil {
		return "", err
	}
	deleted, err := s.Prune(ctx)
	if err != nil {
		return res.Summary() + "; old backups not pruned", err
	}
	if len(deleted) > 0 {
		return res.Summary() + "; deleted " + words.Count(len(deleted), "old backup", "old backups") + ": " + strings.Join(deleted, ", "), nil
	}
	return res.Summary(), nil
}

// Location is where backups go.
func (s *Service) Location() string { return s.o.Target.String() }

// closeQuietly closes c, for readers whose close error says nothing new.
func closeQuietly(c io.Closer) { _ = c.Close() }

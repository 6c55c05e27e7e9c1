package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/storage"
	"github.com/atlanta-restoration/site/words"
)

// ErrDamaged is returned when a backup does not match its manifest (a
// file missing, cut short or changed, a database that fails its check):
// nothing is restored from it.
var ErrDamaged = errors.New("the backup is damaged")

// RestoreOptions say what to restore and where to.
type RestoreOptions struct {
	// From holds the backup; Name is its folder there.
	From *Target
	Name string
	// DatabaseURL ("" for SQLite in DataDir), DataDir and Media are the
	// site's, as the server would open them.
	DatabaseURL string
	DataDir     string
	Media       storage.Storage
	PGBinDir    string
	// CheckOnly verifies the backup and restores nothing (site restore
	// --check); it needs no lock.
	CheckOnly bool
	Log       *slog.Logger
}

// Report says what a restore found and did.
type Report struct {
	Name, From string
	Manifest   *Manifest
	CheckOnly  bool
	// Database is where the database went.
	Database string
	// MediaRestored were written; MediaInPlace were there already,
	// byte-identical.
	MediaRestored, MediaInPlace int
	// SpoolRestored are spool files written; SpoolKept spool files left
	// as they were (the instance's own, different from the backup's).
	SpoolRestored, SpoolKept []string
}

// Lines are the report as the command prints it.
func (r Report) Lines() []string {
	m := r.Manifest
	verb := "restored"
	if r.CheckOnly {
		verb = "checked (nothing restored)"
	}
	n, mb := m.MediaCount()
	names := make([]string, 0, len(m.Tables))
	for t := range m.Tables {
		names = append(names, t)
	}
	sort.Strings(names)
	var counts []string
	for _, t := range names {
		counts = append(counts, fmt.Sprintf("%s %d", t, m.Tables[t]))
	}
	checked := "integrity and row counts checked"
	if m.Dialect == "postgres" {
		checked = "the dump reads back (pg_restore --list); row counts are checked once it is restored"
	}
	out := []string{
		fmt.Sprintf("%s backup %s (made %s by site %s) from %s", verb, r.Name, m.CreatedAt.UTC().Format("2006-01-02 15:04:05 UTC"), orUnknown(m.Site), r.From),
		fmt.Sprintf("database: %s, schema %d, %s, %s", m.Dialect, m.Schema, words.Bytes(m.Database.Bytes), checked),
		"rows: " + strings.Join(counts, ", "),
		fmt.Sprintf("media: %s, %s, every SHA-256 checked", words.Count(n, "file", "files"), words.Bytes(mb)),
	}
	if r.CheckOnly {
		return out
	}
	checked = "integrity and row counts checked"
	if m.Dialect == "postgres" {
		checked = "row counts checked against the manifest"
	}
	out[1] = fmt.Sprintf("database: %s, schema %d, %s, into %s; %s", m.Dialect, m.Schema, words.Bytes(m.Database.Bytes), r.Database, checked)
	out[3] = fmt.Sprintf("media: %s restored, %s already in place, byte-identical (every SHA-256 checked)", words.Count(r.MediaRestored, "file", "files"), words.Count(r.MediaInPlace, "file", "files"))
	if len(r.SpoolRestored) > 0 {
		out = append(out, "lead spool: restored "+strings.Join(r.SpoolRestored, ", ")+" (the site stores these leads when it starts)")
	}
	if len(r.SpoolKept) > 0 {
		out = append(out, "lead spool: kept this instance's "+strings.Join(r.SpoolKept, ", ")+" (different from the backup's, not overwritten)")
	}
	return append(out, "start the site: it applies any newer migrations at boot")
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown version)"
	}
	return s
}

// Restore checks a backup against its manifest and, unless CheckOnly,
// restores the database, the media and the lead spool. It refuses a
// database a running instance holds (db.ErrInUse), a backup of the other
// database kind or of a newer schema, and a damaged backup (ErrDamaged);
// in each case nothing is changed.
func Restore(ctx context.Context, o RestoreOptions) (Report, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	rep := Report{Name: o.Name, From: o.From.Sub(o.Name), CheckOnly: o.CheckOnly}
	if !o.CheckOnly {
		release, err := db.Exclusive(ctx, o.DatabaseURL, o.DataDir)
		if err != nil {
			return rep, fmt.Errorf("restore refused: %w", err)
		}
		defer release()
	}
	m, err := readManifest(ctx, o.From, o.Name)
	if err != nil {
		return rep, err
	}
	rep.Manifest = m
	want := "sqlite"
	if o.DatabaseURL != "" {
		want = "postgres"
	}
	if m.Dialect != want {
		return rep, fmt.Errorf("restore refused: backup %s is of a %s database and this site is configured for %s (DATABASE_URL); nothing was changed", o.Name, m.Dialect, want)
	}
	if latest := db.LatestMigration(); m.Schema > latest {
		return rep, fmt.Errorf("restore refused: backup %s was made at schema %d, newer than this build knows (%d): restore it with the version of the site that made it (%s)", o.Name, m.Schema, latest, orUnknown(m.Site))
	}
	if err := os.MkdirAll(filepath.Join(o.DataDir, "tmp"), 0o755); err != nil {
		return rep, err
	}
	stage, err := os.MkdirTemp(filepath.Join(o.DataDir, "tmp"), "restore-")
	if err != nil {
		return rep, err
	}
	defer os.RemoveAll(stage)

	// Everything is fetched and checked before anything is changed.
	damaged := func(format string, args ...any) error {
		return fmt.Errorf("%w: backup %s: %s; nothing was restored", ErrDamaged, o.Name, fmt.Sprintf(format, args...))
	}
	dbLocal := filepath.Join(stage, m.Database.Path)
	if err := fetch(ctx, o.From, o.Name, m.Database, dbLocal); err != nil {
		return rep, damaged("%v", err)
	}
	if m.Dialect == "sqlite" {
		counts, schema, err := checkSQLite(ctx, dbLocal)
		if err != nil {
			return rep, damaged("%v", err)
		}
		if schema != m.Schema {
			return rep, damaged("the database copy is at schema %d, the manifest says %d", schema, m.Schema)
		}
		if diff := countDiff(m.Tables, counts); diff != "" {
			return rep, damaged("the database copy's row counts differ from the manifest's: %s", diff)
		}
	} else if err := checkDump(ctx, o.PGBinDir, dbLocal); err != nil {
		if errors.Is(err, ErrNoPGTool) {
			return rep, err
		}
		return rep, damaged("%v", err)
	}
	for _, f := range m.Files {
		if !strings.HasPrefix(f.Path, "media/") && !strings.HasPrefix(f.Path, "spool/") || strings.Contains(f.Path, "..") {
			return rep, damaged("the manifest names an unexpected file %q", f.Path)
		}
		if err := fetch(ctx, o.From, o.Name, f, filepath.Join(stage, filepath.FromSlash(f.Path))); err != nil {
			return rep, damaged("%v", err)
		}
	}
	if o.CheckOnly {
		return rep, nil
	}

	// The database.
	if m.Dialect == "sqlite" {
		dst := filepath.Join(o.DataDir, "site.db")
		for _, side := range []string{dst + "-wal", dst + "-shm", dst + "-journal"} {
			if err := os.Remove(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return rep, fmt.Errorf("remove %s: %w", side, err)
			}
		}
		if err := os.Rename(dbLocal, dst); err != nil {
			return rep, fmt.Errorf("put the database in place: %w", err)
		}
		syncDir(o.DataDir)
		rep.Database = dst
	} else {
		if err := restorePostgres(ctx, o.DatabaseURL, o.PGBinDir, dbLocal); err != nil {
			return rep, err
		}
		counts, err := countPostgres(ctx, o.DatabaseURL)
		if err != nil {
			return rep, fmt.Errorf("count the restored database: %w", err)
		}
		if diff := countDiff(m.Tables, counts); diff != "" {
			return rep, fmt.Errorf("the restored database's row counts differ from the manifest's: %s", diff)
		}
		rep.Database = "the PostgreSQL database of DATABASE_URL"
	}

	// The media and the spool.
	for _, f := range m.Files {
		local := filepath.Join(stage, filepath.FromSlash(f.Path))
		if key, ok := strings.CutPrefix(f.Path, "media/"); ok {
			same, err := sameObject(ctx, o.Media, key, f)
			if err != nil {
				return rep, err
			}
			if same {
				rep.MediaInPlace++
				continue
			}
			if err := putFile(ctx, o.Media, key, local); err != nil {
				return rep, fmt.Errorf("restore %s: %w", f.Path, err)
			}
			rep.MediaRestored++
			continue
		}
		name := strings.TrimPrefix(f.Path, "spool/")
		restored, err := restoreSpoolFile(filepath.Join(o.DataDir, "spool"), name, local, f)
		if err != nil {
			return rep, err
		}
		if restored {
			rep.SpoolRestored = append(rep.SpoolRestored, name)
		} else {
			rep.SpoolKept = append(rep.SpoolKept, name)
		}
	}
	o.Log.Info("backup restored", "name", o.Name, "from", rep.From)
	return rep, nil
}

// readManifest reads and parses a backup's manifest.
func readManifest(ctx context.Context, t *Target, name string) (*Manifest, error) {
	r, err := t.open(ctx, name+"/"+ManifestFile)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("%w: backup %s has no %s: it is not a complete backup; nothing was restored", ErrDamaged, name, ManifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("read backup %s: %w", name, err)
	}
	defer closeQuietly(r)
	b, err := io.ReadAll(io.LimitReader(r, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("read backup %s: %w", name, err)
	}
	m, err := parseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%w: backup %s: %v; nothing was restored", ErrDamaged, name, err)
	}
	if m.Name != name {
		return nil, fmt.Errorf("%w: backup %s: its manifest names backup %s; nothing was restored", ErrDamaged, name, m.Name)
	}
	return m, nil
}

// fetch copies one file of a backup to local, checking its size and
// SHA-256 against the manifest's.
func fetch(ctx context.Context, t *Target, name string, f File, local string) error {
	r, err := t.open(ctx, name+"/"+f.Path)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%s is missing", f.Path)
	}
	if err != nil {
		return fmt.Errorf("%s cannot be read: %w", f.Path, err)
	}
	defer closeQuietly(r)
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		return err
	}
	out, err := os.Create(local)
	if err != nil {
		return err
	}
	hr := newHashingReader(r)
	_, err = io.Copy(out, hr)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s cannot be read: %w", f.Path, err)
	}
	if hr.n != f.Bytes {
		return fmt.Errorf("%s is %d bytes, the manifest says %d", f.Path, hr.n, f.Bytes)
	}
	if got := hr.sum(); got != f.SHA256 {
		return fmt.Errorf("%s does not match its checksum (SHA-256 %s…, the manifest says %s…)", f.Path, got[:12], f.SHA256[:min(12, len(f.SHA256))])
	}
	return nil
}

// countDiff lists the tables whose counts differ ("" when none).
func countDiff(want, got map[string]int64) string {
	var out []string
	for t, n := range want {
		if got[t] != n {
			out = append(out, fmt.Sprintf("%s %d, manifest %d", t, got[t], n))
		}
	}
	for t, n := range got {
		if _, ok := want[t]; !ok {
			out = append(out, fmt.Sprintf("%s %d, not in the manifest", t, n))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// sameObject reports whether the media storage holds key with f's bytes.
func sameObject(ctx context.Context, st storage.Storage, key string, f File) (bool, error) {
	o, err := st.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", key, err)
	}
	defer closeQuietly(o)
	if o.Size() != f.Bytes {
		return false, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, o); err != nil {
		return false, fmt.Errorf("read %s: %w", key, err)
	}
	return hex.EncodeToString(h.Sum(nil)) == f.SHA256, nil
}

func putFile(ctx context.Context, st storage.Storage, key, local string) error {
	f, err := os.Open(local)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = st.Put(ctx, key, f, "application/octet-stream")
	return err
}

// restoreSpoolFile writes a spool file back unless the instance has one
// of that name with other contents (its own leads, not to be lost).
func restoreSpoolFile(dir, name, local string, f File) (bool, error) {
	dst := filepath.Join(dir, name)
	if cur, err := os.ReadFile(dst); err == nil {
		sum := sha256.Sum256(cur)
		if hex.EncodeToString(sum[:]) == f.SHA256 {
			return true, nil
		}
		return false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	b, err := os.ReadFile(local)
	if err != nil {
		return false, err
	}
	tmp := dst + ".restoring"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return false, err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return false, err
	}
	return true, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Resolve finds the backup a location names: the backup's own folder
// (FROM/20261125-031500, or s3://bucket/prefix/20261125-031500). A
// location holding several backups is answered with the newest's name.
func Resolve(ctx context.Context, location string, open func(string) (*Target, error)) (*Target, string, error) {
	loc := strings.TrimRight(location, "/")
	i := strings.LastIndex(loc, "/")
	if i > 0 && ValidName(loc[i+1:]) {
		t, err := open(loc[:i])
		name := loc[i+1:]
		if err != nil {
			return nil, "", err
		}
		return t, name, nil
	}
	t, err := open(loc)
	if err != nil {
		return nil, "", err
	}
	l, err := t.List(ctx)
	if err != nil {
		return nil, "", err
	}
	if len(l.Complete) == 0 {
		return nil, "", fmt.Errorf("%s holds no complete backup (a folder named like 20261125-031500 with a %s)", location, ManifestFile)
	}
	return nil, "", fmt.Errorf("%s holds %s; name the one to restore, e.g. the newest: site restore %s", location,
		words.Count(len(l.Complete), "backup", "backups"), t.Sub(l.Complete[0]))
}

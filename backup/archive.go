package backup

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/atlanta-restoration/site/storage"
)

// ErrNoBackup is returned for a name that is not a complete backup in
// the target (never a path: a name is checked with ValidName first).
var ErrNoBackup = errors.New("no such backup")

// Archive is one complete backup read as a tar stream for the admin's
// download: the folder <name>/ with manifest.json first, then the
// database and every file, each read from the target as it is written
// and checked against the manifest's size and SHA-256. Extracted, it is
// a folder `site restore` takes.
type Archive struct {
	Name     string
	Manifest *Manifest
	t        *Target
	raw      []byte // manifest.json as stored
}

// OpenArchive reads backup name's manifest; ErrNoBackup when name is not
// a backup's name or the target has no complete backup of that name,
// ErrDamaged when its manifest is unreadable or names a bad path.
func (s *Service) OpenArchive(ctx context.Context, name string) (*Archive, error) {
	if !ValidName(name) {
		return nil, ErrNoBackup
	}
	r, err := s.o.Target.open(ctx, name+"/"+ManifestFile)
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrBadKey) {
		return nil, ErrNoBackup
	}
	if err != nil {
		return nil, fmt.Errorf("read backup %s: %w", name, err)
	}
	defer closeQuietly(r)
	raw, err := io.ReadAll(io.LimitReader(r, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("read backup %s: %w", name, err)
	}
	m, err := parseManifest(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: backup %s: %v", ErrDamaged, name, err)
	}
	if m.Name != name {
		return nil, fmt.Errorf("%w: backup %s: its manifest names backup %s", ErrDamaged, name, m.Name)
	}
	for _, f := range append([]File{m.Database}, m.Files...) {
		if !storage.ValidKey(f.Path) || f.Path == ManifestFile || f.Bytes < 0 {
			return nil, fmt.Errorf("%w: backup %s: its manifest names the file %q", ErrDamaged, name, f.Path)
		}
	}
	return &Archive{Name: name, Manifest: m, t: s.o.Target, raw: raw}, nil
}

// FileName is the download's name.
func (a *Archive) FileName() string { return "backup-" + a.Name + ".tar" }

// WriteTo streams the archive to w: each file is copied in small pieces
// from the target (never held whole), its size and SHA-256 checked as
// it passes. A file missing, cut short, longer or changed stops the
// stream with ErrDamaged: the archive is then incomplete (no end
// marker), so no tool takes it for a good one.
func (a *Archive) WriteTo(ctx context.Context, w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	tw := tar.NewWriter(cw)
	mod := a.Manifest.CreatedAt
	if err := tw.WriteHeader(&tar.Header{Name: a.Name + "/" + ManifestFile, Mode: 0o644, Size: int64(len(a.raw)), ModTime: mod, Typeflag: tar.TypeReg}); err != nil {
		return cw.n, err
	}
	if _, err := io.Copy(tw, bytes.NewReader(a.raw)); err != nil {
		return cw.n, err
	}
	for _, f := range append([]File{a.Manifest.Database}, a.Manifest.Files...) {
		if err := ctx.Err(); err != nil {
			return cw.n, err
		}
		if err := a.writeFile(ctx, tw, f); err != nil {
			return cw.n, err
		}
	}
	return cw.n, tw.Close()
}

func (a *Archive) writeFile(ctx context.Context, tw *tar.Writer, f File) error {
	obj, err := a.t.open(ctx, a.Name+"/"+f.Path)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%w: %s is missing", ErrDamaged, f.Path)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Path, err)
	}
	defer closeQuietly(obj)
	if err := tw.WriteHeader(&tar.Header{Name: a.Name + "/" + f.Path, Mode: 0o644, Size: f.Bytes, ModTime: a.Manifest.CreatedAt, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	hr := newHashingReader(io.LimitReader(obj, f.Bytes))
	n, err := io.Copy(tw, hr)
	if err != nil {
		return fmt.Errorf("copy %s: %w", f.Path, err)
	}
	if n < f.Bytes {
		return fmt.Errorf("%w: %s is %d bytes, the manifest says %d", ErrDamaged, f.Path, n, f.Bytes)
	}
	if extra, _ := obj.Read(make([]byte, 1)); extra > 0 {
		return fmt.Errorf("%w: %s is longer than the manifest says (%d bytes)", ErrDamaged, f.Path, f.Bytes)
	}
	if hr.sum() != f.SHA256 {
		return fmt.Errorf("%w: %s does not match its SHA-256 in the manifest", ErrDamaged, f.Path)
	}
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Local stores files under a folder.
type Local struct{ root string }

// NewLocal returns a Local rooted at dir, creating it.
func NewLocal(dir string) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return &Local{root: abs}, nil
}

func (l *Local) path(key string) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	p := filepath.Join(l.root, filepath.FromSlash(key))
	if !strings.HasPrefix(p, l.root+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	return p, nil
}

// Put writes to a temporary file and renames it into place, so a failed
// or cancelled upload never leaves a partial file under key.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, _ string) (int64, error) {
	p, err := l.path(key)
	if err != nil {
		return 0, err
	}
	dir := filepath.Dir(p)
	tmp, err := createTemp(dir)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(tmp, ctxReader{ctx, r})
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		l.pruneDir(dir)
		return 0, err
	}
	return n, nil
}

// createTemp makes the key's folder and a temporary file in it. A failed
// upload or a delete elsewhere may remove the folder between the two
// steps (pruneDir), so a vanished folder is made again, once.
func createTemp(dir string) (*os.File, error) {
	for try := 0; ; try++ {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err := os.CreateTemp(dir, ".upload-*")
		if errors.Is(err, fs.ErrNotExist) && try == 0 {
			continue
		}
		return f, err
	}
}

// pruneDir removes a key's folder once it is empty (a project whose only
// upload failed, or whose last file was deleted), never the root. Remove
// fails on a folder that still holds anything, which is the check.
func (l *Local) pruneDir(dir string) {
	if dir != l.root && strings.HasPrefix(dir, l.root+string(filepath.Separator)) {
		os.Remove(dir)
	}
}

type localObject struct {
	*os.File
	info fs.FileInfo
}

func (o localObject) Size() int64        { return o.info.Size() }
func (o localObject) ModTime() time.Time { return o.info.ModTime() }

// Open opens a stored file.
func (l *Local) Open(_ context.Context, key string) (Object, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		f.Close()
		return nil, ErrNotFound
	}
	return localObject{f, info}, nil
}

// Delete removes a stored file, and its folder when that is left empty.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	l.pruneDir(filepath.Dir(p))
	return nil
}

// List walks the folder under prefix. Temporary files of uploads under
// way (dot names) and anything that is not a valid key are left out.
func (l *Local) List(ctx context.Context, prefix string, fn func(key string, size int64) error) error {
	// Walk only the folder the prefix names (its part up to the last
	// slash); the prefix itself filters the keys.
	start := l.root
	if i := strings.LastIndex(prefix, "/"); i > 0 {
		p, err := l.path(prefix[:i])
		if err != nil {
			return err
		}
		start = p
	}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if strings.HasPrefix(d.Name(), ".") && p != start {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(l.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if !ValidKey(key) || !strings.HasPrefix(key, prefix) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted while listing
			}
			return err
		}
		return fn(key, info.Size())
	})
	if err != nil {
		return fmt.Errorf("storage: list %s: %w", prefix, err)
	}
	return nil
}

// ctxReader stops a copy when the request is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

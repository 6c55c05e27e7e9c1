package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/storage"
)

// Target is where backups are kept: a folder, or a prefix of an
// S3-compatible bucket. Each backup is a folder of its own under it,
// named by its time (NameLayout), holding manifest.json, the database
// and the files.
type Target struct {
	files  storage.Storage
	list   storage.Lister
	prefix string // "" or "backups" (no slashes at the ends)
	where  string
	// local is the folder of a target on this machine ("" for S3).
	local string
	// ready makes the bucket when it is missing; it runs before a backup
	// writes, not when the target is opened (a boot must not wait on it).
	ready func(ctx context.Context) error
}

// LocalTarget keeps backups in dir (made if missing).
func LocalTarget(dir string) (*Target, error) {
	l, err := storage.NewLocal(dir)
	if err != nil {
		return nil, fmt.Errorf("backup folder %s: %w", dir, err)
	}
	return &Target{files: l, list: l, where: dir, local: dir}, nil
}

// S3Target keeps backups under prefix in an S3-compatible bucket, with the
// site's S3 endpoint and keys (the bucket is made, if missing, before the
// first backup writes to it).
func S3Target(o storage.S3Options, prefix string) *Target {
	b := storage.NewS3(o)
	prefix = strings.Trim(prefix, "/")
	return &Target{files: b, list: b, prefix: prefix, where: "s3://" + o.Bucket + "/" + prefix, ready: func(ctx context.Context) error {
		if err := b.EnsureBucket(ctx); err != nil {
			return fmt.Errorf("backup bucket %s: %w", o.Bucket, err)
		}
		return nil
	}}
}

// Open returns the target a location names: s3://bucket/prefix (with the
// configuration's S3 endpoint and keys) or a folder (made if missing).
func Open(location string, st config.Storage) (*Target, error) {
	if bucket, prefix, ok := config.ParseS3URL(location); ok {
		if st.Endpoint == "" || st.AccessKey == "" || st.SecretKey == "" {
			return nil, fmt.Errorf("%s: an s3:// location needs S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY", location)
		}
		return S3Target(storage.S3Options{Endpoint: st.Endpoint, Region: st.Region, Bucket: bucket, AccessKey: st.AccessKey, SecretKey: st.SecretKey}, prefix), nil
	}
	return LocalTarget(location)
}

// String is where the target is, with no credential.
func (t *Target) String() string { return t.where }

// Sub is the location of one backup in the target.
func (t *Target) Sub(name string) string {
	if strings.HasPrefix(t.where, "s3://") {
		return strings.TrimSuffix(t.where, "/") + "/" + name
	}
	return path.Join(t.where, name)
}

func (t *Target) key(k string) string {
	if t.prefix == "" {
		return k
	}
	return t.prefix + "/" + k
}

func (t *Target) put(ctx context.Context, key string, r io.Reader) (int64, error) {
	return t.files.Put(ctx, t.key(key), r, "application/octet-stream")
}

func (t *Target) open(ctx context.Context, key string) (storage.Object, error) {
	return t.files.Open(ctx, t.key(key))
}

// files lists the keys under one backup (relative to it) with sizes.
func (t *Target) filesOf(ctx context.Context, name string) (map[string]int64, error) {
	out := map[string]int64{}
	base := t.key(name) + "/"
	err := t.list.List(ctx, base, func(key string, size int64) error {
		out[strings.TrimPrefix(key, base)] = size
		return nil
	})
	return out, err
}

// remove deletes one backup, every file of it.
func (t *Target) remove(ctx context.Context, name string) error {
	keys, err := t.filesOf(ctx, name)
	if err != nil {
		return err
	}
	for k := range keys {
		if err := t.files.Delete(ctx, t.key(name+"/"+k)); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return fmt.Errorf("delete backup %s: %w", name, err)
		}
	}
	return nil
}

// Listing is what a target holds: the complete backups (with a manifest)
// and the incomplete ones (a backup cut short), each newest first.
type Listing struct {
	Complete, Incomplete []string
}

// List reads which backups the target holds.
func (t *Target) List(ctx context.Context) (Listing, error) {
	seen := map[string]bool{}
	done := map[string]bool{}
	base := ""
	if t.prefix != "" {
		base = t.prefix + "/"
	}
	err := t.list.List(ctx, base, func(key string, _ int64) error {
		rest := strings.TrimPrefix(key, base)
		name, file, ok := strings.Cut(rest, "/")
		if !ok || !ValidName(name) {
			return nil
		}
		seen[name] = true
		if file == ManifestFile {
			done[name] = true
		}
		return nil
	})
	if err != nil {
		return Listing{}, fmt.Errorf("list backups in %s: %w", t, err)
	}
	var l Listing
	for n := range seen {
		if done[n] {
			l.Complete = append(l.Complete, n)
		} else {
			l.Incomplete = append(l.Incomplete, n)
		}
	}
	// Names sort by time.
	sort.Sort(sort.Reverse(sort.StringSlice(l.Complete)))
	sort.Sort(sort.Reverse(sort.StringSlice(l.Incomplete)))
	return l, nil
}

// sortNewestFirst sorts backup names newest first (names sort by time).
func sortNewestFirst(names []string) { sort.Sort(sort.Reverse(sort.StringSlice(names))) }

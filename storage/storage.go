// Package storage keeps uploaded media files behind one interface: a local
// folder by default, or an S3-compatible bucket when several instances
// share the work. Files are streamed in and out, never held whole in memory.
package storage

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"time"
)

// ErrNotFound is returned for a key that holds no file.
var ErrNotFound = errors.New("storage: not found")

// ErrBadKey is returned for a key outside the allowed shape.
var ErrBadKey = errors.New("storage: invalid key")

// Object is an open stored file. Seek lets http.ServeContent answer Range
// requests (video scrubbing) without reading the whole file.
type Object interface {
	io.ReadSeekCloser
	Size() int64
	ModTime() time.Time
}

// Storage stores files by key ("projects/{folder}/{name}").
type Storage interface {
	// Put streams r into key and returns the number of bytes stored. On
	// error nothing is left under key.
	Put(ctx context.Context, key string, r io.Reader, contentType string) (int64, error)
	Open(ctx context.Context, key string) (Object, error)
	Delete(ctx context.Context, key string) error
}

// Lister lists stored files: fn gets every key under prefix (a key
// prefix such as "projects/") with its size, in no set order. Files being
// written are not listed. Backups read the media through it.
type Lister interface {
	List(ctx context.Context, prefix string, fn func(key string, size int64) error) error
}

var keyRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$`)

// ValidKey reports whether key is a safe relative path: lower-case
// segments of letters, digits, dot, dash and underscore, no "..", no
// leading slash. Every backend checks it, so no caller can escape the root.
func ValidKey(key string) bool {
	if len(key) > 512 || !keyRE.MatchString(key) {
		return false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "." || seg == ".." || strings.HasPrefix(seg, "..") {
			return false
		}
	}
	return true
}

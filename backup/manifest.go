package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"regexp"
	"time"
)

// ManifestFile is the last file a backup writes: a backup without it was
// cut short and is never restored.
const ManifestFile = "manifest.json"

// FormatVersion is the manifest's format.
const FormatVersion = 1

// NameLayout names a backup by its UTC start time, so names sort by time
// and are valid storage keys.
const NameLayout = "20060102-150405"

var nameRE = regexp.MustCompile(`^\d{8}-\d{6}(-\d+)?$`)

// ValidName reports whether name is a backup's name.
func ValidName(name string) bool { return nameRE.MatchString(name) }

// nameTime is the time a backup's name says.
func nameTime(name string) (time.Time, bool) {
	if len(name) < len(NameLayout) {
		return time.Time{}, false
	}
	t, err := time.Parse(NameLayout, name[:len(NameLayout)])
	return t, err == nil
}

// Manifest describes a backup: what it holds, the checksum of every
// file, and the row count of every table at the moment of the copy. A
// restore checks each before it changes anything.
type Manifest struct {
	Format    int       `json:"format"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	// Site is the version of the site that made it.
	Site string `json:"site"`
	// Dialect is sqlite or postgres; Schema the newest migration applied.
	Dialect string `json:"dialect"`
	Schema  int    `json:"schema"`
	// Database is the copy: site.db (SQLite) or site.pgdump (pg_dump's
	// custom format).
	Database File `json:"database"`
	// Tables are the row counts of the copy.
	Tables map[string]int64 `json:"tables"`
	// Files are the media (media/projects/...) and the lead spool
	// (spool/...), as they were when the backup read them.
	Files []File `json:"files"`
}

// File is one file of a backup: its path in the backup, size and SHA-256.
type File struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Bytes is the backup's total size.
func (m *Manifest) Bytes() int64 {
	n := m.Database.Bytes
	for _, f := range m.Files {
		n += f.Bytes
	}
	return n
}

// MediaCount and MediaBytes are the media files' number and size.
func (m *Manifest) MediaCount() (n int, bytes int64) {
	for _, f := range m.Files {
		if len(f.Path) > 6 && f.Path[:6] == "media/" {
			n++
			bytes += f.Bytes
		}
	}
	return n, bytes
}

func parseManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the manifest is not readable JSON: %w", err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("the manifest's format is %d; this site reads format %d", m.Format, FormatVersion)
	}
	if m.Database.Path == "" || m.Database.SHA256 == "" || (m.Dialect != "sqlite" && m.Dialect != "postgres") {
		return nil, fmt.Errorf("the manifest names no database copy")
	}
	return &m, nil
}

// hashingReader counts and hashes what is read through it.
type hashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func newHashingReader(r io.Reader) *hashingReader { return &hashingReader{r: r, h: sha256.New()} }

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashingReader) sum() string { return hex.EncodeToString(h.h.Sum(nil)) }

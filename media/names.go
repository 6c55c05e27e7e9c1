// Package media turns uploads into stored portfolio files: it sniffs the
// real type from the content, names files by spec 5's rules, and for
// photos applies EXIF orientation, drops metadata (location included) and
// makes responsive WebP variants.
package media

import (
	"crypto/rand"
	"fmt"
	"path"
	"strings"
	"time"
)

// FolderSlug turns a project name into its folder (spec 5): lower-cased,
// runs of non-alphanumeric characters become one hyphen, leading and
// trailing hyphens trimmed. Only a-z and 0-9 survive, so "../" cannot.
func FolderSlug(project string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(project) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// cleanExt keeps a short alphanumeric, lower-case extension of name.
func cleanExt(name string) string {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(strings.ReplaceAll(name, "\\", "/")), "."))
	if len(ext) == 0 || len(ext) > 5 {
		return ""
	}
	for _, r := range ext {
		if !((r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')) {
			return ""
		}
	}
	return ext
}

const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"

func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return string(b)
}

// StoredName is the stored file name (spec 5): a timestamp, a random
// string and the original extension (or the sniffed type's when the
// original has none). The original name never reaches the path.
func StoredName(original, sniffedExt string, now time.Time) string {
	ext := cleanExt(original)
	if ext == "" {
		ext = sniffedExt
	}
	return fmt.Sprintf("%d-%s.%s", now.UnixMilli(), randomString(8), ext)
}

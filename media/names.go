// Package media turns uploads into stored portfolio files: it sniffs the
// real type from the content, names files by spec 5's rules, and for
// photos applies EXIF orientation, drops metadata (location included) and
// makes responsive WebP variants.
package media

import (
	"crypto/rand"
	"fmt"
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
// string and the extension of the sniffed type. The client's name and
// extension never reach the path: an extension taken from them would let
// "x.html" with a GIF or MP4 header be stored, and served, as HTML.
func StoredName(sniffedExt string, now time.Time) string {
	return fmt.Sprintf("%d-%s.%s", now.UnixMilli(), randomString(8), sniffedExt)
}

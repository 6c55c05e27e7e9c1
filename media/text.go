package media

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxCaption and MaxAlt bound what the owner may write for a photo or
// video, in characters. A caption is a line or two under the picture; alt
// text is read out whole by screen readers, so it is kept shorter.
const (
	MaxCaption = 300
	MaxAlt     = 150
)

// TextError is a caption or alt text that cannot be saved. Its message
// is written for the owner.
type TextError struct{ Message string }

func (e *TextError) Error() string { return e.Message }

// generatedName matches a stored file name's timestamp and random part
// (StoredName), with or without its extension.
var generatedName = regexp.MustCompile(`[0-9]{13}-[a-z0-9]{8}`)

// CleanCaption returns a caption as it is stored and shown: one line, runs
// of spaces and line breaks made one space, control and bidirectional
// override characters dropped, trimmed; at most MaxCaption characters.
// Markup is kept as the text it is: pages escape it where they show it.
func CleanCaption(s string) (string, error) {
	return cleanText("caption", s, MaxCaption)
}

// CleanAlt returns alt text as CleanCaption does a caption, at most MaxAlt
// characters. It refuses a generated file name: alt text describes the
// picture, and a name like 1732262400123-k3j9x0qa.jpg says nothing.
func CleanAlt(s string) (string, error) {
	s, err := cleanText("alt text", s, MaxAlt)
	if err != nil {
		return "", err
	}
	if generatedName.MatchString(strings.ToLower(s)) {
		return "", &TextError{"The alt text should say what the picture shows, not its file name."}
	}
	return s, nil
}

// DefaultAlt is the alt text of a photo or video whose owner wrote none:
// its project and its kind, never its file name.
func DefaultAlt(kind, projectName string) string {
	if projectName == "" {
		// A library photo of no project.
		if kind == "video" {
			return "Video"
		}
		return "Photo"
	}
	if kind == "video" {
		return projectName + " project video"
	}
	return projectName + " project photo"
}

func cleanText(what, s string, limit int) (string, error) {
	if !utf8.ValidString(s) {
		return "", &TextError{fmt.Sprintf("The %s is not valid text.", what)}
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
		case unicode.IsControl(r), bidiControl(r):
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
	}
	out := b.String()
	if n := utf8.RuneCountInString(out); n > limit {
		return "", &TextError{fmt.Sprintf("The %s can be at most %d characters (this one has %d).", what, limit, n)}
	}
	return out, nil
}

// bidiControl reports the embedding, override and isolate characters,
// which can make text display in an order other than the one stored.
func bidiControl(r rune) bool {
	return (r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069')
}

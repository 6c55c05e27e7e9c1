package leads

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxNoteLen is the longest note a person may add to a lead, in
// characters (the estimate form's own notes have the same bound).
const MaxNoteLen = 2000

// Messages of CheckNote.
const (
	MsgNoteEmpty   = "Please write the note."
	MsgNoteInvalid = "Please remove the special characters from the note (a NUL character or invalid text)."
)

// CheckNote returns a note as it is stored (surrounding space trimmed,
// line ends as \n) or the message for a note that cannot be: empty, too
// long, or holding text the databases cannot store.
func CheckNote(body string) (string, error) {
	if !utf8.ValidString(body) || strings.ContainsRune(body, 0) {
		return "", errors.New(MsgNoteInvalid)
	}
	body = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n"))
	if body == "" {
		return "", errors.New(MsgNoteEmpty)
	}
	if utf8.RuneCountInString(body) > MaxNoteLen {
		return "", fmt.Errorf("Notes are too long (%d characters at most).", MaxNoteLen)
	}
	return body, nil
}

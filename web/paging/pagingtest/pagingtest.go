// Package pagingtest checks that a paged admin list refuses what
// paging.Parse refuses, with the same plain 400, through the list's own
// handler: each room's tests call Refused on each of its lists, so every
// list is checked against one table instead of a copy of part of it.
package pagingtest

import (
	"net/http"
	"strings"
	"testing"
)

// Case is a bad request and the message its 400 carries. Edge marks a
// request the server's edge refuses before any list sees it (a NUL or
// invalid UTF-8 anywhere in the request), with its own message.
type Case struct {
	Query, Message string
	Edge           bool
}

// Bad are the paging requests every list refuses.
var Bad = []Case{
	{"page=0", "Page must be a positive number.", false},
	{"page=abc", "Page must be a positive number.", false},
	{"page=-1", "Page must be a positive number.", false},
	{"page=1000001", "Page must be a positive number.", false},
	{"perPage=0", "Per page must be between 1 and 200.", false},
	{"perPage=-5", "Per page must be between 1 and 200.", false},
	{"perPage=x", "Per page must be between 1 and 200.", false},
	{"q=" + strings.Repeat("a", 201), "Search must be at most 200 characters.", false},
	{"q=%FF", "Search must be plain text.", true},
	{"q=a%00b", "Search must be plain text.", true},
}

// Refused asks a room's list (its handler, without the server's edge)
// for every Bad query and fails unless each gets a 400 whose body holds
// the message. get sends the query (added to the list's own query, if
// any) and returns the status and body.
func Refused(t *testing.T, list string, get func(query string) (status int, body string)) {
	t.Helper()
	refused(t, list, get, false)
}

// RefusedBehindEdge is Refused through the whole server: the requests
// the edge refuses first need only be 400s.
func RefusedBehindEdge(t *testing.T, list string, get func(query string) (status int, body string)) {
	t.Helper()
	refused(t, list, get, true)
}

func refused(t *testing.T, list string, get func(string) (int, string), edge bool) {
	t.Helper()
	for _, c := range Bad {
		status, body := get(c.Query)
		if status != http.StatusBadRequest || !(edge && c.Edge) && !strings.Contains(body, c.Message) {
			t.Errorf("%s with %.30s: %d %.200s, want 400 %q", list, c.Query, status, body, c.Message)
		}
	}
}

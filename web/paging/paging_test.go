package paging

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/web/httperr"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		query string
		def   int
		want  Request
	}{
		{"", 0, Request{Page: 1, PerPage: 50}},
		{"", 25, Request{Page: 1, PerPage: 25}},
		{"q=+Marietta++&page=3&perPage=10", 0, Request{Q: "Marietta", Page: 3, PerPage: 10}},
		{"per_page=7", 0, Request{Page: 1, PerPage: 7}},           // the old name (ADR 059)
		{"per_page=7&perPage=9", 0, Request{Page: 1, PerPage: 9}}, // the new name wins
		{"perPage=100000&page=1000000", 0, Request{Page: 1_000_000, PerPage: 200}},
		{"q=" + strings.Repeat("é", 200), 0, Request{Q: strings.Repeat("é", 200), Page: 1, PerPage: 50}}, // characters, not bytes
	} {
		v, _ := url.ParseQuery(c.query)
		got, err := Parse(v, c.def)
		if err != nil || got != c.want {
			t.Errorf("%.40s: %+v %v, want %+v", c.query, got, err, c.want)
		}
	}
	if r := (Request{Page: 3, PerPage: 20}); r.Limit() != 20 || r.Offset() != 40 || r.Info(99) != (Info{Total: 99, Page: 3, PerPage: 20}) {
		t.Errorf("limit %d offset %d info %+v", r.Limit(), r.Offset(), r.Info(99))
	}
	for query, msg := range map[string]string{
		"page=0": "Page must be a positive number.", "page=1.5": "Page must be a positive number.", "page=1000001": "Page must be a positive number.",
		"perPage=0": "Per page must be between 1 and 200.", "per_page=x": "Per page must be between 1 and 200.",
		"q=" + strings.Repeat("a", 201): "Search must be at most 200 characters.", "q=%FF%FE": "Search must be plain text.", "q=a%00b": "Search must be plain text.",
	} {
		v, _ := url.ParseQuery(query)
		_, err := Parse(v, 0)
		var he *httperr.Error
		if !errors.As(err, &he) || he.Status != http.StatusBadRequest || he.Message != msg {
			t.Errorf("%.30s: %v, want 400 %q", query, err, msg)
		}
	}
}

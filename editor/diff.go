package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/content"
)

// RevisionView is one published version with what it changed against the
// version published before it.
type RevisionView struct {
	ID          string      `json:"id"`
	Number      int         `json:"number"`
	Slug        string      `json:"slug"`
	PublishedAt time.Time   `json:"publishedAt"`
	PublishedBy string      `json:"publishedBy"`
	Changes     []FieldDiff `json:"changes"`
}

// FieldDiff is one field that changed: its path in the record ("faqs.2.answer")
// and its lines, each kept, added or removed.
type FieldDiff struct {
	Field string     `json:"field"`
	Lines []DiffLine `json:"lines"`
}

// DiffLine is one line of a field's text.
type DiffLine struct {
	Op   string `json:"op" tstype:"'=' | '+' | '-'"`
	Text string `json:"text"`
}

// History lists an item's published versions, newest first, each with
// its changes against the one before (the first against nothing). A
// deleted item's revisions stay readable; an id that names no item and no
// revision is ErrNotFound.
func (s *Service) History(ctx context.Context, id string) ([]RevisionView, error) {
	revs, err := s.Store.Revisions(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(revs) == 0 {
		if _, err := s.Store.Get(ctx, id); err != nil {
			return nil, storeErr(err)
		}
	}
	// References show as the names of what they name (ADR 046).
	all, err := s.Store.All(ctx)
	if err != nil {
		return nil, err
	}
	ix := fullIndex(all)
	for i := range revs {
		data, _ := content.ToKeys(revs[i].Kind, []byte(revs[i].Data), ix)
		revs[i].Data = string(data)
	}
	out := make([]RevisionView, len(revs))
	for i, r := range revs {
		prev := ""
		if i+1 < len(revs) {
			prev = revs[i+1].Data
		}
		out[i] = RevisionView{ID: r.ID, Number: r.Number, Slug: r.Slug, PublishedAt: r.PublishedAt, PublishedBy: r.PublishedBy, Changes: Diff(prev, r.Data)}
	}
	return out, nil
}

// Diff compares two records' JSON field by field: each text field that
// changed, with a line diff of its text.
func Diff(before, after string) []FieldDiff {
	a, b := flatten(before), flatten(after)
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var fields []string
	for k := range keys {
		if a[k] != b[k] {
			fields = append(fields, k)
		}
	}
	sort.Strings(fields)
	out := []FieldDiff{}
	for _, f := range fields {
		out = append(out, FieldDiff{Field: f, Lines: lineDiff(a[f], b[f])})
	}
	return out
}

// flatten reads a record into field path -> text.
func flatten(doc string) map[string]string {
	out := map[string]string{}
	if doc == "" {
		return out
	}
	var v any
	if json.Unmarshal([]byte(doc), &v) != nil {
		out[""] = doc
		return out
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(join(prefix, k), e)
			}
		case []any:
			// A list of texts reads as lines of one field.
			texts := make([]string, 0, len(x))
			for i, e := range x {
				s, ok := e.(string)
				if !ok {
					walk(join(prefix, fmt.Sprint(i)), e)
					continue
				}
				texts = append(texts, s)
			}
			if len(texts) > 0 || len(x) == 0 {
				out[prefix] = strings.Join(texts, "\n")
			}
		case nil:
			out[prefix] = ""
		default:
			out[prefix] = strings.TrimSpace(fmt.Sprint(x))
		}
	}
	walk("", v)
	return out
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// lineDiff is a longest-common-subsequence diff of two texts' lines. Texts
// are a record's fields: at most a few hundred lines.
func lineDiff(a, b string) []DiffLine {
	x, y := split(a), split(b)
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case x[i] == y[j]:
			out = append(out, DiffLine{"=", x[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, DiffLine{"-", x[i]})
			i++
		default:
			out = append(out, DiffLine{"+", y[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, DiffLine{"-", x[i]})
	}
	for ; j < m; j++ {
		out = append(out, DiffLine{"+", y[j]})
	}
	return out
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

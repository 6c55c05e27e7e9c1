package editor

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
)

// Two editors save the same page: the second, based on the old version,
// gets 409 naming who changed it, and loses nothing saved.
func TestContentConflict(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		t.Parallel()
		r := newRoom(t, s)
		r.Account(t, s, "owner", db.User{ID: "u-owner", Email: "owner@example.com", Name: "The Owner", Roles: []string{accounts.RoleAdmin}})
		r.Account(t, s, "editor", db.User{ID: "u-words", Email: "words@example.com", Name: "Eddie Editor", Roles: []string{accounts.RoleEditor}})
		list := r.doAs(t, "editor", "GET", "/api/admin/content?kind=page", nil)
		var l ItemList
		json.Unmarshal(list.body, &l)
		if len(l.Items) != 3 || l.Creatable {
			t.Fatalf("pages: %s", list.body)
		}
		it := r.item(t, r.doAs(t, "editor", "GET", "/api/admin/content/"+l.Items[0].ID, nil), "load")
		var page content.InfoPage
		json.Unmarshal(it.Draft, &page)
		page.Title = "About Our Crews"
		if a := r.doAs(t, "owner", "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": page}); a.status != 200 {
			t.Fatalf("first save: %d %s", a.status, a.body)
		}
		page.Title = "About Us, Edited Twice"
		a := r.doAs(t, "editor", "PUT", "/api/admin/content/"+it.ID, map[string]any{"version": it.Version, "data": page})
		var c ConflictAnswer
		json.Unmarshal(a.body, &c)
		if a.status != http.StatusConflict || c.By == "" || !strings.Contains(c.Error, "changed by "+c.By+" at") {
			t.Errorf("stale save: %d %s", a.status, a.body)
		}
		if d := r.item(t, r.doAs(t, "editor", "GET", "/api/admin/content/"+it.ID, nil), "reload"); !strings.Contains(string(d.Draft), "About Our Crews") {
			t.Error("the stale save overwrote the first")
		}
	})
}

// Hostile drafts: bad slugs, unknown fields and kinds, and a kind that
// cannot be created are refused with a message. (That markup in every
// text field renders inert on every page that shows it, and that a body
// over BODY_LIMIT is refused before it is read, is tested in server/:
// TestContentHostileInput.)
func TestHostileDraftsRefused(t *testing.T) {
	t.Parallel()
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		t.Parallel()
		r := newRoom(t, s)
		for _, slug := range []string{"../etc", "a/b", "ｂlog-lookalike", "UPPER", "", "x--y", strings.Repeat("a", 120)} {
			a := r.do(t, "POST", "/api/admin/content", map[string]any{"kind": "article", "data": post(slug, "Slug Test "+slug)})
			if a.status != http.StatusUnprocessableEntity || !strings.Contains(string(a.body), "error") {
				t.Errorf("slug %q: %d %.200s", slug, a.status, a.body)
			}
		}
		// Unknown fields and kinds are refused.
		if a := r.do(t, "POST", "/api/admin/content", map[string]any{"kind": "article", "data": map[string]any{"slug": "x", "evil": true}}); a.status != http.StatusUnprocessableEntity {
			t.Errorf("unknown field: %d", a.status)
		}
		if a := r.do(t, "POST", "/api/admin/content", map[string]any{"kind": "widget", "data": map[string]any{}}); a.status != http.StatusUnprocessableEntity {
			t.Errorf("unknown kind: %d", a.status)
		}
		if a := r.do(t, "POST", "/api/admin/content", map[string]any{"kind": "service", "data": map[string]any{}}); a.status != http.StatusUnprocessableEntity {
			t.Errorf("create a service: %d", a.status)
		}
	})
}

package audits

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

// locRoom is Location Pages over a seeded test store, with the callers
// the screen has: the PIN, an editor and an admin (who may edit content)
// and a staff account (who may not).
type locRoom struct {
	*authtest.Room
	h     *Handler
	items *contentdb.Store
	ed    *editor.Service
}

var by = contentdb.Actor{ID: "u-ed", Name: "Edna Editor"}

func newLocRoom(t testing.TB, s *db.Store) *locRoom {
	t.Helper()
	embedded, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	return newLocRoomWith(t, s, embedded)
}

// newLocRoomWith is the room over a store seeded with set.
func newLocRoomWith(t testing.TB, s *db.Store, set *content.Set) *locRoom {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	r := &locRoom{items: contentdb.New(s), Room: authtest.New()}
	r.ed = &editor.Service{Store: r.items, Audit: s, Changed: func(string) {}, Log: quiet}
	if _, err := r.ed.Seed(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	r.h = &Handler{Store: s, Content: r.items, Log: quiet}
	r.reload(t)
	r.GET("/api/admin/locations", r.h.Locations, r.As)
	for tok, role := range map[string]string{"editor": accounts.RoleEditor, "admin": accounts.RoleAdmin, "staff": accounts.RoleStaff} {
		r.Caller(tok, auth.Principal{User: &db.User{ID: "u-" + tok, Name: tok, Roles: []string{role}}, Role: role})
	}
	return r
}

// reload serves the database's live content, as a publish makes every
// instance do.
func (r *locRoom) reload(t testing.TB) {
	t.Helper()
	live, err := r.ed.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.h.Site = site.New(site.Options{BaseURL: "https://example.test", Content: live})
}

func (r *locRoom) locations(t testing.TB, tok string) (LocationsInfo, string) {
	t.Helper()
	res := r.Call(t, "GET", "/api/admin/locations", tok, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("as %s: %d %s", tok, res.StatusCode, res.Body)
	}
	var l LocationsInfo
	if err := json.Unmarshal([]byte(res.Body), &l); err != nil {
		t.Fatal(err)
	}
	return l, res.Body
}

// liveIDs are the ids of a kind's items by live slug, read as the
// editor's list reads them.
func (r *locRoom) liveIDs(t *testing.T, kind string) map[string]string {
	t.Helper()
	list, err := r.items.List(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range list {
		if it.LiveSlug != "" {
			out[it.LiveSlug] = it.ID
		}
	}
	return out
}

func (r *locRoom) item(t *testing.T, kind, slug string) contentdb.Item {
	t.Helper()
	it, err := r.items.GetBySlug(context.Background(), kind, slug)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func findCity(l LocationsInfo, county, href string) (LocationCounty, LocationCity, bool) {
	for _, co := range l.Counties {
		for _, ci := range co.Cities {
			for _, p := range ci.Pages {
				if co.Slug == county && p.Href == href {
					return co, ci, true
				}
			}
		}
	}
	return LocationCounty{}, LocationCity{}, false
}

// mainEdit is what the screen's edit link beside a city opens: its main
// page's item.
func mainEdit(ci LocationCity) string {
	for _, p := range ci.Pages {
		if p.Href == ci.Href {
			return p.EditID
		}
	}
	return ""
}

// An editor's answer names, for every county page, city and city page,
// the content item that serves it: the county's, a fixed city page's own
// record (not its city's, at the same address), a city page's city.
func TestLocationsGiveEachPageItsItem(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newLocRoom(t, s)
		counties, cities, profiles := r.liveIDs(t, content.KindCounty), r.liveIDs(t, content.KindCity), r.liveIDs(t, content.KindCityProfile)
		for _, tok := range []string{"editor", "admin"} {
			l, _ := r.locations(t, tok)
			pages, seen := 0, map[string]string{}
			for _, co := range l.Counties {
				if co.EditID == "" || co.EditID != counties[co.Slug] {
					t.Errorf("%s: %s county edits %q, want %q", tok, co.Slug, co.EditID, counties[co.Slug])
				}
				if len(co.Drafts) != 0 {
					t.Errorf("%s: %s has drafts before any: %+v", tok, co.Slug, co.Drafts)
				}
				for _, ci := range co.Cities {
					main := false
					for _, p := range ci.Pages {
						pages++
						key := strings.TrimPrefix(p.Href, "/areas/")
						want := map[string]string{"Fixed city page": profiles[key], "City page": cities[key]}[p.Kind]
						if p.EditID == "" || p.EditID != want {
							t.Errorf("%s: %s (%s) edits %q, want %q", tok, p.Href, p.Kind, p.EditID, want)
						}
						if other, dup := seen[p.EditID]; dup {
							t.Errorf("%s: %s and %s edit the same item", tok, other, p.Href)
						}
						seen[p.EditID] = p.Href
						main = main || p.Href == ci.Href
					}
					if !main {
						t.Errorf("%s: %s: its main page %s is not among its pages", tok, ci.Name, ci.Href)
					}
				}
			}
			if pages != l.Summary.CityPages || pages < 70 {
				t.Errorf("%s: %d city pages checked, %d on the site", tok, pages, l.Summary.CityPages)
			}
			// Douglasville: the city record and the fixed page share the
			// address; the page served there is the fixed page's.
			_, dv, ok := findCity(l, "douglas", "/areas/douglas/douglasville")
			if !ok || mainEdit(dv) != r.item(t, content.KindCityProfile, "douglas/douglasville").ID || mainEdit(dv) == r.item(t, content.KindCity, "douglas/douglasville").ID {
				t.Errorf("%s: Douglasville %+v", tok, dv)
			}
			// Atlanta: listed once, the fixed page its main one, the city
			// record's page beside it with its own item.
			_, atl, ok := findCity(l, "fulton", "/areas/fulton/atlanta")
			if !ok || len(atl.Pages) != 2 || mainEdit(atl) != r.item(t, content.KindCityProfile, "fulton/atlanta-service").ID ||
				atl.Pages[1].EditID != r.item(t, content.KindCity, "fulton/atlanta").ID {
				t.Errorf("%s: Atlanta %+v", tok, atl)
			}
		}
	})
}

// A county's cities with nothing live are listed under it, in the
// editor's order, with their state and its name in the working copy; a
// city taken down is one of them, and its page is gone. Cities of other
// counties, live cities and a fixed city page taken down are not.
func TestLocationsListEachCountysDrafts(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newLocRoom(t, s)
		ctx, now := context.Background(), time.Now()
		add := func(slug, name string, pos int) contentdb.Item {
			county, city, _ := strings.Cut(slug, "/")
			it, err := r.items.Create(ctx, content.KindCity, slug, `{"county":"`+county+`","slug":"`+city+`","city":"`+name+`"}`, pos, by, now)
			if err != nil {
				t.Fatal(err)
			}
			return it
		}
		second := add("cobb/zeta-town", "Zeta Town", 1001)
		first := add("cobb/alpha-town", "Alpha Town", 1000)
		henry := add("henry/new-hope", "New Hope", 1000)
		noName := add("henry/unnamed", "", 1001)
		at := now.Add(48 * time.Hour).UTC().Truncate(time.Second)
		if second, err := r.items.Schedule(ctx, second.ID, second.Version, at, by, now); err != nil || second.Status != contentdb.StatusScheduled {
			t.Fatalf("schedule: %v %+v", err, second)
		}
		roswell := r.item(t, content.KindCity, "fulton/roswell")
		if _, err := r.items.Unpublish(ctx, roswell.ID, roswell.Version, by, now); err != nil {
			t.Fatal(err)
		}
		// A fixed city page taken down is not a city to add.
		marietta := r.item(t, content.KindCityProfile, "cobb/marietta")
		if _, err := r.items.Unpublish(ctx, marietta.ID, marietta.Version, by, now); err != nil {
			t.Fatal(err)
		}
		r.reload(t)
		l, _ := r.locations(t, "editor")
		want := map[string][]LocationDraft{
			"cobb":   {{ID: first.ID, Title: "Alpha Town", Status: "draft", Pending: true}, {ID: second.ID, Title: "Zeta Town", Status: "scheduled", Pending: true, PublishAt: &at}},
			"henry":  {{ID: henry.ID, Title: "New Hope", Status: "draft", Pending: true}, {ID: noName.ID, Title: "henry/unnamed", Status: "draft", Pending: true}},
			"fulton": {{ID: roswell.ID, Title: "Roswell", Status: "unpublished", Pending: true}},
		}
		for _, co := range l.Counties {
			w := want[co.Slug]
			if len(co.Drafts) != len(w) {
				t.Errorf("%s drafts %+v, want %+v", co.Slug, co.Drafts, w)
				continue
			}
			for i, d := range co.Drafts {
				if d.ID != w[i].ID || d.Title != w[i].Title || d.Status != w[i].Status || !d.Pending ||
					(d.PublishAt == nil) != (w[i].PublishAt == nil) || (d.PublishAt != nil && !d.PublishAt.Equal(*w[i].PublishAt)) {
					t.Errorf("%s draft %d: %+v, want %+v", co.Slug, i, d, w[i])
				}
			}
			delete(want, co.Slug)
		}
		if len(want) != 0 {
			t.Errorf("counties not listed: %v", want)
		}
		if _, _, ok := findCity(l, "fulton", "/areas/fulton/roswell"); ok {
			t.Error("Roswell, taken down, is still listed with a page")
		}
	})
}

// The PIN reads the figures, and a staff account too were it let in: no
// edit id and no draft, however many there are.
func TestLocationsGiveNoEditingToReadOnlyCallers(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newLocRoom(t, s)
		if _, err := r.items.Create(context.Background(), content.KindCity, "cobb/new-town", `{"city":"New Town"}`, 1000, by, time.Now()); err != nil {
			t.Fatal(err)
		}
		ed, _ := r.locations(t, "editor")
		for _, tok := range []string{authtest.PIN, "staff"} {
			l, body := r.locations(t, tok)
			if strings.Contains(body, `"editId"`) || strings.Contains(body, "New Town") {
				t.Errorf("%s: the answer carries editing: %.300s", tok, body)
			}
			if strings.Count(body, `"drafts":[]`) != len(l.Counties) || len(l.Counties) != len(ed.Counties) {
				t.Errorf("%s: %d counties, %d empty draft lists", tok, len(l.Counties), strings.Count(body, `"drafts":[]`))
			}
			if l.Summary != ed.Summary {
				t.Errorf("%s: figures %+v, the editor's %+v", tok, l.Summary, ed.Summary)
			}
		}
	})
}

// A city renamed in its working copy keeps the edit link of the page it
// still serves, and is no draft; once the rename is published, the new
// address has it.
func TestLocationsFollowARenamedCity(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newLocRoom(t, s)
		ctx := context.Background()
		it := r.item(t, content.KindCity, "fulton/roswell")
		var rec map[string]any
		if err := json.Unmarshal([]byte(it.Draft), &rec); err != nil {
			t.Fatal(err)
		}
		rec["slug"], rec["city"] = "roswell-north", "Roswell North"
		data, _ := json.Marshal(rec)
		saved, err := r.ed.Save(ctx, it.ID, it.Version, data, by)
		if err != nil || saved.Slug != "fulton/roswell-north" || saved.LiveSlug != "fulton/roswell" {
			t.Fatalf("save: %v %+v", err, saved)
		}
		l, _ := r.locations(t, "editor")
		fulton, ci, ok := findCity(l, "fulton", "/areas/fulton/roswell")
		if !ok || mainEdit(ci) != it.ID || ci.Pages[0].EditID != it.ID || len(fulton.Drafts) != 0 {
			t.Errorf("renamed, not published: %+v (drafts %+v)", ci, fulton.Drafts)
		}
		if _, err := r.ed.Publish(ctx, it.ID, saved.Version, by); err != nil {
			t.Fatal(err)
		}
		r.reload(t)
		l, _ = r.locations(t, "editor")
		if _, _, ok := findCity(l, "fulton", "/areas/fulton/roswell"); ok {
			t.Error("the old address is still listed")
		}
		fulton, ci, ok = findCity(l, "fulton", "/areas/fulton/roswell-north")
		if !ok || ci.Name != "Roswell North" || mainEdit(ci) != it.ID || len(fulton.Drafts) != 0 {
			t.Errorf("renamed and published: %+v (drafts %+v)", ci, fulton.Drafts)
		}
	})
}

type failingContents struct{}

func (failingContents) Entries(context.Context, ...string) ([]contentdb.Entry, error) {
	return nil, errors.New("database gone")
}

// When the content cannot be read, an editor is told so (and may retry)
// rather than shown the pages without their edit links; the PIN, who is
// given none, still reads the figures.
func TestLocationsSayWhenTheContentCannotBeRead(t *testing.T) {
	r := newLocRoom(t, db.NewTestSQLite(t))
	r.h.Content = failingContents{}
	res := r.Call(t, "GET", "/api/admin/locations", "editor", nil)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(res.Body, "The site's content could not be read; try again in a moment.") {
		t.Errorf("editor: %d %s", res.StatusCode, res.Body)
	}
	if l, _ := r.locations(t, authtest.PIN); len(l.Counties) == 0 {
		t.Error("the PIN got no counties")
	}
}

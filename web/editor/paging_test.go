package editor

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/web/paging/pagingtest"
)

// get answers path, decoded into out when it is 200.
func (r *room) get(t *testing.T, path string, out any) reply {
	t.Helper()
	a := r.do(t, "GET", path, nil)
	if a.status == http.StatusOK {
		if err := json.Unmarshal(a.body, out); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return a
}

// The content list pages and searches on the server: bounded pages,
// exact totals, the page it holds named in the answer, and a plain 400
// for a bad request.
func TestContentListPages(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		var all ItemList
		if a := r.get(t, "/api/admin/content?kind=city&perPage=200", &all); a.status != http.StatusOK || all.Total < 20 || len(all.Items) != all.Total {
			t.Fatalf("every city: %d, %d of %d", a.status, len(all.Items), all.Total)
		}
		var first ItemList
		r.get(t, "/api/admin/content?kind=city", &first)
		if len(first.Items) != min(50, all.Total) || first.Page != 1 || first.PerPage != 50 || first.Total != all.Total || first.Kind != "city" || !first.Creatable {
			t.Errorf("default page: %d items, page %d of %d per page, total %d", len(first.Items), first.Page, first.PerPage, first.Total)
		}
		var p2 ItemList
		r.get(t, "/api/admin/content?kind=city&page=2&perPage=7", &p2)
		if len(p2.Items) != 7 || p2.Page != 2 || p2.PerPage != 7 || p2.Items[0].ID != all.Items[7].ID || p2.Items[6].ID != all.Items[13].ID {
			t.Errorf("page 2 of 7 is not items 8-14 of the whole list: %+v", p2.Info)
		}
		var past ItemList
		if a := r.get(t, "/api/admin/content?kind=city&page=999", &past); a.status != http.StatusOK || len(past.Items) != 0 || past.Total != all.Total || past.Items == nil {
			t.Errorf("past the end: %d %s", a.status, a.body)
		}
		// A client cannot ask for more than 200 rows: it gets 200.
		var huge ItemList
		r.get(t, "/api/admin/content?kind=city&perPage=100000", &huge)
		if huge.PerPage != 200 || len(huge.Items) > 200 {
			t.Errorf("perPage=100000 answered %d rows, %d per page", len(huge.Items), huge.PerPage)
		}

		// The search: the name, ignoring case, and the address.
		name := all.Items[3].Title
		var found ItemList
		r.get(t, "/api/admin/content?kind=city&q="+strings.ReplaceAll(strings.ToUpper(name), " ", "+"), &found)
		if found.Total < 1 || found.Q != strings.ToUpper(name) || !hasItem(found.Items, all.Items[3].ID) {
			t.Errorf("search %q: %+v", name, found.Info)
		}
		for _, it := range found.Items {
			if !strings.Contains(strings.ToLower(it.Title+" "+it.Slug), strings.ToLower(name)) {
				t.Errorf("search %q matched %q (%s)", name, it.Title, it.Slug)
			}
		}
		slug := all.Items[5].Slug
		var bySlug ItemList
		r.get(t, "/api/admin/content?kind=city&q="+slug, &bySlug)
		if !hasItem(bySlug.Items, all.Items[5].ID) {
			t.Errorf("search by address %q: %+v", slug, bySlug.Info)
		}
		var none ItemList
		if r.get(t, "/api/admin/content?kind=city&q=zzzz-no-such-city", &none); none.Total != 0 || len(none.Items) != 0 || none.Items == nil {
			t.Errorf("no match: %+v %v", none.Info, none.Items)
		}

		for _, list := range []string{"/api/admin/content?kind=city&", "/api/admin/redirects?", "/api/admin/not-found?"} {
			pagingtest.Refused(t, list, func(q string) (int, string) {
				a := r.do(t, "GET", list+q, nil)
				return a.status, string(a.body)
			})
		}
		if a := r.do(t, "GET", "/api/admin/content?kind=nonsense", nil); a.status == http.StatusOK {
			t.Errorf("an unknown kind: %d", a.status)
		}
	})
}

func hasItem(items []ItemView, id string) bool {
	for _, it := range items {
		if it.ID == id {
			return true
		}
	}
	return false
}

// The redirects and the 404 monitor page and search the same way.
func TestRedirectsAndNotFoundPage(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		var rs []contentdb.Redirect
		for i := range 60 {
			rs = append(rs, contentdb.Redirect{From: fmt.Sprintf("/old/%02d", i), To: "/contact", Source: contentdb.SourceManual, CreatedAt: time.Now().UTC(), CreatedBy: "Ann"})
		}
		rs = append(rs, contentdb.Redirect{From: "/Water-Damage-Old", To: "/services/water-damage", Source: contentdb.SourceAuto, CreatedAt: time.Now().UTC()})
		if err := contentdb.New(s).ChangeRedirects(t.Context(), func([]contentdb.Redirect) ([]contentdb.Redirect, []string, error) { return rs, nil, nil }); err != nil {
			t.Fatal(err)
		}
		var l RedirectList
		if a := r.get(t, "/api/admin/redirects?page=2&perPage=25", &l); a.status != http.StatusOK || l.Total != 61 || len(l.Redirects) != 25 || l.Redirects[0].From != "/old/24" || l.Max == 0 {
			t.Errorf("redirects, page 2: %d %+v", a.status, l.Info)
		}
		if r.get(t, "/api/admin/redirects?q=water-damage", &l); l.Total != 1 || len(l.Redirects) != 1 || l.Redirects[0].To != "/services/water-damage" {
			t.Errorf("redirects by address: %+v", l)
		}

		day := time.Now().UTC().Format("2006-01-02")
		x := s.DB()
		for i := range 30 {
			if _, err := x.Exec(x.Rebind(`INSERT INTO not_found_hits (day, path, hits, last_seen) VALUES (?, ?, ?, ?)`), day, fmt.Sprintf("/wp-%02d.php", i), 100-i, time.Now().UTC()); err != nil {
				t.Fatal(err)
			}
		}
		var nf NotFoundList
		if a := r.get(t, "/api/admin/not-found?page=3&perPage=10", &nf); a.status != http.StatusOK || nf.Total != 30 || len(nf.Paths) != 10 || nf.Paths[0].Path != "/wp-20.php" || nf.Days != 30 {
			t.Errorf("404 monitor, page 3: %d %+v %+v", a.status, nf.Info, nf.Paths)
		}
		if r.get(t, "/api/admin/not-found?q=WP-1", &nf); nf.Total != 10 || nf.Paths[0].Path != "/wp-10.php" {
			t.Errorf("404 monitor search: %+v", nf.Info)
		}
	})
}

package contentdb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// ListPage's pages, laid end to end, are List's items in List's order;
// the search matches the slug and the record's name, ignoring case, in
// the one kind asked for; the total is every match, not the page's.
func TestListPage(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		var seed []SeedItem
		for i := range 23 {
			name := fmt.Sprintf("Town %02d", i)
			if i == 7 {
				name = "Marietta"
			}
			slug := fmt.Sprintf("cobb/town-%02d", i)
			seed = append(seed, SeedItem{Kind: "city", Slug: slug, JSON: fmt.Sprintf(`{"city":%q,"slug":%q}`, name, slug), Position: i % 3})
		}
		seed = append(seed,
			SeedItem{Kind: "county", Slug: "cobb", JSON: `{"name":"Cobb County marietta"}`},
			SeedItem{Kind: "faq", Slug: "home", JSON: `[{"q":"Marietta?"}]`}, // a list: no name field
			SeedItem{Kind: "article", Slug: "100-percent", JSON: `{"title":"We are 100% dry"}`},
			SeedItem{Kind: "article", Slug: "1000-homes", JSON: `{"title":"1000 homes"}`})
		if _, err := c.Seed(ctx, seed, at(0)); err != nil {
			t.Fatal(err)
		}
		all, err := c.List(ctx, "city")
		if err != nil {
			t.Fatal(err)
		}
		var paged []string
		for page := 0; ; page++ {
			items, total, err := c.ListPage(ctx, "city", db.Page{Limit: 5, Offset: page * 5}, Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if total != 23 {
				t.Fatalf("page %d: total %d, want 23", page, total)
			}
			if len(items) == 0 {
				break
			}
			if len(items) > 5 {
				t.Fatalf("page %d holds %d items", page, len(items))
			}
			for _, it := range items {
				paged = append(paged, it.Slug)
			}
		}
		var want []string
		for _, it := range all {
			want = append(want, it.Slug)
		}
		if diff := cmp.Diff(want, paged); diff != "" {
			t.Errorf("pages laid end to end differ from the whole list (-want, +got):\n%s", diff)
		}

		search := func(kind, q string) ([]string, int) {
			t.Helper()
			items, total, err := c.ListPage(ctx, kind, db.Page{Q: q, Limit: 50}, Filter{})
			if err != nil {
				t.Fatalf("%s %q: %v", kind, q, err)
			}
			var slugs []string
			for _, it := range items {
				slugs = append(slugs, it.Slug)
			}
			return slugs, total
		}
		if got, total := search("city", "MARIETTA"); total != 1 || !cmp.Equal(got, []string{"cobb/town-07"}) {
			t.Errorf("by name, another case: %v of %d", got, total)
		}
		if got, total := search("city", "town-1"); total != 10 || len(got) != 10 {
			t.Errorf("by slug: %v of %d, want the ten town-1x", got, total)
		}
		if got, total := search("city", "nowhere"); total != 0 || got != nil {
			t.Errorf("no match: %v of %d", got, total)
		}
		if got, total := search("county", "marietta"); total != 1 || !cmp.Equal(got, []string{"cobb"}) {
			t.Errorf("the county's name: %v of %d", got, total)
		}
		if got, total := search("faq", "marietta"); total != 0 {
			t.Errorf("a list record has no name to match: %v of %d", got, total)
		}
		// LIKE's wildcards are literal: % matches a percent sign only.
		if got, total := search("article", "100%"); total != 1 || !cmp.Equal(got, []string{"100-percent"}) {
			t.Errorf("a literal percent: %v of %d", got, total)
		}
		if got, total := search("article", "_"); total != 0 {
			t.Errorf("a literal underscore: %v of %d", got, total)
		}
	})
}

// The redirects' and the 404 monitor's pages: stable order, exact
// totals, a search on the paths.
func TestRedirectsAndNotFoundPages(t *testing.T) {
	forEach(t, func(t *testing.T, c *Store) {
		var rs []Redirect
		for i := range 12 {
			rs = append(rs, Redirect{From: fmt.Sprintf("/old-%02d", i), To: fmt.Sprintf("/new-%02d", i%4), Source: SourceManual, CreatedAt: at(i), CreatedBy: "Ann"})
		}
		if err := c.ChangeRedirects(ctx, func([]Redirect) ([]Redirect, []string, error) { return rs, nil, nil }); err != nil {
			t.Fatal(err)
		}
		page, total, err := c.RedirectsPage(ctx, db.Page{Limit: 5, Offset: 10})
		if err != nil || total != 12 || len(page) != 2 || page[0].From != "/old-10" || page[1].From != "/old-11" {
			t.Fatalf("last page: %+v of %d, %v", page, total, err)
		}
		page, total, err = c.RedirectsPage(ctx, db.Page{Q: "NEW-01", Limit: 50})
		if err != nil || total != 3 || len(page) != 3 || page[0].From != "/old-01" || page[2].From != "/old-09" {
			t.Errorf("by the target: %+v of %d, %v", page, total, err)
		}

		hits := map[string]int{}
		for i := range 9 {
			hits[fmt.Sprintf("/wp-%d", i)] = 10 + i%3 // ties, broken by path
		}
		hits["/Old-Page"] = 50
		if err := c.AddNotFoundHits(ctx, "2026-12-01", hits, at(1), 100); err != nil {
			t.Fatal(err)
		}
		if err := c.AddNotFoundHits(ctx, "2026-11-01", map[string]int{"/before-window": 99}, at(0), 100); err != nil {
			t.Fatal(err)
		}
		var paths []string
		for off := 0; off < 20; off += 4 {
			rows, total, err := c.NotFoundPage(ctx, "2026-11-20", db.Page{Limit: 4, Offset: off})
			if err != nil || total != 10 {
				t.Fatalf("offset %d: total %d, %v", off, total, err)
			}
			for _, r := range rows {
				paths = append(paths, r.Path)
			}
		}
		want := []string{"/Old-Page", "/wp-2", "/wp-5", "/wp-8", "/wp-1", "/wp-4", "/wp-7", "/wp-0", "/wp-3", "/wp-6"}
		if diff := cmp.Diff(want, paths); diff != "" {
			t.Errorf("pages of the 404 monitor (-want, +got):\n%s", diff)
		}
		rows, total, err := c.NotFoundPage(ctx, "2026-11-20", db.Page{Q: "old-page", Limit: 4})
		if err != nil || total != 1 || len(rows) != 1 || rows[0].Hits != 50 {
			t.Errorf("search, another case: %+v of %d, %v", rows, total, err)
		}
		if rows, total, _ := c.NotFoundPage(ctx, "2026-11-20", db.Page{Q: "before", Limit: 4}); total != 0 || len(rows) != 0 {
			t.Errorf("a day before the window: %+v of %d", rows, total)
		}
	})
}

// On SQLite the first page of a kind is read off content_items_list in
// order (migration 112): no temporary B-tree sorts the kind's rows.
func TestListPagePlan(t *testing.T) {
	s := db.NewTestSQLite(t)
	plan, err := s.QueryPlan(ctx, `SELECT `+itemColumns+` FROM content_items WHERE kind = ? ORDER BY position, slug, id LIMIT ? OFFSET ?`, "city", 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "content_items_list") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("plan: %s", plan)
	}
}

package editor

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// ids is the items' ids, in the answer's order.
func ids(items []ItemView) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// The record pickers read the records a field names by id: the known
// ones of the kind, whatever else was asked, and every one on the first
// page; a bad or too long list of ids is a plain 400.
func TestContentListByIDs(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		var cities, services ItemList
		r.get(t, "/api/admin/content?kind=city&perPage=200", &cities)
		r.get(t, "/api/admin/content?kind=service", &services)
		if len(cities.Items) < 10 || len(services.Items) == 0 {
			t.Fatalf("seeded: %d cities, %d services", len(cities.Items), len(services.Items))
		}
		a, b, c := cities.Items[7], cities.Items[2], cities.Items[9]
		unknown := "00000000-0000-4000-8000-000000000000"
		asked := []string{a.ID, unknown, strings.ToUpper(b.ID), services.Items[0].ID, c.ID, a.ID}
		var got ItemList
		if res := r.get(t, "/api/admin/content?kind=city&ids="+strings.Join(asked, ","), &got); res.status != http.StatusOK {
			t.Fatalf("by ids: %d %s", res.status, res.body)
		}
		// The kind's order, each once; the unknown id and the service are left out.
		if diff := cmp.Diff([]string{b.ID, a.ID, c.ID}, ids(got.Items)); diff != "" {
			t.Errorf("by ids (-want, +got):\n%s", diff)
		}
		if got.Total != 3 || got.PerPage != MaxIDs || got.Items[1].Title != a.Title {
			t.Errorf("by ids: total %d, perPage %d, %q", got.Total, got.PerPage, got.Items[1].Title)
		}
		var none ItemList
		if res := r.get(t, "/api/admin/content?kind=city&ids=", &none); res.status != http.StatusOK || none.Total != 0 || none.Items == nil || len(none.Items) != 0 {
			t.Errorf("no ids: %d %s", res.status, res.body)
		}
		var onlyUnknown ItemList
		if r.get(t, "/api/admin/content?kind=city&ids="+unknown, &onlyUnknown); onlyUnknown.Total != 0 || len(onlyUnknown.Items) != 0 {
			t.Errorf("an unknown id: %+v", onlyUnknown)
		}

		// MaxIDs ids are read; one more is refused.
		many := make([]string, MaxIDs)
		for i := range many {
			many[i] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		}
		many[0] = a.ID
		var most ItemList
		if res := r.get(t, "/api/admin/content?kind=city&ids="+strings.Join(many, ","), &most); res.status != http.StatusOK || most.Total != 1 {
			t.Errorf("%d ids: %d %.200s", MaxIDs, res.status, res.body)
		}
		tooMany := strings.Join(append(many, unknown), ",")

		for _, q := range []struct{ query, msg string }{
			{"ids=" + tooMany, "Ask for at most 200 records by id at once."},
			{"ids=smyrna", "Ids must be record ids, separated by commas."},
			{"ids=" + a.ID + ",," + b.ID, "Ids must be record ids, separated by commas."},
			{"ids=" + a.ID + "%27%20OR%201=1--", "Ids must be record ids, separated by commas."},
			{"exclude=cobb/smyrna", "Exclude must be a record id."},
			{"county=Cobb%20County", "County must be a county's address, such as cobb."},
			{"county=cobb/", "County must be a county's address, such as cobb."},
			{"county=%25", "County must be a county's address, such as cobb."},
			{"ids=" + a.ID + "&page=0", "Page must be a positive number."},
		} {
			res := r.do(t, "GET", "/api/admin/content?kind=city&"+q.query, nil)
			var e struct{ Error string }
			json.Unmarshal(res.body, &e)
			if res.status != http.StatusBadRequest || e.Error != q.msg {
				t.Errorf("%.80s: %d %s, want 400 %q", q.query, res.status, res.body, q.msg)
			}
		}
		if res := r.do(t, "GET", "/api/admin/content?kind=service&county=cobb", nil); res.status != http.StatusBadRequest || !strings.Contains(string(res.body), "Only cities belong to a county.") {
			t.Errorf("county on services: %d %s", res.status, res.body)
		}
	})
}

// A picker's search: the name, ignoring case, within the county the
// picker is limited to, without the record being edited, one bounded page
// at a time.
func TestContentListByCounty(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		r := newRoom(t, s)
		var all ItemList
		r.get(t, "/api/admin/content?kind=city&perPage=200", &all)
		inCobb := func(items []ItemView, q string) []string {
			var out []string
			for _, it := range items {
				if strings.HasPrefix(it.Slug, "cobb/") && strings.Contains(strings.ToLower(it.Title+" "+it.Slug+" "+it.LiveSlug), q) {
					out = append(out, it.ID)
				}
			}
			return out
		}
		cobb := inCobb(all.Items, "")
		if len(cobb) < 3 || len(cobb) == len(all.Items) {
			t.Fatalf("Cobb has %d of %d cities", len(cobb), len(all.Items))
		}
		var got ItemList
		r.get(t, "/api/admin/content?kind=city&county=cobb&perPage=200", &got)
		if diff := cmp.Diff(cobb, ids(got.Items)); diff != "" || got.Total != len(cobb) {
			t.Errorf("Cobb's cities, total %d (-want, +got):\n%s", got.Total, diff)
		}
		// "cob" is not Cobb: the county is the slug's whole first part.
		var cob ItemList
		if r.get(t, "/api/admin/content?kind=city&county=cob", &cob); cob.Total != 0 {
			t.Errorf("county=cob matched %d cities", cob.Total)
		}

		// A letter in cities of several counties: only Cobb's come back.
		var wide, narrow ItemList
		r.get(t, "/api/admin/content?kind=city&q=A&perPage=200", &wide)
		r.get(t, "/api/admin/content?kind=city&q=A&county=cobb&perPage=200", &narrow)
		want := inCobb(all.Items, "a")
		if diff := cmp.Diff(want, ids(narrow.Items)); diff != "" || narrow.Total != len(want) || wide.Total <= narrow.Total {
			t.Errorf("q=A in Cobb: %d of %d (-want, +got):\n%s", narrow.Total, wide.Total, diff)
		}

		// The record being edited is never its own choice.
		self := cobb[1]
		var others ItemList
		r.get(t, "/api/admin/content?kind=city&county=cobb&perPage=200&exclude="+self, &others)
		if others.Total != len(cobb)-1 || slices.Contains(ids(others.Items), self) {
			t.Errorf("exclude: %d of %d, has self %v", others.Total, len(cobb), slices.Contains(ids(others.Items), self))
		}

		// At 2,000 cities a county holds hundreds: a search is still one
		// page, at most 200 rows, with the true total.
		var extra []contentdb.SeedItem
		for i := range 230 {
			slug := fmt.Sprintf("test-town-%03d", i)
			extra = append(extra, contentdb.SeedItem{Kind: "city", Slug: "cobb/" + slug, Position: 1000 + i,
				JSON: fmt.Sprintf(`{"city":"Test Town %03d","county":"cobb","slug":%q}`, i, slug)})
		}
		if _, err := contentdb.New(s).SeedMissing(t.Context(), extra, time.Now()); err != nil {
			t.Fatal(err)
		}
		var capped ItemList
		r.get(t, "/api/admin/content?kind=city&county=cobb&q=test+TOWN&perPage=100000", &capped)
		if capped.Total != 230 || len(capped.Items) != 200 || capped.PerPage != 200 || capped.Items[0].Title != "Test Town 000" {
			t.Errorf("a search at the cap: %d of %d, perPage %d", len(capped.Items), capped.Total, capped.PerPage)
		}
		var first ItemList
		r.get(t, "/api/admin/content?kind=city&county=cobb&q=town+2&perPage=20", &first)
		if first.Total != 30 || len(first.Items) != 20 || first.Items[19].Title != "Test Town 219" {
			t.Errorf("one page of 20: %d of %d", len(first.Items), first.Total)
		}
		var elsewhere ItemList
		if r.get(t, "/api/admin/content?kind=city&county=fulton&q=test+town", &elsewhere); elsewhere.Total != 0 {
			t.Errorf("Cobb's towns found in Fulton: %d", elsewhere.Total)
		}
	})
}

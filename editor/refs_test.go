package editor

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
)

// item returns the item of a kind at a working slug.
func item(t *testing.T, e *env, kind, slug string) contentdb.Item {
	t.Helper()
	items, err := e.svc.List(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Slug == slug {
			return it
		}
	}
	t.Fatalf("no %s %s", kind, slug)
	return contentdb.Item{}
}

// nearbyOf reads a stored city's nearby list (its working copy, or live).
func nearbyOf(t *testing.T, data string) []string {
	t.Helper()
	var c content.City
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		t.Fatal(err)
	}
	return c.Nearby
}

// renameCity moves a city to a new slug and publishes it.
func renameCity(t *testing.T, e *env, key, slug string) contentdb.Item {
	t.Helper()
	ctx := context.Background()
	it := item(t, e, content.KindCity, key)
	var m map[string]any
	json.Unmarshal([]byte(it.Draft), &m)
	m["slug"] = slug
	b, _ := json.Marshal(m)
	it, err := e.svc.Save(ctx, it.ID, it.Version, b, owner)
	if err != nil {
		t.Fatal(err)
	}
	it, err = e.svc.Publish(ctx, it.ID, it.Version, owner)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// The boot step stores ids where the files name records, and the site
// loaded from the database is the files' again.
func TestSeedStoresReferencesAsIDs(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		smyrna := item(t, e, content.KindCity, "cobb/smyrna")
		vinings := item(t, e, content.KindCity, "cobb/vinings")
		if got := nearbyOf(t, vinings.Live); len(got) != 5 || got[0] != smyrna.ID {
			t.Errorf("Vinings' stored nearby %v, want ids starting with Smyrna's %s", got, smyrna.ID)
		}
		if vinings.Draft != vinings.Live || vinings.Pending {
			t.Error("converting changed what is published")
		}
		if strings.Contains(item(t, e, content.KindCounty, "cobb").Live, `"Smyrna"`) {
			t.Error("Cobb's major cities are still names")
		}
		embedded, _ := content.Load()
		live, err := e.svc.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range embedded.Cities {
			if diff := cmp.Diff(c.Nearby, live.Cities[i].Nearby); diff != "" {
				t.Errorf("%s nearby (-files, +database):\n%s", c.Slug, diff)
			}
		}
		for i, c := range embedded.Counties {
			if c.Profile != nil && !cmp.Equal(c.Profile.MajorCities, live.Counties[i].Profile.MajorCities) {
				t.Errorf("%s major cities %v, want %v", c.Slug, live.Counties[i].Profile.MajorCities, c.Profile.MajorCities)
			}
		}
		for i, a := range embedded.Articles {
			if live.Articles[i].Category != a.Category {
				t.Errorf("%s category %q, want %q", a.Slug, live.Articles[i].Category, a.Category)
			}
		}
		if n, err := e.svc.MigrateRefs(ctx); err != nil || n != 0 {
			t.Errorf("a second conversion changed %d rows (%v)", n, err)
		}
	})
}

// A database stored before ids (slugs and names in the JSON, no origin)
// is converted at boot: items and revisions, working and live copies.
func TestMigrateRefsConvertsStoredSlugs(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		embedded, _ := content.Load()
		// Put the files' form back, as a database of before this change.
		for _, r := range embedded.Records() {
			if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE content_items SET draft = ?, live = ? WHERE kind = ? AND slug = ?`),
				string(r.JSON), string(r.JSON), r.Kind, r.Slug); err != nil {
				t.Fatal(err)
			}
			if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE content_revisions SET data = ? WHERE kind = ? AND slug = ?`),
				string(r.JSON), r.Kind, r.Slug); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(item(t, e, content.KindCity, "cobb/vinings").Live, `"smyrna"`) {
			t.Fatal("the legacy form was not put back")
		}
		n, err := e.svc.MigrateRefs(ctx)
		if err != nil || n == 0 {
			t.Fatalf("converted %d rows, %v", n, err)
		}
		smyrna, vinings := item(t, e, content.KindCity, "cobb/smyrna"), item(t, e, content.KindCity, "cobb/vinings")
		if got := nearbyOf(t, vinings.Draft); got[0] != smyrna.ID || nearbyOf(t, vinings.Live)[0] != smyrna.ID {
			t.Errorf("converted nearby %v", got)
		}
		revs, _ := s.DB().QueryContext(ctx, `SELECT data FROM content_revisions WHERE kind = 'city'`)
		defer revs.Close()
		for revs.Next() {
			var data string
			revs.Scan(&data)
			for _, n := range nearbyOf(t, data) {
				if !content.IsID(n) {
					t.Errorf("a revision still names %q", n)
				}
			}
		}
		if n, _ := e.svc.MigrateRefs(ctx); n != 0 {
			t.Errorf("the conversion is not idempotent: %d rows the second time", n)
		}
	})
}

// Renaming Smyrna keeps it on every page that shows it, with its new
// address, and every neighbour stays publishable.
func TestRenameKeepsReferrersRight(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		renameCity(t, e, "cobb/smyrna", "smyrna-ga")
		live, err := e.svc.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"vinings", "marietta", "mableton"} {
			ci, _ := live.City("cobb", key)
			o, ok := live.NearbyCity(ci, "smyrna-ga")
			if !ok || o.City != "Smyrna" || !contains(ci.Nearby, "smyrna-ga") || contains(ci.Nearby, "smyrna") {
				t.Errorf("%s nearby %v after the rename", key, ci.Nearby)
			}
			it := item(t, e, content.KindCity, "cobb/"+key)
			ps, err := e.svc.Problems(ctx, it)
			if err != nil || len(content.HardProblems(ps)) > 0 {
				t.Errorf("%s: %v %v", key, content.HardProblems(ps), err)
			}
		}
		if ci, ok := live.CityByOrigin("cobb", "smyrna"); !ok || ci.Slug != "smyrna-ga" {
			t.Errorf("the water landing page's Smyrna: %+v %v", ci, ok)
		}
		if co, _ := live.County("cobb"); !contains(co.Profile.MajorCities, "Smyrna") {
			t.Errorf("Cobb's major cities %v", co.Profile.MajorCities)
		}
		for _, p := range live.Check() {
			if p.Hard {
				t.Errorf("the live site has a hard problem: %v", p)
			}
		}
		// Vinings, never touched, publishes (a change of its own, then).
		v := item(t, e, content.KindCity, "cobb/vinings")
		b := strings.Replace(v.Draft, `"intro":"`, `"intro":"Still here. `, 1)
		v, err = e.svc.Save(ctx, v.ID, v.Version, json.RawMessage(b), owner)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Publish(ctx, v.ID, v.Version, owner); err != nil {
			t.Errorf("Vinings cannot be published after Smyrna's rename: %v", err)
		}
		// The old address answers 301 to the new one.
		rs, _ := e.svc.Store.Redirects(ctx)
		found := false
		for _, r := range rs {
			found = found || (r.From == "/areas/cobb/smyrna" && r.To == "/areas/cobb/smyrna-ga")
		}
		if !found {
			t.Errorf("redirects %+v", rs)
		}
		// A city renamed into the old address is another city: the code's
		// list does not take it for Smyrna.
		ns, err := e.svc.Create(ctx, content.KindCity, json.RawMessage(`{"county":"cobb","city":"New Smyrna","slug":"smyrna","hero_image":"","intro":"x","nearby":[],"seoTitle":"New Smyrna","metaDescription":"New Smyrna restoration.","keywords":[]}`), owner)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Publish(ctx, ns.ID, ns.Version, owner); err != nil {
			t.Fatal(err)
		}
		live, _ = e.svc.Load(ctx)
		if ci, ok := live.CityByOrigin("cobb", "smyrna"); !ok || ci.City != "Smyrna" {
			t.Errorf("the water landing page's Smyrna is now %+v", ci)
		}
	})
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Taking down a city others name is refused with their names; with the
// references removed it applies whole, and no neighbour is left that
// cannot be published.
func TestTakeDownReferencedCity(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		smyrna := item(t, e, content.KindCity, "cobb/smyrna")
		_, err := e.svc.Unpublish(ctx, smyrna.ID, smyrna.Version, owner)
		var ref *Referenced
		if !errors.As(err, &ref) {
			t.Fatalf("unpublish a referenced city: %v", err)
		}
		var names []string
		for _, r := range ref.Referrers {
			names = append(names, r.Title+": "+strings.Join(r.Fields, ", "))
		}
		want := []string{"Marietta: Nearby cities", "Mableton: Nearby cities", "Vinings: Nearby cities", "Cobb County: Major cities"}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("referrers (-want, +got):\n%s", diff)
		}
		if !strings.Contains(ref.Message, "Smyrna is listed on the pages of Marietta, Mableton, Vinings and Cobb County") {
			t.Errorf("message %q", ref.Message)
		}
		if it := item(t, e, content.KindCity, "cobb/smyrna"); it.LiveSlug == "" || it.Version != smyrna.Version {
			t.Error("a refused take-down changed the city")
		}

		// All or nothing: a stale version of the city itself fails the
		// whole change, the neighbours' included.
		if _, err := e.svc.UnpublishDetaching(ctx, smyrna.ID, smyrna.Version-1, Detach{Remove: true}, owner); err == nil {
			t.Fatal("a stale take-down was applied")
		}
		if v := item(t, e, content.KindCity, "cobb/vinings"); nearbyOf(t, v.Live)[0] != smyrna.ID {
			t.Error("a failed take-down changed Vinings")
		}

		if _, err := e.svc.UnpublishDetaching(ctx, smyrna.ID, smyrna.Version, Detach{Remove: true}, owner); err != nil {
			t.Fatal(err)
		}
		live, _ := e.svc.Load(ctx)
		if _, ok := live.City("cobb", "smyrna"); ok {
			t.Error("Smyrna is still live")
		}
		for _, key := range []string{"vinings", "marietta", "mableton"} {
			it := item(t, e, content.KindCity, "cobb/"+key)
			if strings.Contains(it.Draft, smyrna.ID) || strings.Contains(it.Live, smyrna.ID) || it.Pending {
				t.Errorf("%s still names Smyrna or was left with a draft to publish: %s", key, it.Draft)
			}
			if ps, _ := e.svc.Problems(ctx, it); len(content.HardProblems(ps)) > 0 {
				t.Errorf("%s cannot be published: %v", key, ps)
			}
			if hist, _ := e.svc.History(ctx, it.ID); len(hist) != 2 {
				t.Errorf("%s: %d revisions, want the change recorded as the second", key, len(hist))
			}
		}
		if co, _ := live.County("cobb"); contains(co.Profile.MajorCities, "Smyrna") {
			t.Error("Cobb still lists Smyrna")
		}
		if rs, _ := e.svc.Referrers(ctx, smyrna.ID); len(rs) != 0 {
			t.Errorf("referrers left: %+v", rs)
		}
	})
}

// A category cannot leave its posts without one: deleting it needs
// another, and the posts move to it in the same transaction.
func TestDeleteCategoryMovesItsPosts(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		cat := item(t, e, content.KindCategory, "prevention")
		other := item(t, e, content.KindCategory, "insurance")
		_, err := e.svc.Delete(ctx, cat.ID, cat.Version, owner)
		var ref *Referenced
		if !errors.As(err, &ref) || !ref.Replace || len(ref.Referrers) != 1 || ref.Referrers[0].Fields[0] != "Category" {
			t.Fatalf("delete a category in use: %v %+v", err, ref)
		}
		if _, err := e.svc.DeleteDetaching(ctx, cat.ID, cat.Version, Detach{Remove: true}, owner); !errors.As(err, &ref) {
			t.Errorf("removed without a replacement: %v", err)
		}
		if _, err := e.svc.DeleteDetaching(ctx, cat.ID, cat.Version, Detach{Remove: true, Replace: cat.ID}, owner); err == nil {
			t.Error("replaced by itself")
		}
		if _, err := e.svc.DeleteDetaching(ctx, cat.ID, cat.Version, Detach{Remove: true, Replace: other.ID}, owner); err != nil {
			t.Fatal(err)
		}
		live, _ := e.svc.Load(ctx)
		n := 0
		for _, a := range live.Articles {
			if a.Category == "prevention" {
				t.Errorf("%s is still in the deleted category", a.Slug)
			}
			if a.Category == "insurance" {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%d posts in Insurance Claims, want 2", n)
		}
		for _, p := range live.Check() {
			if p.Hard {
				t.Errorf("hard problem after the delete: %v", p)
			}
		}
	})
}

// The editor sends ids; a slug or a name (an older screen, a file) is
// stored as the id too; an unpublished target is guidance, a deleted one
// blocks.
func TestSaveStoresIDsAndJudgesTargets(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		created, err := e.svc.Create(ctx, content.KindCity, json.RawMessage(`{"county":"cobb","city":"Fair Oaks","slug":"fair-oaks","hero_image":"","intro":"A small place.","nearby":["smyrna"],"services":["Water Damage Restoration"],"seoTitle":"Fair Oaks","metaDescription":"Fair Oaks restoration.","keywords":[]}`), owner)
		if err != nil {
			t.Fatal(err)
		}
		smyrna := item(t, e, content.KindCity, "cobb/smyrna")
		water := item(t, e, content.KindService, "water-damage-restoration")
		var c content.City
		json.Unmarshal([]byte(created.Draft), &c)
		if diff := cmp.Diff([]string{smyrna.ID}, c.Nearby); diff != "" || len(c.Services) != 1 || c.Services[0] != water.ID {
			t.Errorf("stored %s", created.Draft)
		}
		// Vinings names Fair Oaks, not published yet: a warning only.
		v := item(t, e, content.KindCity, "cobb/vinings")
		b := strings.Replace(v.Draft, `"nearby":["`, `"nearby":["`+created.ID+`","`, 1)
		v, err = e.svc.Save(ctx, v.ID, v.Version, json.RawMessage(b), owner)
		if err != nil {
			t.Fatal(err)
		}
		ps, _ := e.svc.Problems(ctx, v)
		if len(ps) != 1 || ps[0].Hard || !strings.Contains(ps[0].Message, "names Fair Oaks, which is not published") {
			t.Errorf("problems %+v", ps)
		}
		if v, err = e.svc.Publish(ctx, v.ID, v.Version, owner); err != nil {
			t.Fatal(err)
		}
		// Publishing Fair Oaks puts it on Vinings' page: same id.
		created, _ = e.svc.Get(ctx, created.ID)
		if _, err := e.svc.Publish(ctx, created.ID, created.Version, owner); err != nil {
			t.Fatal(err)
		}
		live, _ := e.svc.Load(ctx)
		if ci, _ := live.City("cobb", "vinings"); ci.Nearby[0] != "fair-oaks" {
			t.Errorf("Vinings nearby %v", ci.Nearby)
		}
		// An id of no record blocks.
		b = strings.Replace(v.Draft, `"nearby":["`, `"nearby":["00000000-0000-4000-8000-000000000000","`, 1)
		v, _ = e.svc.Save(ctx, v.ID, v.Version, json.RawMessage(b), owner)
		ps, _ = e.svc.Problems(ctx, v)
		if hard := content.HardProblems(ps); len(hard) != 1 || !strings.Contains(hard[0].Message, "deleted") {
			t.Errorf("problems %+v", ps)
		}
	})
}

// Export writes the readable form of the current records and an import of
// it changes nothing: the files name the renamed city by its new slug, and
// an import stores ids again.
func TestExportImportAfterRename(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		e := newEnv(t, s)
		renameCity(t, e, "cobb/smyrna", "smyrna-ga")
		live, err := e.svc.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := live.Export(dir); err != nil {
			t.Fatal(err)
		}
		files, err := content.ReadFS(os.DirFS(dir))
		if err != nil {
			t.Fatal(err)
		}
		if ci, _ := files.City("cobb", "vinings"); !contains(ci.Nearby, "smyrna-ga") {
			t.Errorf("exported Vinings nearby %v", ci.Nearby)
		}
		rep, err := e.svc.Import(ctx, files, Actor{Name: "site content import"})
		if err != nil || rep.Published != 0 {
			t.Errorf("import of an unchanged export: %+v %v", rep, err)
		}
		// An edit in the files is imported, its references as ids.
		for i := range files.Cities {
			if files.Cities[i].Slug == "vinings" {
				files.Cities[i].Nearby = []string{"smyrna-ga", "austell"}
			}
		}
		if rep, err = e.svc.Import(ctx, files, Actor{Name: "site content import"}); err != nil || rep.Published != 1 {
			t.Fatalf("import: %+v %v", rep, err)
		}
		v := item(t, e, content.KindCity, "cobb/vinings")
		want := []string{item(t, e, content.KindCity, "cobb/smyrna-ga").ID, item(t, e, content.KindCity, "cobb/austell").ID}
		if diff := cmp.Diff(want, nearbyOf(t, v.Live)); diff != "" {
			t.Errorf("imported nearby (-want, +got):\n%s", diff)
		}
	})
}

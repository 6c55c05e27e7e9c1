package editor_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/benchdata"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/editor"
)

// What an import converts after its publish: the references to records it
// added, wherever they are held, and nothing else (ADR 070's amendment).

// rewrites is the store counting what the conversions of references
// read and write.
type rewrites struct {
	editor.Store
	whole         int // whole-site conversions (RewriteRefs)
	read, written int // items a scoped conversion read, rows it wrote
}

func (r *rewrites) RewriteRefs(ctx context.Context, plan func([]contentdb.Item) contentdb.RefRewrite) (int, error) {
	r.whole++
	return r.Store.RewriteRefs(ctx, plan)
}

func (r *rewrites) RewriteRefsIn(ctx context.Context, scope contentdb.RefScope, plan func([]contentdb.Item) contentdb.RefRewrite) (int, error) {
	n, err := r.Store.RewriteRefsIn(ctx, scope, func(items []contentdb.Item) contentdb.RefRewrite {
		r.read += len(items)
		return plan(items)
	})
	r.written += n
	return n, err
}

// withRecords is the live content with records added or replaced (same
// kind and slug) and the records omit names ("kind slug") left out: a
// content folder as `site content import` reads it.
func withRecords(t *testing.T, ed *editor.Service, add []content.Record, omit ...string) *content.Set {
	t.Helper()
	live, err := ed.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range add {
		omit = append(omit, r.Kind+" "+r.Slug)
	}
	var rs []content.Record
	for _, r := range live.Records() {
		if !slices.Contains(omit, r.Kind+" "+r.Slug) {
			rs = append(rs, r)
		}
	}
	set, problems, err := content.FromRecords(append(rs, add...), live.Updated)
	if err != nil {
		t.Fatal(err)
	}
	if hard := content.HardProblems(problems); len(hard) > 0 {
		t.Fatalf("the folder is refused: %v", hard)
	}
	return set
}

func cityRecord(t *testing.T, c content.City) content.Record {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return content.Record{Kind: content.KindCity, Slug: c.County + "/" + c.Slug, JSON: b, Position: 1000}
}

// stored is the item of a kind at a slug, and its revisions' data.
func stored(t *testing.T, ed *editor.Service, kind, slug string) (contentdb.Item, []string) {
	t.Helper()
	ctx := context.Background()
	all, err := ed.Store.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range all {
		if it.Kind == kind && it.Slug == slug {
			revs, err := ed.Store.Revisions(ctx, it.ID)
			if err != nil {
				t.Fatal(err)
			}
			var data []string
			for _, r := range revs {
				data = append(data, r.Data)
			}
			return it, data
		}
	}
	t.Fatalf("no %s %s", kind, slug)
	return contentdb.Item{}, nil
}

// field reads a list or a string of a stored record's JSON at a path.
func field(t *testing.T, data string, path ...string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatal(err)
	}
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	return v
}

// A folder adding two cities, B naming A (by its slug) among its nearby
// cities, stores A's id in B: its working and live copies and the
// revision the import wrote. The conversion reads the two cities (and
// any row holding their names), not the site.
func TestImportStoresIDsOfCitiesItAdds(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		ed := scaleEditor(t, s, 0)
		live, err := ed.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cities, err := benchdata.Cities(live, 2)
		if err != nil {
			t.Fatal(err)
		}
		a, b := cities[0], cities[1]
		b.Nearby = []string{a.Slug, live.Cities[0].County + "/" + live.Cities[0].Slug}
		// B comes first: the order of the folder does not matter.
		set := withRecords(t, ed, []content.Record{cityRecord(t, b), cityRecord(t, a)})
		rw := &rewrites{Store: ed.Store}
		ed.Store = rw
		rep, err := ed.Import(ctx, set, editor.Actor{Name: "site content import"})
		if err != nil || rep.Published != 2 {
			t.Fatalf("import: %+v %v", rep, err)
		}
		itemA, _ := stored(t, ed, content.KindCity, a.County+"/"+a.Slug)
		first, _ := stored(t, ed, content.KindCity, live.Cities[0].County+"/"+live.Cities[0].Slug)
		itemB, revs := stored(t, ed, content.KindCity, b.County+"/"+b.Slug)
		want := []any{itemA.ID, first.ID}
		for name, data := range map[string]string{"working copy": itemB.Draft, "live copy": itemB.Live, "revision": revs[0]} {
			if diff := cmp.Diff(want, field(t, data, "nearby")); diff != "" {
				t.Errorf("B's %s nearby (-want, +got):\n%s", name, diff)
			}
		}
		if itemB.Pending {
			t.Error("converting B left it pending")
		}
		if rw.whole != 0 || rw.read > 4 || rw.written != 2 {
			t.Errorf("the conversion read %d items and wrote %d rows (%d whole-site conversions), want B's item and revision written, a few items read", rw.read, rw.written, rw.whole)
		}
	})
}

// A county's major cities may name, by name, a city that is not there
// yet (guidance, so it is published as written). An import that adds
// the city stores its id there too, though the county's record is
// unchanged in the folder: the database finds the rows holding the name,
// in any ASCII case.
func TestImportStoresIDsWhereItsCitiesWereNamed(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		ed := scaleEditor(t, s, 0)
		live, err := ed.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cities, err := benchdata.Cities(live, 1)
		if err != nil {
			t.Fatal(err)
		}
		a := cities[0]
		var county content.County
		for _, c := range live.Counties {
			if c.Slug == a.County {
				county = c
			}
		}
		county.Profile.MajorCities = append(county.Profile.MajorCities, "  "+lowerASCII(a.City))
		rec := content.Record{Kind: content.KindCounty, Slug: county.Slug}
		for _, r := range live.Records() {
			if r.Kind == rec.Kind && r.Slug == rec.Slug {
				rec.Position = r.Position
			}
		}
		rec.JSON, _ = json.Marshal(county)
		set := withRecords(t, ed, []content.Record{rec})
		if rep, err := ed.Import(ctx, set, editor.Actor{Name: "site content import"}); err != nil || rep.Published != 1 {
			t.Fatalf("import of the county: %+v %v", rep, err)
		}
		before, _ := stored(t, ed, content.KindCounty, county.Slug)

		rep, err := ed.Import(ctx, withRecords(t, ed, []content.Record{cityRecord(t, a)}), editor.Actor{Name: "site content import"})
		if err != nil || rep.Published != 1 || rep.Unchanged == 0 {
			t.Fatalf("import of the city: %+v %v", rep, err)
		}
		itemA, _ := stored(t, ed, content.KindCity, a.County+"/"+a.Slug)
		after, revs := stored(t, ed, content.KindCounty, county.Slug)
		for name, data := range map[string]string{"working copy": after.Draft, "live copy": after.Live, "revision": revs[0]} {
			majors := field(t, data, "profile", "majorCities").([]any)
			if got := majors[len(majors)-1]; got != itemA.ID {
				t.Errorf("the county's %s names %q, want the new city's id %s", name, got, itemA.ID)
			}
		}
		if after.Version != before.Version || len(revs) != 2 {
			t.Errorf("converting the county is a change of form: version %d -> %d, %d revisions", before.Version, after.Version, len(revs))
		}
	})
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// An import that changes nothing writes nothing: no row, no version, no
// revision, and no conversion runs.
func TestImportOfNothingNewWritesNothing(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		ed := scaleEditor(t, s, 0)
		rw := &rewrites{Store: ed.Store}
		ed.Store = rw
		items, _ := ed.Store.All(ctx)
		var revs [][]contentdb.Revision
		for _, it := range items {
			r, _ := ed.Store.Revisions(ctx, it.ID)
			revs = append(revs, r)
		}
		rep, err := ed.Import(ctx, withRecords(t, ed, nil), editor.Actor{Name: "site content import"})
		if err != nil || rep.Published != 0 || rep.Unchanged != len(items) {
			t.Fatalf("import: %+v %v (%d items)", rep, err, len(items))
		}
		after, _ := ed.Store.All(ctx)
		if diff := cmp.Diff(items, after); diff != "" {
			t.Errorf("items changed (-before, +after):\n%s", diff)
		}
		for i, it := range after {
			r, _ := ed.Store.Revisions(ctx, it.ID)
			if diff := cmp.Diff(revs[i], r); diff != "" {
				t.Errorf("%s %s: revisions changed:\n%s", it.Kind, it.Slug, diff)
			}
		}
		if rw.whole+rw.read+rw.written != 0 {
			t.Errorf("conversions: %d whole-site, %d items read, %d rows written", rw.whole, rw.read, rw.written)
		}
	})
}

// A reference stored unconverted in a record the import does not touch
// and that names no record the import added (a database from before
// ids, a conversion that failed) is left for the boot's conversion, which
// converts it as before.
func TestImportLeavesUnrelatedAddressesToBoot(t *testing.T) {
	db.ForEachDB(t, func(t *testing.T, s *db.Store) {
		ctx := context.Background()
		ed := scaleEditor(t, s, 0)
		live, err := ed.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		post := live.Articles[0]
		cat, _ := stored(t, ed, content.KindCategory, post.Category)
		it, _ := stored(t, ed, content.KindArticle, post.Slug)
		var m map[string]any
		if err := json.Unmarshal([]byte(it.Live), &m); err != nil {
			t.Fatal(err)
		}
		m["category"] = post.Category
		legacy, _ := json.Marshal(m)
		if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE content_items SET draft = ?, live = ? WHERE id = ?`), string(legacy), string(legacy), it.ID); err != nil {
			t.Fatal(err)
		}
		cities, err := benchdata.Cities(live, 1)
		if err != nil {
			t.Fatal(err)
		}
		// The post is not in the folder (an import never takes a page
		// down), so nothing of the import names its category's address.
		set := withRecords(t, ed, []content.Record{cityRecord(t, cities[0])}, content.KindArticle+" "+post.Slug)
		rep, err := ed.Import(ctx, set, editor.Actor{Name: "site content import"})
		if err != nil || rep.Published != 1 || !slices.Contains(rep.NotInFiles, content.KindArticle+" "+post.Slug) {
			t.Fatalf("import: %+v %v", rep, err)
		}
		if it, _ = stored(t, ed, content.KindArticle, post.Slug); it.Draft != string(legacy) || it.Live != string(legacy) {
			t.Errorf("the import converted a record it did not touch: %s", it.Live)
		}
		if n, err := ed.MigrateRefs(ctx); err != nil || n != 1 {
			t.Fatalf("the boot's conversion changed %d rows, %v", n, err)
		}
		it, _ = stored(t, ed, content.KindArticle, post.Slug)
		if got := field(t, it.Draft, "category"); got != cat.ID || field(t, it.Live, "category") != cat.ID {
			t.Errorf("after the boot's conversion the post's category is %q, want %s", got, cat.ID)
		}
	})
}

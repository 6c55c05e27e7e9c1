package content

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded content survives the trip through records unchanged, with
// no problem found.
func TestRecordsRoundTrip(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rs := s.Records()
	back, problems, err := FromRecords(rs, s.Updated)
	if err != nil || len(problems) != 0 {
		t.Fatalf("FromRecords: %v %v", err, problems)
	}
	again := back.Records()
	if len(again) != len(rs) {
		t.Fatalf("%d records, then %d", len(rs), len(again))
	}
	for i := range rs {
		if rs[i].Kind != again[i].Kind || rs[i].Slug != again[i].Slug || !bytes.Equal(rs[i].JSON, again[i].JSON) {
			t.Errorf("record %d (%s %s) changed", i, rs[i].Kind, rs[i].Slug)
		}
	}
	kinds := map[string]int{}
	for _, r := range rs {
		kinds[r.Kind]++
	}
	for _, k := range Kinds {
		if kinds[k] == 0 {
			t.Errorf("no record of kind %s", k)
		}
	}
	if len(back.Cities) != len(s.Cities) || back.Articles[0].Slug != s.Articles[0].Slug || back.Home != s.Home || back.Updated != s.Updated {
		t.Error("the rebuilt site differs")
	}
}

func replace(t *testing.T, rs []Record, kind, slug string, edit func(m map[string]any)) []Record {
	t.Helper()
	out := append([]Record(nil), rs...)
	for i, r := range out {
		if r.Kind == kind && r.Slug == slug {
			var m map[string]any
			if err := json.Unmarshal(r.JSON, &m); err != nil {
				t.Fatal(err)
			}
			edit(m)
			out[i].JSON, _ = json.Marshal(m)
			return out
		}
	}
	t.Fatalf("no %s %s", kind, slug)
	return nil
}

// Check tells what blocks a publish from what only guides the editor,
// and names the record and the field.
func TestCheckHardAndGuidance(t *testing.T) {
	s, _ := Load()
	rs := s.Records()
	for _, c := range []struct {
		name, kind, slug string
		edit             func(map[string]any)
		field            string
		hard             bool
	}{
		{"unknown nearby city", KindCity, "cobb/marietta", func(m map[string]any) { m["nearby"] = []string{"atlantis"} }, "nearby", true},
		{"empty title", KindArticle, s.Articles[0].Slug, func(m map[string]any) { m["title"] = " " }, "title", true},
		{"long title", KindService, "roof-repair", func(m map[string]any) { m["seoTitle"] = strings.Repeat("x", 61) }, "seoTitle", false},
		{"long description", KindCounty, "fulton", func(m map[string]any) { m["metaDescription"] = strings.Repeat("y", 161) }, "metaDescription", false},
		{"duplicate title", KindPage, "terms", func(m map[string]any) { m["seoTitle"] = s.Pages["about"].SEOTitle }, "seoTitle", false},
		{"unknown category", KindArticle, s.Articles[1].Slug, func(m map[string]any) { m["category"] = "nope" }, "category", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, problems, err := FromRecords(replace(t, rs, c.kind, c.slug, c.edit), s.Updated)
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, p := range problems {
				if p.Kind == c.kind && p.Slug == c.slug && p.Field == c.field {
					found = true
					if p.Hard != c.hard {
						t.Errorf("%s: hard = %v, want %v", p, p.Hard, c.hard)
					}
				}
			}
			if !found {
				t.Errorf("no problem on %s %s field %s: %v", c.kind, c.slug, c.field, problems)
			}
		})
	}
}

// A record that cannot be read, or whose content names another key than
// its own, is refused outright.
func TestDecodeRefuses(t *testing.T) {
	if _, err := Decode(KindService, "roof-repair", []byte(`{"slug":"roof-repair","extra":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := Decode(KindCity, "cobb/marietta", []byte(`{"county":"cobb","slug":"smyrna","city":"Smyrna"}`)); err == nil {
		t.Error("a city stored under another key accepted")
	}
	if _, err := Decode("widget", "x", []byte(`{}`)); err == nil {
		t.Error("unknown kind accepted")
	}
	if _, _, err := FromRecords([]Record{{Kind: KindPage, Slug: "about", JSON: []byte(`not json`)}}, "2026-01-01"); err == nil {
		t.Error("unreadable record accepted")
	}
}

// Export writes files that load back to the same site, the owner's
// photos and edits included.
func TestExportRoundTrip(t *testing.T) {
	s, _ := Load()
	rs := replace(t, s.Records(), KindArticle, s.Articles[0].Slug, func(m map[string]any) {
		m["title"] = "Edited: a title with: colons & <markup>"
		m["image"] = map[string]any{"media": "m-1", "alt": "A flooded basement", "caption": "Decatur"}
	})
	edited, _, err := FromRecords(rs, s.Updated)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := edited.Export(dir); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFS(os.DirFS(dir))
	if err != nil {
		t.Fatalf("exported content does not load: %v", err)
	}
	a, b := edited.Records(), back.Records()
	if len(a) != len(b) {
		t.Fatalf("%d records exported, %d loaded", len(a), len(b))
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Slug != b[i].Slug || !bytes.Equal(a[i].JSON, b[i].JSON) {
			t.Errorf("%s %s changed in the round trip:\n%s\n%s", a[i].Kind, a[i].Slug, a[i].JSON, b[i].JSON)
		}
	}
}

// A head text the owner left empty is worked out for the page (ADR 049)
// but saved and exported empty: after an export and a load, or an import,
// it still follows the record's title, and one the owner wrote stays.
func TestDerivedHeadTextsStayDerived(t *testing.T) {
	s, _ := Load()
	post, svc := s.Articles[0].Slug, s.Services[0].Slug
	rs := replace(t, s.Records(), KindArticle, post, func(m map[string]any) {
		m["title"], m["seoTitle"], m["metaDescription"] = "Frozen Pipes in Marietta", "", "Written by the owner."
	})
	rs = replace(t, rs, KindService, svc, func(m map[string]any) { m["seoTitle"], m["metaDescription"] = "", "" })
	edited, _, err := FromRecords(rs, s.Updated)
	if err != nil {
		t.Fatal(err)
	}
	if got := edited.Articles[0].SEOTitle; got != "Frozen Pipes in Marietta" {
		t.Fatalf("the page's SEO title is %q, want the derived title", got)
	}
	if edited.Services[0].SEOTitle == "" || edited.Services[0].MetaDescription == "" {
		t.Fatalf("the service's head texts were not derived: %+v", edited.Services[0].SEO)
	}
	for _, r := range edited.Records() {
		if (r.Kind == KindArticle && r.Slug == post) || (r.Kind == KindService && r.Slug == svc) {
			var m map[string]any
			json.Unmarshal(r.JSON, &m)
			if m["seoTitle"] != "" {
				t.Errorf("%s %s: the record saves the derived SEO title %q", r.Kind, r.Slug, m["seoTitle"])
			}
			if r.Kind == KindArticle && m["metaDescription"] != "Written by the owner." {
				t.Errorf("the owner's description became %q", m["metaDescription"])
			}
			if r.Kind == KindService && m["metaDescription"] != "" {
				t.Errorf("the service saves its derived description %q", m["metaDescription"])
			}
		}
	}
	dir := t.TempDir()
	if err := edited.Export(dir); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(dir, "blog", post+".md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(file), "\nseoTitle: \n") || !strings.Contains(string(file), "\nmetaDescription: Written by the owner.\n") {
		t.Errorf("the exported post writes derived head texts:\n%s", file)
	}
	// Loaded back and renamed, the SEO title follows the new title.
	back, err := LoadFS(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	rs = replace(t, back.Records(), KindArticle, post, func(m map[string]any) { m["title"] = "Burst Pipes in Marietta" })
	renamed, _, err := FromRecords(rs, s.Updated)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range renamed.Articles {
		if a.Slug == post && (a.SEOTitle != "Burst Pipes in Marietta" || a.MetaDescription != "Written by the owner.") {
			t.Errorf("after an export, a load and a new title the head texts are %q / %q", a.SEOTitle, a.MetaDescription)
		}
	}
}

package content

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadEmbeddedContent(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.PrimaryServices()) != 6 || len(s.Counties) != 11 || len(s.Cities) < 75 || len(s.Articles) != 5 || len(s.CityProfiles) != 4 {
		t.Fatalf("services %d counties %d cities %d articles %d profiles %d", len(s.PrimaryServices()), len(s.Counties), len(s.Cities), len(s.Articles), len(s.CityProfiles))
	}
	want := map[string]string{"fulton": "1.1 million", "dekalb": "764,000", "cobb": "760,000", "gwinnett": "957,000", "clayton": "297,000", "douglas": "144,000", "henry": "240,000"}
	profiles := 0
	for _, c := range s.Counties {
		if c.Profile != nil {
			profiles++
			if c.Profile.Population != want[c.Slug] {
				t.Errorf("%s population %q, want %q", c.Slug, c.Profile.Population, want[c.Slug])
			}
		}
	}
	if profiles != 7 {
		t.Errorf("%d county profiles, want 7", profiles)
	}
	// Articles: newest first, the spec's dates and read times.
	if s.Articles[0].PublishDate != "2025-01-18" || s.Articles[4].PublishDate != "2025-01-14" {
		t.Errorf("article order %s .. %s", s.Articles[0].PublishDate, s.Articles[4].PublishDate)
	}
	featured := 0
	for _, a := range s.Articles {
		if a.Featured {
			featured++
		}
		if len(strings.Fields(a.Content)) < 600 {
			t.Errorf("%s has %d words, want at least 600", a.Slug, len(strings.Fields(a.Content)))
		}
	}
	if featured != 3 {
		t.Errorf("%d featured, want 3", featured)
	}
	zips := map[string]string{"douglas/douglasville": "30134,30135", "fulton/atlanta-service": "30309,30318,30328,30342", "cobb/marietta": "30060,30062,30064,30066,30067,30068", "gwinnett/lawrenceville": "30043,30044,30045,30046"}
	for k, z := range zips {
		if got := strings.Join(s.CityProfiles[k].ZipCodes, ","); got != z {
			t.Errorf("%s zips %s, want %s", k, got, z)
		}
	}
}

func TestTitlesAndDescriptionsUnique(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	check := func(where string, seo SEO) {
		for _, v := range []string{seo.SEOTitle, seo.MetaDescription} {
			if prev, ok := seen[v]; ok {
				t.Errorf("%s repeats %q from %s", where, v, prev)
			}
			seen[v] = where
		}
	}
	for _, x := range s.Services {
		check("service "+x.Slug, x.SEO)
	}
	for _, x := range s.Counties {
		check("county "+x.Slug, x.SEO)
	}
	for _, x := range s.Cities {
		check("city "+x.County+"/"+x.Slug, x.SEO)
	}
	for k, x := range s.CityProfiles {
		check("profile "+k, x.SEO)
	}
	for _, x := range s.Articles {
		check("article "+x.Slug, x.SEO)
	}
	for k, x := range s.Pages {
		check("page "+k, x.SEO)
	}
}

func TestBrokenContentNamesFileAndField(t *testing.T) {
	good, _ := fs.Sub(files, ".")
	m := fstest.MapFS{}
	fs.WalkDir(good, ".", func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			b, _ := fs.ReadFile(good, p)
			m[p] = &fstest.MapFile{Data: b}
		}
		return nil
	})
	m["cities/henry.json"] = &fstest.MapFile{Data: []byte(`[{"county":"henry","city":"McDonough","slug":"mcdonough","hero_image":"","intro":"x","nearby":["nowhere"],"seoTitle":"t","metaDescription":"d","keywords":[]}]`)}
	_, err := LoadFS(m)
	if err == nil || !strings.Contains(err.Error(), "cities/henry.json (mcdonough): field nearby") {
		t.Fatalf("err = %v", err)
	}
	m["services.json"] = &fstest.MapFile{Data: []byte(`[{"id": 1}]`)}
	if _, err := LoadFS(m); err == nil || !strings.Contains(err.Error(), "services.json") {
		t.Fatalf("err = %v", err)
	}
}

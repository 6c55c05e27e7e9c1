package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Export writes the site as the content files LoadFS reads (the layout of
// content/ in the repository), so a developer can keep the owner's edits
// in git: `site content export DIR`. What it writes loads back the same
// (TestExportRoundTrip). dir is created when missing; a dir that is a
// symbolic link or holds one is refused, and nothing is written outside
// it (folder.go).
func (s *Set) Export(dir string) error {
	root, err := exportRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	write := func(name string, data []byte) error { return writeIn(root, name, data) }
	s = s.written()
	writeJSON := func(name string, v any) error {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return write(name, b.Bytes())
	}
	if err := writeJSON("services.json", s.Services); err != nil {
		return err
	}
	if err := writeJSON("counties.json", s.Counties); err != nil {
		return err
	}
	for _, co := range s.Counties {
		cities := s.CitiesOf(co.Slug)
		if cities == nil {
			cities = []City{}
		}
		if err := writeJSON("cities/"+co.Slug+".json", cities); err != nil {
			return err
		}
	}
	if err := writeJSON("city-profiles.json", s.CityProfiles); err != nil {
		return err
	}
	if err := writeJSON("faqs.json", s.FAQs); err != nil {
		return err
	}
	if err := writeJSON("home.json", s.Home); err != nil {
		return err
	}
	if err := writeJSON("words.json", s.Words); err != nil {
		return err
	}
	if err := writeJSON("blog/categories.json", s.Categories); err != nil {
		return err
	}
	if err := write("updated.txt", []byte(s.Updated+"\n")); err != nil {
		return err
	}
	for _, a := range s.Articles {
		fm := [][2]string{{"title", a.Title}, {"excerpt", a.Excerpt}, {"category", a.Category}, {"publishDate", a.PublishDate},
			{"readTime", strconv.Itoa(a.ReadTime)}, {"seoTitle", a.SEOTitle}, {"metaDescription", a.MetaDescription},
			{"keywords", strings.Join(a.Keywords, ", ")}, {"featured", strconv.FormatBool(a.Featured)}}
		fm = append(fm, imageFrontMatter(a.Image)...)
		if err := write("blog/"+a.Slug+".md", frontMatter(fm, a.Content)); err != nil {
			return err
		}
	}
	slugs := make([]string, 0, len(s.Pages))
	for k := range s.Pages {
		slugs = append(slugs, k)
	}
	sort.Strings(slugs)
	for _, k := range slugs {
		p := s.Pages[k]
		fm := [][2]string{{"title", p.Title}, {"seoTitle", p.SEOTitle}, {"metaDescription", p.MetaDescription}}
		if len(p.Keywords) > 0 {
			fm = append(fm, [2]string{"keywords", strings.Join(p.Keywords, ", ")})
		}
		if err := write("pages/"+k+".md", frontMatter(fm, p.Content)); err != nil {
			return err
		}
	}
	return nil
}

// written is a copy of the site's records with their head texts as the
// owner wrote them (SEO.Written): export writes what the owner wrote, and
// the derived texts are worked out again when the files are loaded.
func (s *Set) written() *Set {
	c := *s
	c.Services = writtenList(s.Services, func(x *Service) *SEO { return &x.SEO })
	c.Counties = writtenList(s.Counties, func(x *County) *SEO { return &x.SEO })
	c.Cities = writtenList(s.Cities, func(x *City) *SEO { return &x.SEO })
	c.Articles = writtenList(s.Articles, func(x *Article) *SEO { return &x.SEO })
	c.CityProfiles = writtenMap(s.CityProfiles, func(x *CityProfile) *SEO { return &x.SEO })
	c.Pages = writtenMap(s.Pages, func(x *InfoPage) *SEO { return &x.SEO })
	return &c
}

// writtenList copies records with their head texts as written.
func writtenList[T any](list []T, seo func(*T) *SEO) []T {
	out := append([]T(nil), list...)
	for i := range out {
		h := seo(&out[i])
		*h = h.Written()
	}
	return out
}

// writtenMap copies keyed records with their head texts as written.
func writtenMap[T any](m map[string]*T, seo func(*T) *SEO) map[string]*T {
	out := make(map[string]*T, len(m))
	for k, p := range m {
		r := *p
		h := seo(&r)
		*h = h.Written()
		out[k] = &r
	}
	return out
}

func imageFrontMatter(im *Image) [][2]string {
	if im == nil {
		return nil
	}
	out := [][2]string{{"image", im.Media}, {"imageAlt", im.Alt}}
	if im.Caption != "" {
		out = append(out, [2]string{"imageCaption", im.Caption})
	}
	return out
}

// frontMatter writes a Markdown file: "key: value" lines between "---"
// lines, then the body. A value is one line.
func frontMatter(fields [][2]string, body string) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	for _, f := range fields {
		v := strings.Join(strings.Fields(f[1]), " ")
		fmt.Fprintf(&b, "%s: %s\n", f[0], v)
	}
	b.WriteString("---\n")
	b.WriteString(strings.TrimSpace(body))
	b.WriteString("\n")
	return b.Bytes()
}

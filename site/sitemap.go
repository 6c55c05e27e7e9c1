package site

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/content"
)

// Sitemap priorities (spec 9): high 0.9, medium 0.7, other 0.5.
var priorities = map[string]string{"high": "0.9", "medium": "0.7", "low": "0.5"}

// CrawlDelay is robots.txt's crawl delay (spec 9).
const CrawlDelay = 1

// SitemapURL is one <url> of sitemap.xml.
type SitemapURL struct {
	Loc        string `xml:"loc"`
	LastMod    string `xml:"lastmod"`
	ChangeFreq string `xml:"changefreq"`
	Priority   string `xml:"priority"`
}

// SitemapURLs lists every indexable route of the table, in table order.
func (s *Site) SitemapURLs() []SitemapURL {
	if s.jobsSnap == nil {
		s = s.Snapshot() // one read of the jobs for every job page's lastmod
	}
	var out []SitemapURL
	for _, r := range s.routes {
		if !r.InSitemap || !r.Indexable {
			continue
		}
		for _, p := range s.PathsOf(r) {
			if s.NoIndexed(p) {
				continue
			}
			out = append(out, SitemapURL{Loc: s.Abs(p), LastMod: s.lastMod(p), ChangeFreq: r.ChangeFreq, Priority: priorities[r.Priority]})
		}
	}
	return out
}

// lastMod is when the page's own record was last published from the
// admin (W3C datetime), else an article's publish date, else the
// content's date.
func (s *Site) lastMod(path string) string {
	c := s.content()
	if kind, slug := recordOf(c, path); kind != "" {
		if t, ok := c.PublishedAt(kind, slug); ok {
			return t.UTC().Format(time.RFC3339)
		}
	}
	if slug, ok := strings.CutPrefix(path, "/portfolio/"); ok {
		if t, ok := s.jobPublished(context.Background(), slug); ok {
			return t.UTC().Format(time.RFC3339)
		}
	}
	if slug, ok := strings.CutPrefix(path, "/blog/"); ok {
		if a, ok := c.Article(slug); ok {
			return a.PublishDate
		}
	}
	return c.Updated
}

// recordOf names the content record a page is made from, if it has one.
func recordOf(c *content.Set, path string) (kind, slug string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case path == "/":
		return content.KindHome, content.KindHome
	case len(segs) == 2 && segs[0] == "services":
		return content.KindService, segs[1]
	case len(segs) == 2 && segs[0] == "service-areas":
		return content.KindCounty, segs[1]
	case len(segs) == 3 && segs[0] == "areas":
		key := segs[1] + "/" + segs[2]
		if _, ok := c.CityProfiles[key]; ok {
			return content.KindCityProfile, key
		}
		return content.KindCity, key
	case len(segs) == 2 && segs[0] == "blog":
		return content.KindArticle, segs[1]
	case len(segs) == 1:
		if _, ok := c.Pages[segs[0]]; ok {
			return content.KindPage, segs[0]
		}
	}
	return "", ""
}

// SitemapXML renders sitemap.xml.
func (s *Site) SitemapXML() []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, u := range s.SitemapURLs() {
		fmt.Fprintf(&b, "  <url><loc>%s</loc><lastmod>%s</lastmod><changefreq>%s</changefreq><priority>%s</priority></url>\n",
			xmlEscape(u.Loc), u.LastMod, u.ChangeFreq, u.Priority)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// RobotsTxt renders robots.txt: the admin area, the APIs and every
// non-indexable route are disallowed; crawl delay 1; the sitemap line.
func (s *Site) RobotsTxt() []byte {
	dis := map[string]bool{"/admin": true, "/api/": true}
	for _, r := range s.routes {
		if !r.Indexable {
			dis[staticPrefix(r.Pattern)] = true
		}
	}
	keys := make([]string, 0, len(dis))
	for k := range dis {
		covered := false
		for o := range dis {
			covered = covered || (o != k && strings.HasPrefix(k, o))
		}
		if !covered {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("User-agent: *\nAllow: /\n")
	for _, k := range keys {
		b.WriteString("Disallow: " + k + "\n")
	}
	fmt.Fprintf(&b, "Crawl-delay: %d\n\nSitemap: %s\n", CrawlDelay, s.Abs("/sitemap.xml"))
	return b.Bytes()
}

// staticPrefix is a pattern up to its first parameter.
func staticPrefix(p string) string {
	if i := strings.Index(p, "{"); i >= 0 {
		return p[:i]
	}
	return p
}

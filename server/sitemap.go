package server

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/ssr"
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
func (s *Server) SitemapURLs() []SitemapURL {
	var out []SitemapURL
	for _, r := range s.routes {
		if !r.InSitemap || !r.Indexable {
			continue
		}
		for _, p := range r.Paths(s.content) {
			out = append(out, SitemapURL{Loc: s.abs(p), LastMod: s.lastMod(p), ChangeFreq: r.ChangeFreq, Priority: priorities[r.Priority]})
		}
	}
	return out
}

// lastMod is an article's publish date, else the content's update date.
func (s *Server) lastMod(path string) string {
	if slug, ok := strings.CutPrefix(path, "/blog/"); ok {
		if a, ok := s.content.Article(slug); ok {
			return a.PublishDate
		}
	}
	return s.content.Updated
}

// SitemapXML renders sitemap.xml.
func (s *Server) SitemapXML() []byte {
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
func (s *Server) RobotsTxt() []byte {
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
	fmt.Fprintf(&b, "Crawl-delay: %d\n\nSitemap: %s\n", CrawlDelay, s.abs("/sitemap.xml"))
	return b.Bytes()
}

// staticPrefix is a pattern up to its first parameter.
func staticPrefix(p string) string {
	if i := strings.Index(p, "{"); i >= 0 {
		return p[:i]
	}
	return p
}

// serveGenerated serves sitemap.xml and robots.txt, generated and
// compressed once per content version.
func (s *Server) serveGenerated(contentType string, gen func() []byte) echo.HandlerFunc {
	var (
		mu      sync.Mutex
		version uint64
		cached  *ssr.Page
	)
	return func(c echo.Context) error {
		v := s.cache.Version()
		mu.Lock()
		if cached == nil || version != v {
			cached, version = ssr.NewPage(http.StatusOK, gen()), v
		}
		p := cached
		mu.Unlock()
		ssr.Serve(c.Response(), c.Request(), p, contentType, "public, max-age=3600")
		return nil
	}
}

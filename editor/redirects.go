package editor

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/guard"
)

// MaxRedirects bounds the redirects table.
const MaxRedirects = 2000

// maxPathLen bounds a redirect's paths.
const maxPathLen = 300

// reserved are the prefixes no redirect may take: the admin, the APIs,
// assets and media answer there.
var reserved = []string{"/admin", "/api/", "/assets/", "/media/", "/sw.js", "/healthz", "/sitemap.xml", "/robots.txt"}

// CleanPath checks a path an editor typed: a path on this site (a full
// address on this site's host is taken as its path), without a query,
// fragment, empty segment, dot segment, backslash or control character.
// It returns the path or a message.
func CleanPath(raw, siteHost string) (string, string) {
	p := strings.TrimSpace(raw)
	if p == "" {
		return "", "Enter a path, such as /blog/old-post."
	}
	if len(p) > maxPathLen || !guard.ValidText(p) {
		return "", "That path is too long or holds characters a web address cannot."
	}
	if u, err := url.Parse(p); err == nil && (u.Scheme != "" || u.Host != "") {
		if !strings.EqualFold(u.Hostname(), siteHost) || (u.Scheme != "http" && u.Scheme != "https") {
			return "", "Redirects stay on this site: enter a path such as /blog/new-post, not another site's address."
		}
		p = u.EscapedPath()
		if p == "" {
			p = "/"
		}
	}
	if strings.ContainsAny(p, "?#") {
		return "", "Enter the path alone, without ? or #."
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.Contains(p, "\\") {
		return "", "Enter a path on this site that starts with a single /, such as /blog/new-post."
	}
	for i := 0; i < len(p); i++ {
		if b := p[i]; b < 0x21 || b == 0x7f {
			return "", "A path cannot hold spaces or control characters."
		}
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	for _, seg := range strings.Split(p, "/")[1:] {
		if seg == "" && p != "/" || seg == "." || seg == ".." {
			return "", "A path cannot hold empty, . or .. segments."
		}
	}
	return p, ""
}

// RedirectError is a redirect refused, with the message to show.
type RedirectError struct{ Message string }

func (e *RedirectError) Error() string { return e.Message }

// planRedirect adds from -> to to the current redirects: refused when it
// would loop, and collapsed so every chain is one hop (from goes straight
// to to's final target, and what led to from now leads there too).
func planRedirect(current []contentdb.Redirect, from, to, source, by string, now time.Time) ([]contentdb.Redirect, []string, error) {
	if from == to {
		return nil, nil, &RedirectError{"A path cannot redirect to itself."}
	}
	next := map[string]string{}
	for _, r := range current {
		next[r.From] = r.To
	}
	// The final target of to.
	final, seen := to, map[string]bool{to: true}
	for {
		n, ok := next[final]
		if !ok {
			break
		}
		if seen[n] {
			return nil, nil, &RedirectError{"The redirects from " + to + " already go round in a loop."}
		}
		seen[n], final = true, n
	}
	if final == from || seen[from] {
		return nil, nil, &RedirectError{"That would make a loop: " + to + " already leads back to " + from + "."}
	}
	if _, exists := next[from]; !exists && len(current) >= MaxRedirects {
		return nil, nil, &RedirectError{"There are already the most redirects the site keeps; delete some first."}
	}
	up := []contentdb.Redirect{{From: from, To: final, Source: source, CreatedAt: now, CreatedBy: by}}
	for _, r := range current {
		if r.To == from {
			r.To = final
			up = append(up, r)
		}
	}
	return up, nil, nil
}

// Redirects lists the redirects, newest first.
func (s *Service) Redirects(ctx context.Context) ([]contentdb.Redirect, error) {
	return s.Store.Redirects(ctx)
}

// RedirectsPage reads one page of the redirects, ordered by the address
// they leave, and how many match p.Q in all.
func (s *Service) RedirectsPage(ctx context.Context, p db.Page) ([]contentdb.Redirect, int, error) {
	return s.Store.RedirectsPage(ctx, p)
}

// AddRedirect records a 301 from one path of the site to another. A path
// a page answers cannot be redirected (the page would win), and a
// redirect may not leave the site or make a loop.
func (s *Service) AddRedirect(ctx context.Context, fromRaw, toRaw, siteHost string, by Actor) (contentdb.Redirect, error) {
	from, msg := CleanPath(fromRaw, siteHost)
	if msg != "" {
		return contentdb.Redirect{}, &RedirectError{"From: " + msg}
	}
	to, msg := CleanPath(toRaw, siteHost)
	if msg != "" {
		return contentdb.Redirect{}, &RedirectError{"To: " + msg}
	}
	for _, p := range reserved {
		if from == strings.TrimSuffix(p, "/") || strings.HasPrefix(from, p) {
			return contentdb.Redirect{}, &RedirectError{"From: " + from + " belongs to the admin or the site's files and cannot be redirected."}
		}
	}
	if from == "/" {
		return contentdb.Redirect{}, &RedirectError{"From: the home page cannot be redirected."}
	}
	for _, p := range s.Paths() {
		if p == from {
			return contentdb.Redirect{}, &RedirectError{"From: " + from + " is a page of the site; unpublish it first, or change its address."}
		}
	}
	var added contentdb.Redirect
	err := s.Store.ChangeRedirects(ctx, func(current []contentdb.Redirect) ([]contentdb.Redirect, []string, error) {
		up, rm, err := planRedirect(current, from, to, contentdb.SourceManual, by.Name, s.now())
		if err == nil {
			added = up[0]
		}
		return up, rm, err
	})
	var re *RedirectError
	if errors.As(err, &re) {
		return contentdb.Redirect{}, re
	}
	if err != nil {
		return contentdb.Redirect{}, err
	}
	// The path now leads somewhere: it leaves the 404 list.
	if err := s.Store.DeleteNotFound(ctx, from); err != nil {
		s.Log.Warn("404 list not updated", "path", from, "err", err)
	}
	s.audit(ctx, by, AuditRedirectAdd, contentdb.Item{Kind: "redirect", Slug: from + " -> " + added.To}, "")
	s.Changed("redirect added")
	return added, nil
}

// DeleteRedirect removes a redirect; the old path answers 404 again.
func (s *Service) DeleteRedirect(ctx context.Context, fromRaw, siteHost string, by Actor) error {
	from, msg := CleanPath(fromRaw, siteHost)
	if msg != "" {
		return &RedirectError{msg}
	}
	found := false
	err := s.Store.ChangeRedirects(ctx, func(current []contentdb.Redirect) ([]contentdb.Redirect, []string, error) {
		for _, r := range current {
			found = found || r.From == from
		}
		if !found {
			return nil, nil, nil
		}
		return nil, []string{from}, nil
	})
	if err != nil {
		return err
	}
	if !found {
		return ErrNotFound
	}
	s.audit(ctx, by, AuditRedirectDel, contentdb.Item{Kind: "redirect", Slug: from}, "")
	s.Changed("redirect deleted")
	return nil
}

// RedirectMap reads every redirect as from -> to, for the public site.
func (s *Service) RedirectMap(ctx context.Context) (map[string]string, error) {
	rs, err := s.Store.Redirects(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rs))
	for _, r := range rs {
		out[r.From] = r.To
	}
	return out, nil
}

package editor

import (
	"context"
	"fmt"
	"strings"

	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db/contentdb"
	"github.com/atlanta-restoration/site/seoaudit"
)

// Render renders a public path as it would be with some content (the
// public pages' room renders a preview).
type Render func(ctx context.Context, c *content.Set, path string) ([]byte, error)

// Guidance is what the editor sees beside a draft: the rules' problems
// (hard ones block a publish) and the SEO audit's page rules, run by the
// server on the draft's real render.
type Guidance struct {
	// Path is the page the draft is shown on.
	Path     string            `json:"path"`
	Problems []content.Problem `json:"problems"`
	Checks   []seoaudit.Check  `json:"checks"`
	Words    int               `json:"words"`
	// RenderError says why the page could not be rendered ("" when it
	// was).
	RenderError string `json:"renderError,omitempty"`
}

// contentChecks are the SEO audit's rules that the words of a page
// decide; the others (HTTPS, viewport, structured data, the business's
// address) are the site's, not the editor's.
var contentChecks = map[string]bool{"Title tag": true, "Meta description": true, "H1 heading": true, "H2 headings": true,
	"Image alt text": true, "Content length": true, "Internal links": true}

// PreviewPath is the page a record is seen on: its own, or for records
// without one the page that shows them.
func PreviewPath(kind, slug string) string {
	switch kind {
	case content.KindCategory:
		return "/blog"
	case content.KindFAQ:
		if slug == "services" {
			return "/services"
		}
		return "/"
	}
	return PathOf(kind, slug)
}

// Guidance checks an item's working copy: the rules, and the page rules
// of the SEO audit on its render in the site it would make.
func (s *Service) Guidance(ctx context.Context, it contentdb.Item, render Render, baseURL string) (Guidance, error) {
	c, all, err := s.Candidate(ctx, it)
	if err != nil {
		return Guidance{}, err
	}
	g := Guidance{Path: PreviewPath(it.Kind, it.Slug), Problems: []content.Problem{}, Checks: []seoaudit.Check{}}
	for _, p := range all {
		if (p.Kind == it.Kind && p.Slug == it.Slug) || p.Slug == "" {
			g.Problems = append(g.Problems, p)
		}
	}
	g.Problems = append(g.Problems, s.photoProblems(ctx, it)...)
	if len(content.HardProblems(g.Problems)) > 0 {
		g.RenderError = "The page is checked once nothing blocks publishing: fill in the fields it needs, then save."
		return g, nil
	}
	body, err := render(ctx, c, g.Path)
	if err != nil {
		s.Log.Warn("guidance: the draft's page did not render", "kind", it.Kind, "slug", it.Slug, "err", err)
		g.RenderError = renderMessage(err)
		return g, nil
	}
	d, err := seoaudit.Parse(body)
	if err != nil {
		g.RenderError = "The page could not be read: " + err.Error()
		return g, nil
	}
	words, hasMain := mainWords(it)
	for _, ch := range seoaudit.AuditDoc(d, seoaudit.Context{URL: strings.TrimSuffix(baseURL, "/") + g.Path}) {
		if !contentChecks[ch.Check] {
			continue
		}
		if ch.Check == "Content length" {
			// The page's count includes the menu, the footer and the
			// blocks every page shares (a 60-word post "passed" with
			// 407): the editor judges the words the owner wrote.
			if !hasMain {
				continue
			}
			ch = wordsCheck(ch, words)
		}
		g.Checks = append(g.Checks, ch)
	}
	g.Words = words
	return g, nil
}

// mainWords counts the words of an item's main text (content.MainText),
// the same words its reading time is made of; kinds without a page of
// their own have none.
func mainWords(it contentdb.Item) (int, bool) {
	v, err := content.Decode(it.Kind, it.Slug, []byte(it.Draft))
	if err != nil {
		return 0, false
	}
	text, ok := content.MainText(v)
	if !ok {
		return 0, false
	}
	return content.BodyWords(text), true
}

// wordsCheck is the SEO audit's content-length rule on the main text.
func wordsCheck(ch seoaudit.Check, words int) seoaudit.Check {
	ch.Status, ch.Fix = seoaudit.Pass, ""
	ch.Message = fmt.Sprintf("The text you wrote has %d words.", words)
	if words < seoaudit.MinWords {
		ch.Status = seoaudit.Warning
		ch.Message = fmt.Sprintf("The text you wrote has %d words; at least %d are recommended.", words, seoaudit.MinWords)
		ch.Fix = fmt.Sprintf("Write about %d more words of useful text.", seoaudit.MinWords-words)
	}
	return ch
}

// Preview renders an item's working copy in the site it would make.
func (s *Service) Preview(ctx context.Context, it contentdb.Item, render Render) ([]byte, error) {
	c, problems, err := s.Candidate(ctx, it)
	if err != nil {
		return nil, err
	}
	if hard := content.HardProblems(problems); len(hard) > 0 {
		for _, p := range hard {
			if p.Kind == it.Kind && p.Slug == it.Slug || p.Slug == "" {
				return nil, &Invalid{Message: "Fix the problems marked before previewing: " + p.Field + " " + p.Message + ".", Problems: hard}
			}
		}
	}
	return render(ctx, c, PreviewPath(it.Kind, it.Slug))
}

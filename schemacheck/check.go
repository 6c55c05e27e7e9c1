package schemacheck

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Page is one indexable page to check: its path, its page kind in the
// route table and the types the route table says it must carry.
type Page struct {
	Path   string
	Kind   string
	Expect []string
}

// PageResult is what one page's structured data came to.
type PageResult struct {
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	StatusCode int    `json:"statusCode"`
	// Blocks counts the page's application/ld+json blocks.
	Blocks int `json:"blocks"`
	// Types are the top-level item types found, in page order, once each
	// (a validated subtype under its kind: GeneralContractor is
	// LocalBusiness).
	Types    []string `json:"types"`
	Expected []string `json:"expected"`
	Missing  []string `json:"missing"`
	// Items counts what the score weighs on this page: validated items,
	// missing expected types and unreadable blocks; Valid those without
	// an error.
	Items    int       `json:"items"`
	Valid    int       `json:"valid"`
	Findings []Finding `json:"findings"`
	// Error says why the page could not be checked (not 200, unreadable).
	Error string `json:"error,omitempty"`

	// shared are the page's identified top-level items (by @id), for the
	// comparison across pages; not stored.
	shared map[string]sharedItem
}

type sharedItem struct {
	typ  string
	node node
	text string // canonical JSON
}

// Covered reports whether the page carries any readable structured data.
func (r PageResult) Covered() bool { return r.Error == "" && len(r.Types) > 0 }

// Counts tallies a page's findings.
func (r PageResult) Counts() (errors, warnings int) {
	for _, f := range r.Findings {
		if f.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return
}

// Options are what a check needs to know about the site's markup.
type Options struct {
	// FAQItemClass is the class of each question (with its answer) of
	// the site's FAQ accordions: a page showing any must carry FAQPage, and
	// every question marked up must be one shown. Empty: FAQ blocks are
	// not looked for.
	FAQItemClass string
}

// CheckPage checks one page's HTML.
func CheckPage(body []byte, p Page, o Options) PageResult {
	r := PageResult{Path: p.Path, Kind: p.Kind, StatusCode: 200, Types: []string{}, Expected: append([]string{}, p.Expect...), Missing: []string{}, Findings: []Finding{}}
	parsed, err := parseHTML(body, o.FAQItemClass)
	if err != nil {
		r.Error = "the page could not be parsed: " + err.Error()
		return r
	}
	d := &parsed.doc
	r.Blocks = d.blocks
	for _, msg := range d.broken {
		r.Items++
		r.Findings = append(r.Findings, Finding{Type: BlockType, Severity: Error, Message: msg})
	}
	r.shared = map[string]sharedItem{}
	seen := map[string]int{}
	var faqs []node
	for _, n := range d.items {
		t := canonical(n)
		if t == "" {
			r.Findings = append(r.Findings, Finding{Type: BlockType, Severity: Warning, Property: "@type", Message: "An item has no @type: search engines cannot tell what it describes."})
			continue
		}
		if seen[t] == 0 {
			r.Types = append(r.Types, t)
		}
		seen[t]++
		if id, ok := n["@id"].(string); ok && id != "" {
			if _, dup := r.shared[id]; !dup {
				b, _ := json.Marshal(n)
				r.shared[id] = sharedItem{typ: t, node: n, text: string(b)}
			}
		}
		k, ok := KindOf(t)
		if !ok {
			continue // counted as present; no rules to apply
		}
		fs, errs := check(d, k, n)
		if t == "FAQPage" {
			faqs = append(faqs, n)
			if len(faqs) == 2 {
				// Google: one FAQPage per page; two make Search Console
				// report "Duplicate field FAQPage".
				fs = append(fs, Finding{Type: t, Severity: Error, Message: "The page has more than one FAQPage: Google accepts one per page, so put every question in one."})
				errs++
			}
		}
		r.Items++
		if errs == 0 {
			r.Valid++
		}
		r.Findings = append(r.Findings, fs...)
	}
	for _, t := range p.Expect {
		if seen[t] == 0 {
			r.Missing = append(r.Missing, t)
		}
	}
	if len(parsed.shown) > 0 {
		// The page shows an FAQ: it must publish it.
		if !contains(r.Expected, "FAQPage") {
			r.Expected = append(r.Expected, "FAQPage")
		}
		if len(faqs) == 0 {
			r.Missing = append(r.Missing, "FAQPage")
		}
	}
	if o.FAQItemClass != "" {
		// Google: every question marked up must be visible on the page.
		for _, f := range faqs {
			for i, v := range asList(f["mainEntity"]) {
				q, ok := d.resolve(v).(map[string]any)
				name := ""
				if ok {
					name = squash(d.text(q, "name"))
				}
				if name != "" && !shownQuestion(parsed.shown, name) {
					r.Findings = append(r.Findings, Finding{Type: "FAQPage", Severity: Warning, Property: fmt.Sprintf("mainEntity[%d]", i),
						Message: fmt.Sprintf("The question %q is marked up but not shown on the page: FAQ markup must match what visitors see.", name)})
				}
			}
		}
	}
	for _, t := range r.Missing {
		r.Items++
		r.Findings = append(r.Findings, Finding{Type: t, Severity: Error, Message: fmt.Sprintf("No %s on this page, which every %s page should carry.", t, kindName(p.Kind))})
	}
	return r
}

// shownQuestion reports whether a visible FAQ item holds the question.
func shownQuestion(shown []string, name string) bool {
	for _, s := range shown {
		if strings.Contains(s, name) {
			return true
		}
	}
	return false
}

// kindName is a page kind as the screen says it.
func kindName(kind string) string {
	if kind == "" {
		return "site"
	}
	return strings.ReplaceAll(kind, "-", " ")
}

// compareShared checks that an @id names the same thing on every page:
// the same business, the same FAQ. Against the version most pages serve
// (the first page's on a tie), a page that differs gets a warning naming
// the properties that differ. A change of settings in the middle of a
// warm-up can cause it for a moment; anything lasting is a real
// inconsistency (a different phone on some pages, two FAQs sharing one
// identifier).
func compareShared(pages []*PageResult) {
	type version struct {
		text  string
		node  node
		pages int
		first int
	}
	byID := map[string][]*version{}
	var ids []string
	for i, p := range pages {
		for id, it := range p.shared {
			vs, ok := byID[id]
			if !ok {
				ids = append(ids, id)
			}
			found := false
			for _, v := range vs {
				if v.text == it.text {
					v.pages++
					found = true
				}
			}
			if !found {
				byID[id] = append(vs, &version{text: it.text, node: it.node, pages: 1, first: i})
			}
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		vs := byID[id]
		if len(vs) < 2 {
			continue
		}
		ref := vs[0]
		for _, v := range vs[1:] {
			if v.pages > ref.pages || (v.pages == ref.pages && v.first < ref.first) {
				ref = v
			}
		}
		for _, p := range pages {
			it, ok := p.shared[id]
			if !ok || it.text == ref.text {
				continue
			}
			p.Findings = append(p.Findings, Finding{Type: it.typ, Severity: Warning, Property: "@id",
				Message: fmt.Sprintf("%s names a different %s here than on %s (%s differ): one @id must mean one thing on every page.", id, it.typ, pages[ref.first].Path, strings.Join(differing(ref.node, it.node), ", "))})
		}
	}
}

// differing lists the top-level properties whose values differ.
func differing(a, b node) []string {
	var out []string
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for k := range keys {
		x, _ := json.Marshal(a[k])
		y, _ := json.Marshal(b[k])
		if string(x) != string(y) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

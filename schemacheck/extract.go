// Package schemacheck validates the structured data (JSON-LD) the site
// really serves: the HTML of every indexable page, read through the
// server's own handler, each application/ld+json block parsed and its
// @graph walked. Each top-level item of a known type is checked against
// the required and recommended properties of Google Search Central's
// structured-data documentation (schema.org's for Service, which is not a
// Google rich-result type); the types a page kind must carry (from the
// route table) are checked for presence; and blocks that share an @id are
// compared across pages. The Schema Management screen reads the stored
// result (ADR 022).
package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// node is one JSON-LD object. Numbers stay json.Number, so a coordinate's
// written precision can be read back.
type node = map[string]any

// maxDepth bounds every walk of a JSON-LD value: the site's own blocks
// nest a few levels; anything deeper is not walked.
const maxDepth = 32

// document is what a page's JSON-LD says: its top-level items in order,
// every identified node by @id (for references such as a Service's
// provider {"@id": ".../#business"}), and the blocks that could not be
// read.
type document struct {
	blocks int
	items  []node
	byID   map[string]node
	broken []string // one message per unreadable block
}

// parsed is a page's HTML reduced to what the checks need.
type parsed struct {
	doc document
	// shown is the text of each element carrying the FAQ item class (a
	// question with its answer), when a class is set.
	shown []string
}

// parseHTML finds every <script type="application/ld+json"> in the page,
// wherever it is, and counts the elements with class faqClass.
func parseHTML(body []byte, faqClass string) (parsed, error) {
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return parsed{}, err
	}
	var p parsed
	p.doc.byID = map[string]node{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Script && isLD(attr(n, "type")) {
				var text strings.Builder
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						text.WriteString(c.Data)
					}
				}
				p.doc.add(text.String())
			}
			if faqClass != "" && hasClass(attr(n, "class"), faqClass) {
				p.shown = append(p.shown, squash(textOf(n)))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return p, nil
}

// textOf is an element's text content.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// squash collapses runs of white space.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func isLD(t string) bool {
	t, _, _ = strings.Cut(t, ";")
	return strings.EqualFold(strings.TrimSpace(t), "application/ld+json")
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func hasClass(list, c string) bool {
	for _, x := range strings.Fields(list) {
		if x == c {
			return true
		}
	}
	return false
}

// add parses one block: an object, an array of objects, or an object with
// an @graph. Items inherit the block's @context.
func (d *document) add(text string) {
	d.blocks++
	n := d.blocks
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		d.broken = append(d.broken, fmt.Sprintf("JSON-LD block %d is not valid JSON (%v): search engines ignore all of it.", n, err))
		return
	}
	if dec.More() {
		d.broken = append(d.broken, fmt.Sprintf("JSON-LD block %d has text after its JSON value: search engines ignore all of it.", n))
		return
	}
	var roots []node
	switch x := v.(type) {
	case map[string]any:
		roots = []node{x}
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				roots = append(roots, m)
			}
		}
	}
	if len(roots) == 0 {
		d.broken = append(d.broken, fmt.Sprintf("JSON-LD block %d holds no object.", n))
		return
	}
	for _, r := range roots {
		ctx, hasCtx := r["@context"]
		if !hasCtx || !schemaOrg(ctx) {
			d.broken = append(d.broken, fmt.Sprintf("JSON-LD block %d has no schema.org @context: its types mean nothing to search engines.", n))
			continue
		}
		items := []node{r}
		if g, ok := r["@graph"]; ok {
			items = nil
			for _, e := range asList(g) {
				if m, ok := e.(map[string]any); ok {
					items = append(items, m)
				}
			}
		}
		for _, it := range items {
			d.items = append(d.items, it)
			d.index(it, 0)
		}
	}
}

// schemaOrg reports whether a @context names schema.org (a string, or a
// list holding one).
func schemaOrg(ctx any) bool {
	for _, c := range asList(ctx) {
		if s, ok := c.(string); ok {
			s = strings.TrimSuffix(strings.TrimSpace(s), "/")
			if s == "https://schema.org" || s == "http://schema.org" {
				return true
			}
		}
		if m, ok := c.(map[string]any); ok {
			if v, ok := m["@vocab"].(string); ok && strings.Contains(v, "schema.org") {
				return true
			}
		}
	}
	return false
}

// index records every node that carries an @id and says something more
// than its @id (a definition, not a reference).
func (d *document) index(v any, depth int) {
	if depth > maxDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if id, ok := x["@id"].(string); ok && len(x) > 1 && !isRef(x) {
			if _, seen := d.byID[id]; !seen {
				d.byID[id] = x
			}
		}
		for k, e := range x {
			if k != "@context" {
				d.index(e, depth+1)
			}
		}
	case []any:
		for _, e := range x {
			d.index(e, depth+1)
		}
	}
}

// isRef reports whether an object only points at another node: {"@id"}
// with at most a @type.
func isRef(m node) bool {
	if _, ok := m["@id"]; !ok {
		return false
	}
	for k := range m {
		if k != "@id" && k != "@type" {
			return false
		}
	}
	return true
}

// asList is v as a list: a JSON array, or a one-element list.
func asList(v any) []any {
	if v == nil {
		return nil
	}
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}

// types lists a node's @type values.
func types(n node) []string {
	var out []string
	for _, t := range asList(n["@type"]) {
		if s, ok := t.(string); ok && s != "" {
			out = append(out, strings.TrimPrefix(strings.TrimPrefix(s, "https://schema.org/"), "http://schema.org/"))
		}
	}
	return out
}

// resolve follows a reference {"@id": x} to the node defined on the page;
// anything else is returned as it is.
func (d *document) resolve(v any) any {
	if m, ok := v.(map[string]any); ok && isRef(m) {
		if id, _ := m["@id"].(string); id != "" {
			if def, ok := d.byID[id]; ok {
				return def
			}
		}
	}
	return v
}

// text is a property's first non-empty text (or number) value.
func (d *document) text(n node, key string) string {
	for _, v := range asList(n[key]) {
		switch x := d.resolve(v).(type) {
		case string:
			if s := strings.TrimSpace(x); s != "" {
				return s
			}
		case json.Number:
			return x.String()
		}
	}
	return ""
}

// object is a property's first object value, references followed.
func (d *document) object(n node, key string) (node, bool) {
	for _, v := range asList(n[key]) {
		if m, ok := d.resolve(v).(map[string]any); ok {
			return m, true
		}
	}
	return nil, false
}

// has reports whether a property holds any non-empty value.
func (d *document) has(n node, key string) bool {
	for _, v := range asList(n[key]) {
		switch x := d.resolve(v).(type) {
		case string:
			if strings.TrimSpace(x) != "" {
				return true
			}
		case nil:
		case map[string]any:
			if len(x) > 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}

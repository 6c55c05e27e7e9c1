package schemacheck

import "sort"

// Message is one error or warning across the site: its text, how many
// pages show it and the first of them.
type Message struct {
	Text     string `json:"text"`
	Property string `json:"property,omitempty"`
	Pages    int    `json:"pages"`
	Example  string `json:"example"`
}

// TypeSummary is one schema type across every checked page: the
// Overview's row (spec 3's schema record: type, status, pages,
// description, priority) and the Validation tab's result (type, valid,
// errors, warnings).
type TypeSummary struct {
	Type string `json:"type"`
	// Status is active (on at least one page) or missing (expected by the
	// route table somewhere and found nowhere).
	Status string `json:"status" tstype:"'active' | 'missing'"`
	// Pages carry it; Expected pages' kinds must carry it; MissingOn of
	// those lack it.
	Pages       int    `json:"pages"`
	Expected    int    `json:"expected"`
	MissingOn   int    `json:"missingOn"`
	Description string `json:"description"`
	Priority    string `json:"priority" tstype:"'critical' | 'high' | 'medium' | 'low'"`
	Source      string `json:"source,omitempty"`
	// Validated is false for types with no rules here (counted, not
	// checked).
	Validated bool      `json:"validated"`
	Valid     bool      `json:"valid"`
	Errors    []Message `json:"errors"`
	Warnings  []Message `json:"warnings"`
}

// otherTypes describes types the site may serve that have no rules here.
var otherTypes = map[string]string{
	"Blog":        "The blog index and the posts it lists.",
	"ContactPage": "Marks the contact page as the way to reach the business.",
	"AboutPage":   "Marks the about page.",
	"ItemList":    "An ordered list of pages, such as the service areas.",
	"WebPage":     "Describes the page itself.",
}

// Summarize tallies every type found or expected across the pages that
// could be checked: validated kinds first in Kinds order, then other
// types by name, then unreadable blocks.
func Summarize(pages []PageResult) []TypeSummary {
	by := map[string]*TypeSummary{}
	get := func(t string) *TypeSummary {
		if s, ok := by[t]; ok {
			return s
		}
		s := &TypeSummary{Type: t, Priority: "low", Errors: []Message{}, Warnings: []Message{}}
		if k, ok := KindOf(t); ok {
			s.Description, s.Priority, s.Source, s.Validated = k.Description, k.Priority, k.Source, true
		} else if t == BlockType {
			s.Description, s.Priority, s.Validated = "Blocks of structured data that could not be read at all.", "critical", true
		} else if d, ok := otherTypes[t]; ok {
			s.Description = d
		} else {
			s.Description = "Found on the site; no search-engine rules are checked for it here."
		}
		by[t] = s
		return s
	}
	add := func(list *[]Message, f Finding, path string) {
		for i := range *list {
			if (*list)[i].Text == f.Message {
				(*list)[i].Pages++
				return
			}
		}
		*list = append(*list, Message{Text: f.Message, Property: f.Property, Pages: 1, Example: path})
	}
	for _, p := range pages {
		if p.Error != "" {
			continue
		}
		for _, t := range p.Types {
			get(t).Pages++
		}
		for _, t := range p.Expected {
			get(t).Expected++
		}
		for _, t := range p.Missing {
			get(t).MissingOn++
		}
		// A message counts once per page however often it occurs there.
		type key struct {
			t, m string
		}
		once := map[key]bool{}
		for _, f := range p.Findings {
			if once[key{f.Type, f.Message}] {
				continue
			}
			once[key{f.Type, f.Message}] = true
			s := get(f.Type)
			if f.Severity == Error {
				add(&s.Errors, f, p.Path)
			} else {
				add(&s.Warnings, f, p.Path)
			}
		}
	}
	out := make([]TypeSummary, 0, len(by))
	for _, s := range by {
		s.Status = "active"
		if s.Pages == 0 {
			s.Status = "missing"
		}
		s.Valid = len(s.Errors) == 0
		out = append(out, *s)
	}
	rank := func(t string) int {
		for i, k := range Kinds {
			if k.Type == t {
				return i
			}
		}
		if t == BlockType {
			return len(Kinds) + 1
		}
		return len(Kinds)
	}
	sort.Slice(out, func(i, j int) bool {
		if ri, rj := rank(out[i].Type), rank(out[j].Type); ri != rj {
			return ri < rj
		}
		return out[i].Type < out[j].Type
	})
	return out
}

package schemacheck

import "fmt"

// Template returns the first top-level item of a validated kind that a
// page serves, as a standalone JSON-LD object (with its @context), for the
// Schema Templates tab: what the site really publishes, not a sample.
func Template(body []byte, kind string) (map[string]any, error) {
	p, err := parseHTML(body, "")
	if err != nil {
		return nil, err
	}
	for _, n := range p.doc.items {
		if canonical(n) != kind {
			continue
		}
		out := map[string]any{"@context": "https://schema.org"}
		for k, v := range n {
			if k != "@context" {
				out[k] = v
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("the page serves no %s", kind)
}

// Items returns every top-level item of a validated kind a page serves
// (FAQPage, Article...), each as a standalone JSON-LD object with its
// @context: the Schema Generator's answer. References to other
// blocks (@id) are left as the page writes them. None is an empty list.
func Items(body []byte, kind string) ([]map[string]any, error) {
	p, err := parseHTML(body, "")
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, n := range p.doc.items {
		if canonical(n) != kind {
			continue
		}
		out = append(out, standalone(n))
	}
	return out, nil
}

// Ratings returns the aggregate ratings a page's items carry (the
// business's rating from its Google reviews, when it qualifies), each as
// a standalone AggregateRating naming the item it rates.
func Ratings(body []byte) ([]map[string]any, error) {
	p, err := parseHTML(body, "")
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, n := range p.doc.items {
		r, ok := p.doc.resolve(n["aggregateRating"]).(map[string]any)
		if !ok {
			continue
		}
		item := map[string]any{"@context": "https://schema.org"}
		for k, v := range r {
			if k != "@context" {
				item[k] = v
			}
		}
		rated := map[string]any{"@type": n["@type"]}
		if id, ok := n["@id"]; ok {
			rated["@id"] = id
		}
		if name, ok := n["name"]; ok {
			rated["name"] = name
		}
		item["itemReviewed"] = rated
		out = append(out, item)
	}
	return out, nil
}

// standalone is n with the schema.org @context first.
func standalone(n node) map[string]any {
	out := map[string]any{"@context": "https://schema.org"}
	for k, v := range n {
		if k != "@context" {
			out[k] = v
		}
	}
	return out
}

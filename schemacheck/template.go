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

package schemacheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Items that satisfy every rule: each test removes or spoils one thing.
const (
	base = "https://www.example-restoration.test"

	okBusiness = `{"@type":["LocalBusiness","GeneralContractor"],"@id":"` + base + `/#business","name":"Acme Restoration",
		"address":{"@type":"PostalAddress","streetAddress":"6595 Church Street","addressLocality":"Douglasville","addressRegion":"GA","postalCode":"30134","addressCountry":"US"},
		"telephone":"+1-770-555-0134","url":"` + base + `/","geo":{"@type":"GeoCoordinates","latitude":33.75150,"longitude":-84.74770},
		"openingHoursSpecification":[{"@type":"OpeningHoursSpecification","dayOfWeek":["Monday","Tuesday"],"opens":"08:00","closes":"17:00"}],
		"priceRange":"$$","image":"` + base + `/og-image.png","sameAs":["https://www.facebook.com/acme-restoration"]}`
	okOrganization = `{"@type":"Organization","@id":"` + base + `/#organization","name":"Acme Restoration","url":"` + base + `/","logo":"` + base + `/logo.png"}`
	okWebSite      = `{"@type":"WebSite","@id":"` + base + `/#website","name":"Acme Restoration","alternateName":"Acme","url":"` + base + `/",
		"potentialAction":{"@type":"SearchAction","target":{"@type":"EntryPoint","urlTemplate":"` + base + `/search?q={search_term_string}"},"query-input":"required name=search_term_string"}}`
	okBreadcrumbs = `{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home","item":"` + base + `/"},
		{"@type":"ListItem","position":2,"name":"Services","item":"` + base + `/services"},{"@type":"ListItem","position":3,"name":"Water Damage"}]}`
	okArticle = `{"@type":"Article","@id":"` + base + `/blog/a#article","headline":"What to do after water damage","image":"` + base + `/og-image.png",
		"datePublished":"2026-01-15","dateModified":"2026-02-01T09:00:00-05:00","author":{"@type":"Organization","name":"Acme Restoration"},
		"publisher":{"@id":"` + base + `/#organization"}}`
	okFAQ = `{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Do you work 24/7?","acceptedAnswer":{"@type":"Answer","text":"Yes."}},
		{"@type":"Question","name":"Do you bill insurance?","acceptedAnswer":{"@type":"Answer","text":"Yes, directly."}}]}`
	okService = `{"@type":"Service","@id":"` + base + `/services/water#service","name":"Water Damage Restoration","serviceType":"Water damage restoration",
		"provider":{"@id":"` + base + `/#business"},"areaServed":{"@type":"City","name":"Atlanta, Georgia"}}`
)

// pageHTML wraps JSON-LD blocks in a page.
func pageHTML(blocks ...string) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>t</title>")
	for _, x := range blocks {
		b.WriteString(`<script type="application/ld+json">` + x + `</script>`)
	}
	b.WriteString("</head><body><h1>t</h1></body></html>")
	return []byte(b.String())
}

// graph is one block with the items in an @graph.
func graph(items ...string) string {
	return `{"@context":"https://schema.org","@graph":[` + strings.Join(items, ",") + `]}`
}

func parse(t *testing.T, s string) node {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var n node
	if err := dec.Decode(&n); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return n
}

func dump(n node) string {
	b, _ := json.Marshal(n)
	return string(b)
}

var step = regexp.MustCompile(`^([^\[]+)(?:\[(\d+)\])?$`)

// del removes a property by path ("address.postalCode",
// "mainEntity[0].acceptedAnswer.text").
func del(t *testing.T, n node, path string) node {
	t.Helper()
	parts := strings.Split(path, ".")
	cur := n
	for i, p := range parts {
		m := step.FindStringSubmatch(p)
		if i == len(parts)-1 && m[2] == "" {
			if _, ok := cur[m[1]]; !ok {
				t.Fatalf("%s: no %s in %v", path, m[1], cur)
			}
			delete(cur, m[1])
			return n
		}
		v := cur[m[1]]
		if m[2] != "" {
			k, _ := strconv.Atoi(m[2])
			v = v.([]any)[k]
		}
		cur = v.(map[string]any)
	}
	return n
}

// findings checks an item (with the business and organization it may
// point at) and returns its type's findings as "severity property".
func findings(t *testing.T, typ, item string) []string {
	t.Helper()
	items := []string{item}
	if typ != "LocalBusiness" {
		items = append(items, okBusiness)
	}
	if typ != "Organization" {
		items = append(items, okOrganization)
	}
	r := CheckPage(pageHTML(graph(items...)), Page{Path: "/p"}, Options{})
	out := []string{}
	for _, f := range r.Findings {
		if f.Type == typ {
			out = append(out, string(f.Severity)+" "+f.Property)
		} else {
			t.Errorf("%s: a supporting item has a finding: %+v", typ, f)
		}
	}
	return out
}

// TestEachRule: the valid item has no findings; each required property
// removed gives exactly one error, each recommended one exactly one
// warning, naming the property.
func TestEachRule(t *testing.T) {
	for _, c := range []struct {
		typ, item   string
		required    []string
		recommended []string
	}{
		{"LocalBusiness", okBusiness, []string{"name", "address"},
			[]string{"address.streetAddress", "address.addressLocality", "address.addressRegion", "address.postalCode", "address.addressCountry",
				"telephone", "url", "geo", "openingHoursSpecification", "priceRange", "image"}},
		{"Organization", okOrganization, nil, []string{"name", "url", "logo"}},
		{"WebSite", okWebSite, []string{"name", "url"}, []string{"alternateName"}},
		{"BreadcrumbList", okBreadcrumbs, []string{"itemListElement", "itemListElement[0].position", "itemListElement[1].name", "itemListElement[1].item"}, nil},
		{"Article", okArticle, []string{"headline"}, []string{"image", "datePublished", "dateModified", "author", "author.name"}},
		{"FAQPage", okFAQ, []string{"mainEntity", "mainEntity[0].name", "mainEntity[1].acceptedAnswer", "mainEntity[1].acceptedAnswer.text"}, nil},
		{"Service", okService, []string{"name", "provider"}, []string{"areaServed", "serviceType"}},
	} {
		t.Run(c.typ, func(t *testing.T) {
			if got := findings(t, c.typ, c.item); len(got) != 0 {
				t.Fatalf("the valid %s has findings: %v", c.typ, got)
			}
			for _, sev := range []struct {
				s     Severity
				props []string
			}{{Error, c.required}, {Warning, c.recommended}} {
				for _, p := range sev.props {
					n := del(t, parse(t, c.item), p)
					want := p
					if strings.HasPrefix(p, "author.") {
						want = "author[0]." + strings.TrimPrefix(p, "author.")
					}
					got := findings(t, c.typ, dump(n))
					if diff := cmp.Diff([]string{string(sev.s) + " " + want}, got); diff != "" {
						t.Errorf("without %s (-want, +got):\n%s", p, diff)
					}
				}
			}
		})
	}
}

// TestSpoiledValues: values present but wrong.
func TestSpoiledValues(t *testing.T) {
	set := func(item, key string, v any) string {
		n := parse(t, item)
		n[key] = v
		return dump(n)
	}
	rating := func(r string) string { return set(okBusiness, "aggregateRating", json.RawMessage(r)) }
	for _, c := range []struct {
		name, typ, item string
		want            []string
	}{
		// aggregateRating is optional; a real one passes whether its
		// numbers are JSON numbers or text.
		{"real rating", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":4.8,"reviewCount":23}`), []string{}},
		{"rating as text", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":"4.8","reviewCount":"23","bestRating":"5"}`), []string{}},
		{"no reviews behind it", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":"4.9","reviewCount":"0"}`), []string{"error aggregateRating.reviewCount"}},
		{"negative count", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":4.9,"ratingCount":-3}`), []string{"error aggregateRating.ratingCount"}},
		{"fractional count", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":4.9,"reviewCount":7.5}`), []string{"error aggregateRating.reviewCount"}},
		{"no count", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":4.9}`), []string{"error aggregateRating.reviewCount"}},
		{"no value", "LocalBusiness", rating(`{"@type":"AggregateRating","reviewCount":12}`), []string{"error aggregateRating.ratingValue"}},
		{"value not a number", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":"great","reviewCount":12}`), []string{"error aggregateRating.ratingValue"}},
		{"value above best", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":9,"reviewCount":12}`), []string{"error aggregateRating.ratingValue"}},
		{"value within a 10 scale", "LocalBusiness", rating(`{"@type":"AggregateRating","ratingValue":9,"bestRating":10,"reviewCount":12}`), []string{}},
		{"rating text", "LocalBusiness", rating(`"4.9 stars"`), []string{"error aggregateRating"}},
		{"coarse coordinates", "LocalBusiness", set(okBusiness, "geo", json.RawMessage(`{"@type":"GeoCoordinates","latitude":33.7515,"longitude":-84.74770}`)), []string{"warning geo.latitude"}},
		{"latitude out of range", "LocalBusiness", set(okBusiness, "geo", json.RawMessage(`{"latitude":133.75150,"longitude":-84.74770}`)), []string{"error geo.latitude"}},
		{"no longitude", "LocalBusiness", set(okBusiness, "geo", json.RawMessage(`{"latitude":33.75150}`)), []string{"error geo.longitude"}},
		{"phone without country code", "LocalBusiness", set(okBusiness, "telephone", "(770) 555-0134"), []string{"warning telephone"}},
		{"relative url", "LocalBusiness", set(okBusiness, "url", "/"), []string{"error url"}},
		{"hours without closes", "LocalBusiness", set(okBusiness, "openingHoursSpecification", json.RawMessage(`{"dayOfWeek":"Monday","opens":"08:00"}`)), []string{"error openingHoursSpecification[0].closes"}},
		{"address as text", "LocalBusiness", set(okBusiness, "address", "6595 Church Street, Douglasville"), []string{"warning address"}},
		{"long price range", "LocalBusiness", set(okBusiness, "priceRange", strings.Repeat("$", 100)), []string{"warning priceRange"}},
		{"social home page", "LocalBusiness", set(okBusiness, "sameAs", []any{"https://www.facebook.com/", "https://www.yelp.com/biz/acme"}), []string{"warning sameAs"}},
		{"organization social home page", "Organization", set(okOrganization, "sameAs", "https://www.instagram.com"), []string{"warning sameAs"}},
		{"one crumb", "BreadcrumbList", set(okBreadcrumbs, "itemListElement", json.RawMessage(`[{"@type":"ListItem","position":1,"name":"Home","item":"`+base+`/"}]`)), []string{"error itemListElement"}},
		{"crumbs out of order", "BreadcrumbList", set(okBreadcrumbs, "itemListElement", json.RawMessage(`[{"position":2,"name":"A","item":"`+base+`/a"},{"position":1,"name":"B"}]`)), []string{"warning itemListElement[1].position"}},
		{"crumb named by its item", "BreadcrumbList", set(okBreadcrumbs, "itemListElement", json.RawMessage(`[{"position":1,"item":{"@id":"`+base+`/","name":"Home"}},{"position":2,"name":"B"}]`)), []string{}},
		{"relative crumb", "BreadcrumbList", set(okBreadcrumbs, "itemListElement", json.RawMessage(`[{"position":1,"name":"Home","item":"/"},{"position":2,"name":"B"}]`)), []string{"error itemListElement[0].item"}},
		{"date not ISO 8601", "Article", set(okArticle, "datePublished", "January 15, 2026"), []string{"error datePublished"}},
		{"modified before published", "Article", set(okArticle, "dateModified", "2025-12-01"), []string{"warning dateModified"}},
		{"author as text", "Article", set(okArticle, "author", "Jane"), []string{"warning author[0]"}},
		{"publisher nowhere", "Article", set(okArticle, "publisher", json.RawMessage(`{"@id":"https://elsewhere.test/#org"}`)), []string{"warning publisher"}},
		{"publisher without name", "Article", set(okArticle, "publisher", json.RawMessage(`{"@type":"Organization","logo":"x"}`)), []string{"warning publisher.name"}},
		{"blog posting", "Article", set(okArticle, "@type", "BlogPosting"), []string{}},
		{"search target without its variable", "WebSite", set(okWebSite, "potentialAction", json.RawMessage(`{"@type":"SearchAction","target":"`+base+`/search?q={q}","query-input":"required name=search_term_string"}`)), []string{"error potentialAction.target"}},
		{"search without query-input", "WebSite", set(okWebSite, "potentialAction", json.RawMessage(`{"@type":"SearchAction","target":"`+base+`/search?q={q}"}`)), []string{"error potentialAction.query-input"}},
		{"no search action is fine", "WebSite", dump(del(t, parse(t, okWebSite), "potentialAction")), []string{}},
		{"question that is not", "FAQPage", set(okFAQ, "mainEntity", json.RawMessage(`["Why?"]`)), []string{"error mainEntity[0]"}},
		{"empty FAQ", "FAQPage", set(okFAQ, "mainEntity", json.RawMessage(`[]`)), []string{"error mainEntity"}},
		{"provider nowhere", "Service", set(okService, "provider", json.RawMessage(`{"@id":"https://elsewhere.test/#b"}`)), []string{"warning provider"}},
		{"service described", "Service", dump(del(t, parse(t, set(okService, "description", "Drying and repairs.")), "serviceType")), []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, findings(t, c.typ, c.item)); diff != "" {
				t.Errorf("(-want, +got):\n%s", diff)
			}
		})
	}
}

func TestKindOf(t *testing.T) {
	for name, want := range map[string]string{"LocalBusiness": "LocalBusiness", "GeneralContractor": "LocalBusiness", "BlogPosting": "Article", "FAQPage": "FAQPage", "Blog": ""} {
		k, _ := KindOf(name)
		if k.Type != want {
			t.Errorf("KindOf(%s) = %q, want %q", name, k.Type, want)
		}
	}
	for _, k := range Kinds {
		if k.Description == "" || k.Source == "" || k.rules == nil {
			t.Errorf("%s: incomplete %+v", k.Type, k)
		}
		switch k.Priority {
		case "critical", "high", "medium", "low":
		default:
			t.Errorf("%s: priority %q is not spec 4's", k.Type, k.Priority)
		}
	}
}

func ExampleScore() {
	fmt.Println(Score(0, 0), Score(200, 199), Score(3, 1))
	// Output: 98 100 33
}

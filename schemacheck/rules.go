package schemacheck

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Severity is a finding's weight. An error makes the item invalid (Google
// would not use it, or it says something false); a warning is a
// recommended property that is missing or weak: the item still counts as
// valid, as in Search Console.
type Severity string

// The two severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem in a page's structured data. Type is the schema
// type it belongs to ("JSON-LD" for a block that could not be read).
type Finding struct {
	Type     string   `json:"type"`
	Severity Severity `json:"severity" tstype:"'error' | 'warning'"`
	Property string   `json:"property,omitempty"`
	Message  string   `json:"message"`
}

// BlockType names findings about a block rather than an item.
const BlockType = "JSON-LD"

// Kind is a schema type the checker knows: its rules and what the screen
// says about it. Priority is spec 4's critical, high, medium or low.
type Kind struct {
	Type        string
	Also        []string // subtypes checked with the same rules
	Description string
	Priority    string
	// Source is the documentation the rules follow.
	Source string
	rules  func(c *item, n node)
}

// Documentation the rules follow (Google Search Central, checked when
// the rules were written; schema.org where Google has no page).
const (
	docLocalBusiness = "https://developers.google.com/search/docs/appearance/structured-data/local-business"
	docReviewSnippet = "https://developers.google.com/search/docs/appearance/structured-data/review-snippet"
	docOrganization  = "https://developers.google.com/search/docs/appearance/structured-data/organization"
	docSiteNames     = "https://developers.google.com/search/docs/appearance/site-names"
	docBreadcrumb    = "https://developers.google.com/search/docs/appearance/structured-data/breadcrumb"
	docArticle       = "https://developers.google.com/search/docs/appearance/structured-data/article"
	docFAQ           = "https://developers.google.com/search/docs/appearance/structured-data/faqpage"
	docService       = "https://schema.org/Service"
)

// Kinds are the validated types, most important first (the Overview's
// order). Priorities: LocalBusiness carries the name, address, phone and
// hours local search shows, and spec 5 requires it on every page;
// Service says what is offered where; breadcrumbs and the site name shape
// every result's look; FAQ rich results are shown only for authoritative
// government and health sites since 2023, so FAQPage is low.
var Kinds = []Kind{
	{Type: "LocalBusiness", Priority: "critical", Source: docLocalBusiness, rules: localBusiness,
		// schema.org subtypes a restoration or building business may use.
		Also:        []string{"GeneralContractor", "HomeAndConstructionBusiness", "RoofingContractor", "Plumber", "Electrician", "HVACBusiness", "HousePainter", "ProfessionalService", "EmergencyService"},
		Description: "The business: name, address, phone, opening hours, service area and, when there are real reviews, the rating. Local search and Maps read it."},
	{Type: "Service", Priority: "high", Source: docService, rules: service,
		Description: "Each restoration service, and the service offered on each county and city page, linked to the business as its provider."},
	{Type: "Organization", Priority: "high", Source: docOrganization, rules: organization,
		Description: "The company's identity for search engines: name, website, logo and social profiles."},
	{Type: "BreadcrumbList", Priority: "medium", Source: docBreadcrumb, rules: breadcrumbList,
		Description: "The breadcrumb trail of every inner page, shown in place of the address in search results."},
	{Type: "Article", Priority: "medium", Source: docArticle, rules: article,
		Also:        []string{"BlogPosting", "NewsArticle"},
		Description: "Each blog post: headline, image, dates and author."},
	{Type: "WebSite", Priority: "medium", Source: docSiteNames, rules: webSite,
		Description: "The site's name as search results show it, and its search page."},
	{Type: "FAQPage", Priority: "low", Source: docFAQ, rules: faqPage,
		Description: "The questions and answers of the FAQ blocks. Google shows FAQ rich results only for authoritative government and health sites, so this mainly describes the page."},
}

// KindOf returns the rules for a type name, or false.
func KindOf(name string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Type == name {
			return k, true
		}
		for _, a := range k.Also {
			if a == name {
				return k, true
			}
		}
	}
	return Kind{}, false
}

// canonical is the name an item is reported under: its validated kind,
// else its first @type.
func canonical(n node) string {
	ts := types(n)
	for _, t := range ts {
		if k, ok := KindOf(t); ok {
			return k.Type
		}
	}
	if len(ts) > 0 {
		return ts[0]
	}
	return ""
}

// item collects the findings of one item.
type item struct {
	d    *document
	typ  string
	out  []Finding
	errs int
}

func (c *item) add(sev Severity, prop, msg string) {
	if sev == Error {
		c.errs++
	}
	c.out = append(c.out, Finding{Type: c.typ, Severity: sev, Property: prop, Message: msg})
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// required adds an error when n has no value for key.
func (c *item) required(n node, prefix, key string) bool {
	if c.d.has(n, key) {
		return true
	}
	c.add(Error, join(prefix, key), join(prefix, key)+" is missing (required).")
	return false
}

// recommended adds a warning when n has no value for key.
func (c *item) recommended(n node, prefix, key string) bool {
	if c.d.has(n, key) {
		return true
	}
	c.add(Warning, join(prefix, key), join(prefix, key)+" is missing (recommended).")
	return false
}

// check runs a kind's rules on one item.
func check(d *document, k Kind, n node) ([]Finding, int) {
	c := &item{d: d, typ: k.Type}
	k.rules(c, n)
	return c.out, c.errs
}

// localBusiness follows Google's LocalBusiness page: name and address are
// required; the address's parts ("include as many properties as
// possible"), geo (latitude and longitude with at least 5 decimal
// places), openingHoursSpecification, priceRange (under 100 characters),
// telephone (with country and area code) and url are recommended, and
// image as in every example there. menu, servesCuisine and department
// concern restaurants and stores with departments, so they are not
// asked for. aggregateRating is optional; when present it must be a real
// rating (review snippet rules).
func localBusiness(c *item, n node) {
	c.required(n, "", "name")
	if c.required(n, "", "address") {
		if addr, ok := c.d.object(n, "address"); ok {
			for _, k := range []string{"streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"} {
				c.recommended(addr, "address", k)
			}
		} else {
			c.add(Warning, "address", "address is plain text: Google reads a PostalAddress with streetAddress, addressLocality, addressRegion, postalCode and addressCountry.")
		}
	}
	if c.recommended(n, "", "telephone") {
		if tel := c.d.text(n, "telephone"); !strings.HasPrefix(tel, "+") {
			c.add(Warning, "telephone", fmt.Sprintf("telephone %q has no country code: Google asks for it with the country and area code (+1-…).", tel))
		}
	}
	if c.recommended(n, "", "url") {
		absoluteURL(c, "url", c.d.text(n, "url"))
	}
	if c.recommended(n, "", "geo") {
		if g, ok := c.d.object(n, "geo"); ok {
			coordinate(c, g, "latitude", 90)
			coordinate(c, g, "longitude", 180)
		} else {
			c.add(Error, "geo", "geo must be GeoCoordinates with latitude and longitude.")
		}
	}
	if c.recommended(n, "", "openingHoursSpecification") {
		for i, v := range asList(n["openingHoursSpecification"]) {
			h, ok := c.d.resolve(v).(map[string]any)
			prop := fmt.Sprintf("openingHoursSpecification[%d]", i)
			if !ok {
				c.add(Error, prop, prop+" must be an OpeningHoursSpecification with dayOfWeek, opens and closes.")
				continue
			}
			for _, k := range []string{"dayOfWeek", "opens", "closes"} {
				if !c.d.has(h, k) {
					c.add(Error, join(prop, k), join(prop, k)+" is missing: without it the hours cannot be read.")
				}
			}
		}
	}
	if c.recommended(n, "", "priceRange") {
		if p := c.d.text(n, "priceRange"); len([]rune(p)) >= 100 {
			c.add(Warning, "priceRange", "priceRange must be shorter than 100 characters.")
		}
	}
	c.recommended(n, "", "image")
	if _, ok := n["aggregateRating"]; ok {
		rating(c, n)
	}
	sameAs(c, n)
}

// coordinate checks geo.latitude or geo.longitude: a number within range,
// written with the at least 5 decimal places Google asks for.
func coordinate(c *item, g node, key string, limit float64) {
	prop := "geo." + key
	if !c.d.has(g, key) {
		c.add(Error, prop, prop+" is missing: a position needs both latitude and longitude.")
		return
	}
	s := c.d.text(g, key)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Abs(f) > limit {
		c.add(Error, prop, fmt.Sprintf("%s %q is not a valid coordinate.", prop, s))
		return
	}
	if _, frac, _ := strings.Cut(s, "."); len(frac) < 5 {
		c.add(Warning, prop, fmt.Sprintf("%s %s has %d decimal places: Google asks for at least 5 (about a metre), so the pin may sit off the office.", prop, s, len(frac)))
	}
}

// number reads a JSON number or numeric text (schema.org allows both for
// ratings).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// rating follows Google's review snippet page for an aggregateRating:
// ratingValue and one of ratingCount or reviewCount are required; the
// value lies within worstRating and bestRating (1 and 5 when omitted);
// the counts are whole numbers above zero. A rating with no reviews
// behind it is a false claim, so each of these is an error.
func rating(c *item, n node) {
	r, ok := c.d.object(n, "aggregateRating")
	if !ok {
		c.add(Error, "aggregateRating", "aggregateRating must be an AggregateRating with ratingValue and reviewCount.")
		return
	}
	best, worst := 5.0, 1.0
	for _, b := range []struct {
		key string
		v   *float64
	}{{"bestRating", &best}, {"worstRating", &worst}} {
		if v, ok := r[b.key]; ok {
			f, ok := number(v)
			if !ok {
				c.add(Error, "aggregateRating."+b.key, fmt.Sprintf("aggregateRating.%s %v is not a number.", b.key, v))
				continue
			}
			*b.v = f
		}
	}
	if v, ok := r["ratingValue"]; !ok {
		c.add(Error, "aggregateRating.ratingValue", "aggregateRating.ratingValue is missing (required).")
	} else if f, ok := number(v); !ok {
		c.add(Error, "aggregateRating.ratingValue", fmt.Sprintf("aggregateRating.ratingValue %v is not a number.", v))
	} else if f < worst || f > best {
		c.add(Error, "aggregateRating.ratingValue", fmt.Sprintf("aggregateRating.ratingValue %v is outside %v–%v.", v, worst, best))
	}
	counted := false
	for _, key := range []string{"reviewCount", "ratingCount"} {
		v, ok := r[key]
		if !ok {
			continue
		}
		counted = true
		f, ok := number(v)
		if !ok || f != math.Trunc(f) || f <= 0 {
			c.add(Error, "aggregateRating."+key, fmt.Sprintf("aggregateRating.%s %v must be a whole number above 0: a rating needs reviews behind it.", key, v))
		}
	}
	if !counted {
		c.add(Error, "aggregateRating.reviewCount", "aggregateRating needs reviewCount or ratingCount (required).")
	}
}

// sameAs warns about profile links that are a social site's home page
// (https://www.facebook.com/) rather than the business's own profile:
// schema.org's sameAs must identify the item.
func sameAs(c *item, n node) {
	for _, v := range asList(n["sameAs"]) {
		s, ok := v.(string)
		if !ok {
			continue
		}
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || u.Host == "" {
			c.add(Warning, "sameAs", fmt.Sprintf("sameAs %q is not an absolute URL.", s))
			continue
		}
		if strings.Trim(u.Path, "/") == "" && u.RawQuery == "" {
			c.add(Warning, "sameAs", fmt.Sprintf("sameAs %s is that site's home page, not the business's own profile there: point it at the profile, or leave it out.", s))
		}
	}
}

// absoluteURL adds an error when s is not an absolute http(s) address.
func absoluteURL(c *item, prop, s string) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		c.add(Error, prop, fmt.Sprintf("%s %q is not an absolute http(s) address.", prop, s))
	}
}

// organization follows Google's Organization page: it requires nothing
// and recommends name, url and logo (among details this business already
// gives on LocalBusiness).
func organization(c *item, n node) {
	c.recommended(n, "", "name")
	if c.recommended(n, "", "url") {
		absoluteURL(c, "url", c.d.text(n, "url"))
	}
	c.recommended(n, "", "logo")
	sameAs(c, n)
}

// placeholder reads the variable of a SearchAction's query-input
// ("required name=search_term_string").
var placeholder = regexp.MustCompile(`name=([A-Za-z0-9_]+)`)

// webSite follows Google's site names page: name and url are required,
// alternateName recommended. Google retired the sitelinks search box in
// November 2024, so a SearchAction is not asked for; one that is present
// must still be well formed: a target URL template holding the variable
// its query-input names.
func webSite(c *item, n node) {
	c.required(n, "", "name")
	if c.required(n, "", "url") {
		absoluteURL(c, "url", c.d.text(n, "url"))
	}
	c.recommended(n, "", "alternateName")
	for _, v := range asList(n["potentialAction"]) {
		a, ok := c.d.resolve(v).(map[string]any)
		if !ok || !contains(types(a), "SearchAction") {
			continue
		}
		target := c.d.text(a, "target")
		if t, ok := c.d.object(a, "target"); ok {
			target = c.d.text(t, "urlTemplate")
		}
		m := placeholder.FindStringSubmatch(c.d.text(a, "query-input"))
		switch {
		case target == "":
			c.add(Error, "potentialAction.target", "The SearchAction has no target URL template.")
		case m == nil:
			c.add(Error, "potentialAction.query-input", `The SearchAction's query-input must read "required name=search_term_string".`)
		case !strings.Contains(target, "{"+m[1]+"}"):
			c.add(Error, "potentialAction.target", fmt.Sprintf("The SearchAction's target %s does not hold {%s}, the variable its query-input names.", target, m[1]))
		default:
			absoluteURL(c, "potentialAction.target", strings.ReplaceAll(target, "{"+m[1]+"}", "x"))
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// breadcrumbList follows Google's breadcrumb page: itemListElement with at
// least two ListItems, each with position and name, and item (its URL)
// on all but the last.
func breadcrumbList(c *item, n node) {
	if !c.required(n, "", "itemListElement") {
		return
	}
	list := asList(n["itemListElement"])
	if len(list) < 2 {
		c.add(Error, "itemListElement", fmt.Sprintf("A breadcrumb trail needs at least two ListItems; this one has %d.", len(list)))
	}
	last := 0.0
	for i, v := range list {
		li, ok := c.d.resolve(v).(map[string]any)
		prop := fmt.Sprintf("itemListElement[%d]", i)
		if !ok {
			c.add(Error, prop, prop+" must be a ListItem.")
			continue
		}
		if p, ok := number(li["position"]); !ok || p != math.Trunc(p) || p < 1 {
			c.add(Error, join(prop, "position"), join(prop, "position")+" must be a whole number from 1 (required).")
		} else {
			if p <= last {
				c.add(Warning, join(prop, "position"), fmt.Sprintf("%s is %v after %v: positions should count up from 1 in trail order.", join(prop, "position"), p, last))
			}
			last = p
		}
		name := c.d.text(li, "name")
		target := c.d.text(li, "item")
		if it, ok := c.d.object(li, "item"); ok {
			target = c.d.text(it, "@id")
			if name == "" {
				name = c.d.text(it, "name")
			}
		}
		if name == "" {
			c.add(Error, join(prop, "name"), join(prop, "name")+" is missing (required).")
		}
		if target == "" {
			if i < len(list)-1 {
				c.add(Error, join(prop, "item"), join(prop, "item")+" is missing: only the last crumb may leave out its URL.")
			}
		} else {
			absoluteURL(c, join(prop, "item"), target)
		}
	}
}

// dateTime reads an ISO 8601 date or date-time as Google asks for.
func dateTime(s string) (time.Time, bool) {
	for _, f := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(f, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// article follows Google's Article page, which lists no required
// properties and recommends author (with author.name), datePublished,
// dateModified, headline and image. headline is required here: an
// Article without one says nothing. Dates must be ISO 8601; a publisher,
// when given, must have a name (a reference to the Organization block is
// followed).
func article(c *item, n node) {
	c.required(n, "", "headline")
	c.recommended(n, "", "image")
	var published, modified time.Time
	for _, d := range []struct {
		key string
		t   *time.Time
	}{{"datePublished", &published}, {"dateModified", &modified}} {
		if !c.recommended(n, "", d.key) {
			continue
		}
		s := c.d.text(n, d.key)
		t, ok := dateTime(s)
		if !ok {
			c.add(Error, d.key, fmt.Sprintf("%s %q is not an ISO 8601 date (2026-01-31 or 2026-01-31T09:00:00-05:00).", d.key, s))
			continue
		}
		*d.t = t
	}
	if !published.IsZero() && !modified.IsZero() && modified.Before(published) {
		c.add(Warning, "dateModified", "dateModified is before datePublished.")
	}
	if c.recommended(n, "", "author") {
		for i, v := range asList(n["author"]) {
			a, ok := c.d.resolve(v).(map[string]any)
			prop := fmt.Sprintf("author[%d]", i)
			if !ok {
				c.add(Warning, prop, prop+" is plain text: Google reads a Person or Organization with a name.")
				continue
			}
			c.recommended(a, prop, "name")
		}
	}
	if v, ok := n["publisher"]; ok {
		p, ok := c.d.resolve(v).(map[string]any)
		switch {
		case !ok:
			c.add(Warning, "publisher", "publisher is plain text: give an Organization with a name.")
		case isRef(p):
			c.add(Warning, "publisher", fmt.Sprintf("publisher points at %v, which no block on this page defines.", p["@id"]))
		default:
			c.recommended(p, "publisher", "name")
		}
	}
}

// faqPage follows Google's FAQ page: mainEntity holds at least one
// Question, each with name and acceptedAnswer, and each answer with text.
func faqPage(c *item, n node) {
	if !c.required(n, "", "mainEntity") {
		return
	}
	for i, v := range asList(n["mainEntity"]) {
		q, ok := c.d.resolve(v).(map[string]any)
		prop := fmt.Sprintf("mainEntity[%d]", i)
		if !ok || !contains(types(q), "Question") {
			c.add(Error, prop, prop+" must be a Question.")
			continue
		}
		c.required(q, prop, "name")
		if c.required(q, prop, "acceptedAnswer") {
			a, ok := c.d.object(q, "acceptedAnswer")
			if !ok {
				c.add(Error, join(prop, "acceptedAnswer"), join(prop, "acceptedAnswer")+" must be an Answer with text.")
				continue
			}
			c.required(a, join(prop, "acceptedAnswer"), "text")
		}
	}
}

// service checks schema.org's Service, which is not a Google rich-result
// type: name and provider are required here (a service no one provides
// says nothing); areaServed and a serviceType or description are
// recommended. A provider given by reference must be defined on the page.
func service(c *item, n node) {
	c.required(n, "", "name")
	if v, ok := n["provider"]; !ok || !c.d.has(n, "provider") {
		c.add(Error, "provider", "provider is missing (required): link the service to the business.")
	} else if p, ok := c.d.resolve(asList(v)[0]).(map[string]any); ok && isRef(p) {
		c.add(Warning, "provider", fmt.Sprintf("provider points at %v, which no block on this page defines.", p["@id"]))
	}
	c.recommended(n, "", "areaServed")
	if !c.d.has(n, "serviceType") && !c.d.has(n, "description") {
		c.add(Warning, "serviceType", "serviceType or description is missing (recommended): say what the service is.")
	}
}

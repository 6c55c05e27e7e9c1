// Package seoaudit runs spec 5's page-audit rules on the server: over the
// HTML every public route of the table answers, through the server's own
// handler, after each deploy and content change and when the admin asks.
// The rules are a port of admin/seo-audit-rules.ts (same checks, names,
// thresholds and messages; ADR 014 lists the two readings that differ)
// over golang.org/x/net/html.
package seoaudit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Status is an audit check's outcome (spec 4).
type Status string

// Spec 4's audit check statuses.
const (
	Pass    Status = "pass"
	Warning Status = "warning"
	Fail    Status = "fail"
)

// Check is spec 3's audit check. Priority is the dashboard audit's P0, P1
// or P2 (spec 4).
type Check struct {
	Category string `json:"category"`
	Check    string `json:"check"`
	Status   Status `json:"status" tstype:"'pass' | 'warning' | 'fail'"`
	Message  string `json:"message"`
	Priority string `json:"priority" tstype:"'P0' | 'P1' | 'P2'"`
	Fix      string `json:"fix,omitempty"`
}

// Context says where a page lives and what the business's phone and
// address are (the NAP check looks for them in the page text).
type Context struct {
	// URL is the page's absolute public address: BASE_URL plus its path.
	URL    string
	Phone  string
	Street string
	City   string
	State  string
	Zip    string
}

// Spec 9's thresholds.
const (
	TitleMax         = 60
	DescriptionMax   = 160
	MinWords         = 300
	MinInternalLinks = 5
	WarningWeight    = 0.7
)

// result is a rule's verdict before the rule's name is attached.
type result struct {
	status       Status
	message, fix string
}

func pass(m string) result      { return result{Pass, m, ""} }
func warn(m, fix string) result { return result{Warning, m, fix} }
func fail(m, fix string) result { return result{Fail, m, fix} }
func squash(s string) string    { return strings.Join(strings.Fields(s), " ") }
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Doc is a parsed page with the lookups the rules share.
type Doc struct {
	root *html.Node
	body *html.Node
}

// Parse parses a page. html.Parse never fails on bad markup (it repairs
// it as browsers do); it fails only on a read error.
func Parse(b []byte) (*Doc, error) {
	n, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	d := &Doc{root: n}
	d.body = first(n, func(x *html.Node) bool { return x.DataAtom == atom.Body })
	return d, nil
}

func walk(n *html.Node, f func(*html.Node)) {
	if n.Type == html.ElementNode {
		f(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func first(n *html.Node, pred func(*html.Node) bool) *html.Node {
	var out *html.Node
	walk(n, func(x *html.Node) {
		if out == nil && pred(x) {
			out = x
		}
	})
	return out
}

func all(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	walk(n, func(x *html.Node) {
		if x.DataAtom == a {
			out = append(out, x)
		}
	})
	return out
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

func text(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(x *html.Node) {
		if x.Type == html.TextNode {
			b.WriteString(x.Data)
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}

// meta returns the content of the first <meta name=...> (name compared
// case-insensitively).
func (d *Doc) meta(name string) string {
	m := first(d.root, func(x *html.Node) bool {
		n, _ := attr(x, "name")
		return x.DataAtom == atom.Meta && strings.EqualFold(n, name)
	})
	if m == nil {
		return ""
	}
	c, _ := attr(m, "content")
	return squash(c)
}

// relHas reports whether a rel attribute holds one of the tokens.
func relHas(rel string, tokens ...string) bool {
	for _, t := range strings.Fields(strings.ToLower(rel)) {
		for _, want := range tokens {
			if t == want {
				return true
			}
		}
	}
	return false
}

// ---------------------------------------------------------------- rules

// CheckTitle: missing fails, over 60 characters warns.
func CheckTitle(d *Doc) result {
	t := ""
	if n := first(d.root, func(x *html.Node) bool { return x.DataAtom == atom.Title }); n != nil {
		t = squash(text(n))
	}
	if t == "" {
		return fail("The page has no <title>.", "Give the page a unique title of 50-60 characters.")
	}
	if n := utf8.RuneCountInString(t); n > TitleMax {
		return warn(fmt.Sprintf("Title is %d characters; over %d is cut off in results (recommended 50-60).", n, TitleMax), "Shorten the title to 60 characters or fewer.")
	}
	return pass(fmt.Sprintf("Title is %d characters: “%s”.", utf8.RuneCountInString(t), t))
}

// CheckMetaDescription: missing fails, over 160 characters warns.
func CheckMetaDescription(d *Doc) result {
	s := d.meta("description")
	if s == "" {
		return fail("The page has no meta description.", "Write a meta description of 150-160 characters.")
	}
	if n := utf8.RuneCountInString(s); n > DescriptionMax {
		return warn(fmt.Sprintf("Meta description is %d characters; over %d is cut off (recommended 150-160).", n, DescriptionMax), "Shorten the description to 160 characters or fewer.")
	}
	return pass(fmt.Sprintf("Meta description is %d characters.", utf8.RuneCountInString(s)))
}

// CheckCanonical: a canonical link is required.
func CheckCanonical(d *Doc) result {
	href := ""
	if n := first(d.root, func(x *html.Node) bool {
		rel, _ := attr(x, "rel")
		return x.DataAtom == atom.Link && relHas(rel, "canonical")
	}); n != nil {
		h, _ := attr(n, "href")
		href = squash(h)
	}
	if href == "" {
		return fail("No canonical link.", "Add <link rel=\"canonical\"> with the page's address.")
	}
	return pass("Canonical: " + href)
}

// CheckH1: exactly one H1; none fails, more than one warns.
func CheckH1(d *Doc) result {
	n := len(all(d.root, atom.H1))
	switch {
	case n == 0:
		return fail("The page has no H1 heading.", "Add exactly one H1 naming the page's topic.")
	case n > 1:
		return warn(fmt.Sprintf("The page has %d H1 headings; use exactly one.", n), "Turn the extra H1 headings into H2.")
	}
	return pass("Exactly one H1 heading.")
}

// CheckH2: at least one H2.
func CheckH2(d *Doc) result {
	n := len(all(d.root, atom.H2))
	if n == 0 {
		return fail("The page has no H2 headings.", "Structure the content with H2 section headings.")
	}
	return pass(fmt.Sprintf("%d H2 heading%s.", n, plural(n, "", "s")))
}

// CheckImageAlt: every image needs non-blank alt text.
func CheckImageAlt(d *Doc) result {
	imgs := all(d.root, atom.Img)
	if len(imgs) == 0 {
		return pass("No images on the page.")
	}
	missing := 0
	for _, i := range imgs {
		if a, _ := attr(i, "alt"); squash(a) == "" {
			missing++
		}
	}
	if missing > 0 {
		return fail(fmt.Sprintf("%d of %d images lack alt text.", missing, len(imgs)), "Describe every image in its alt attribute.")
	}
	return pass(fmt.Sprintf("All %d images have alt text.", len(imgs)))
}

// JSONLDTypes lists the @type values of every JSON-LD block, including
// arrays of types and the nodes of an @graph; blocks that do not parse
// are counted in invalid.
func JSONLDTypes(d *Doc) (types []string, blocks, invalid int) {
	var node func(v any)
	add := func(t any) {
		switch t := t.(type) {
		case string:
			types = append(types, t)
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					types = append(types, s)
				}
			}
		}
	}
	node = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				node(x)
			}
		case map[string]any:
			add(v["@type"])
			if g, ok := v["@graph"].([]any); ok {
				for _, x := range g {
					node(x)
				}
			}
		}
	}
	walk(d.root, func(x *html.Node) {
		t, _ := attr(x, "type")
		if x.DataAtom != atom.Script || !strings.EqualFold(strings.TrimSpace(t), "application/ld+json") {
			return
		}
		blocks++
		var v any
		if err := json.Unmarshal([]byte(text(x)), &v); err != nil {
			invalid++
			return
		}
		node(v)
	})
	return types, blocks, invalid
}

// CheckStructuredData: JSON-LD with a LocalBusiness type (also inside an
// @graph).
func CheckStructuredData(d *Doc) result {
	types, blocks, invalid := JSONLDTypes(d)
	if blocks == 0 {
		return fail("No JSON-LD structured data.", "Add LocalBusiness structured data (JSON-LD).")
	}
	found := false
	for _, t := range types {
		found = found || t == "LocalBusiness"
	}
	if !found {
		list := strings.Join(types, ", ")
		if list == "" {
			list = "no types"
		}
		return fail(fmt.Sprintf("JSON-LD found (%s) but no LocalBusiness type.", list), "Add a LocalBusiness node with name, address and phone.")
	}
	if invalid > 0 {
		return warn(fmt.Sprintf("LocalBusiness found, but %d JSON-LD block%s not parse.", invalid, plural(invalid, " does", "s do")), "Fix the JSON syntax of the broken block.")
	}
	return pass(fmt.Sprintf("LocalBusiness structured data found (%d JSON-LD block%s).", blocks, plural(blocks, "", "s")))
}

var deviceWidth = regexp.MustCompile(`(?i)(^|,)\s*width\s*=\s*device-width\s*(,|$)`)

// CheckViewport: a viewport tag with width=device-width (the server audit
// asks for what the compliance audit asks for).
func CheckViewport(d *Doc) result {
	c := d.meta("viewport")
	if c == "" {
		return fail("No viewport meta tag: phones will show a zoomed-out desktop page.", "Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.")
	}
	if !deviceWidth.MatchString(c) {
		return fail(fmt.Sprintf("Viewport “%s” does not set width=device-width.", c), "Set width=device-width in the viewport tag.")
	}
	return pass("Viewport: " + c)
}

// IsLocalHost reports whether a host name is this machine.
func IsLocalHost(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "127.0.0.1" || h == "::1" || strings.HasPrefix(h, "127.")
}

// CheckHTTPS judges the page's public address (BASE_URL plus its path):
// https passes; anything else fails. On a local address the message says
// so: a local server has no certificate, and the live site's BASE_URL
// must be https for this check to pass.
func CheckHTTPS(c Context) result {
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme == "" {
		return fail(fmt.Sprintf("Cannot tell the protocol of “%s”.", c.URL), "Ask your web host to set the site's address to its https address (see the deployment guide).")
	}
	if u.Scheme == "https" {
		return pass("Served over HTTPS.")
	}
	if IsLocalHost(u.Hostname()) {
		return fail(fmt.Sprintf("The site's address is %s://%s, a local address over plain HTTP: this server is a local or test copy, so the audit cannot count HTTPS as passing. The live site passes at its https address.", u.Scheme, u.Host),
			"On the live site, the site's address is its https address (see the deployment guide).")
	}
	return fail("Served over plain HTTP.", "Ask your web host to serve the site over HTTPS, with its https address as the site's address, and to redirect http to https.")
}

var skipText = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Svg: true}

// VisibleText is the text a visitor reads: body text without scripts,
// styles, templates, SVG and hidden elements, element boundaries kept as
// spaces.
func VisibleText(d *Doc) string {
	if d.body == nil {
		return ""
	}
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipText[n.DataAtom] || strings.EqualFold(n.Data, "svg") {
				return
			}
			if _, hidden := attr(n, "hidden"); hidden {
				return
			}
		default:
			if n.Type != html.DocumentNode {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		b.WriteString(" ")
	}
	rec(d.body)
	return squash(b.String())
}

var wordChar = regexp.MustCompile(`[A-Za-z0-9\x{00C0}-\x{024F}]`)

// WordCount counts the visible words (tokens with a letter or digit).
func WordCount(d *Doc) int {
	n := 0
	for _, w := range strings.Split(VisibleText(d), " ") {
		if wordChar.MatchString(w) {
			n++
		}
	}
	return n
}

// CheckContentLength: at least 300 words, else a warning.
func CheckContentLength(d *Doc) result {
	n := WordCount(d)
	if n < MinWords {
		return warn(fmt.Sprintf("%d words; at least %d are recommended.", n, MinWords), fmt.Sprintf("Expand the page to %d words or more of useful text.", MinWords))
	}
	return pass(fmt.Sprintf("%d words of content.", n))
}

// InternalLinks counts links to the page's own origin; fragment-only,
// tel:, mailto: and other schemes do not count.
func InternalLinks(d *Doc, pageURL string) int {
	base, err := url.Parse(pageURL)
	if err != nil || base.Host == "" {
		return 0
	}
	n := 0
	walk(d.root, func(x *html.Node) {
		if x.DataAtom != atom.A {
			return
		}
		href, ok := attr(x, "href")
		href = strings.TrimSpace(href)
		if !ok || href == "" || strings.HasPrefix(href, "#") {
			return
		}
		u, err := base.Parse(href)
		if err != nil {
			return
		}
		if (u.Scheme == "http" || u.Scheme == "https") && u.Scheme == base.Scheme && strings.EqualFold(u.Host, base.Host) {
			n++
		}
	})
	return n
}

// CheckInternalLinks: at least 5 internal links, else a warning.
func CheckInternalLinks(d *Doc, c Context) result {
	n := InternalLinks(d, c.URL)
	if n < MinInternalLinks {
		return warn(fmt.Sprintf("%d internal links; at least %d are recommended.", n, MinInternalLinks), "Link to related services, areas and articles.")
	}
	return pass(fmt.Sprintf("%d internal links.", n))
}

// CheckResourceHints: at least one preload, prefetch or modulepreload. A
// speculation-rules script with prefetch rules counts as one prefetch hint
// per rule (ADR 017).
func CheckResourceHints(d *Doc) result {
	n := 0
	walk(d.root, func(x *html.Node) {
		rel, _ := attr(x, "rel")
		if x.DataAtom == atom.Link && relHas(rel, "preload", "prefetch", "modulepreload") {
			n++
		}
		if typ, _ := attr(x, "type"); x.DataAtom == atom.Script && strings.EqualFold(strings.TrimSpace(typ), "speculationrules") {
			n += speculationPrefetches(text(x))
		}
	})
	if n == 0 {
		return fail("No resource hints (preload, prefetch or modulepreload).", "Preload the critical font, image or script.")
	}
	return pass(fmt.Sprintf("%d resource hint%s.", n, plural(n, "", "s")))
}

// speculationPrefetches is the number of prefetch rules in a
// speculation-rules script; invalid JSON has none, as browsers ignore it.
func speculationPrefetches(js string) int {
	var rules struct {
		Prefetch []json.RawMessage `json:"prefetch"`
	}
	if json.Unmarshal([]byte(js), &rules) != nil {
		return 0
	}
	return len(rules.Prefetch)
}

var (
	phoneRe = regexp.MustCompile(`(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}`)
	nonDig  = regexp.MustCompile(`\D`)
)

func digits(s string) string {
	d := nonDig.ReplaceAllString(s, "")
	if len(d) == 11 && d[0] == '1' {
		return d[1:]
	}
	return d
}

// CheckNAP: the page text shows the business phone and address.
func CheckNAP(d *Doc, c Context) result {
	txt := VisibleText(d)
	want := digits(c.Phone)
	phoneOK := false
	if len(want) == 10 {
		for _, p := range phoneRe.FindAllString(txt, -1) {
			phoneOK = phoneOK || digits(p) == want
		}
	}
	lower := strings.ToLower(txt)
	var parts, missing []string
	for _, p := range []string{c.Street, c.City, c.Zip} {
		if strings.TrimSpace(p) == "" {
			continue
		}
		parts = append(parts, p)
		if !strings.Contains(lower, strings.ToLower(squash(p))) {
			missing = append(missing, p)
		}
	}
	addressOK := len(parts) > 0 && len(missing) == 0
	if phoneOK && addressOK {
		return pass(fmt.Sprintf("Shows the phone %s and the address (%s).", c.Phone, strings.Join(parts, ", ")))
	}
	var lacks []string
	if !phoneOK {
		p := c.Phone
		if p == "" {
			p = "(not configured)"
		}
		lacks = append(lacks, "the phone "+p)
	}
	if !addressOK {
		m := strings.Join(missing, ", ")
		if m == "" {
			m = "not configured"
		}
		lacks = append(lacks, "the address ("+m+")")
	}
	return fail("The page text does not show "+strings.Join(lacks, " and ")+".", "Show the same name, address and phone as the business profile (footer or contact block).")
}

// ---------------------------------------------------------------- audit

// rule is one check of the audit, in the order the screen lists them.
type rule struct {
	category, check, priority string
	run                       func(*Doc, Context) result
}

// Rules are the server audit's checks: the SEO Verification audit of
// spec 5 (the page rules, resource hints and NAP), with the compliance
// audit's stricter viewport rule. Priorities follow the Implementation
// Guide: P0 decides whether a page can rank at all.
var rules = []rule{
	{"Meta Tags", "Title tag", "P0", func(d *Doc, _ Context) result { return CheckTitle(d) }},
	{"Meta Tags", "Meta description", "P0", func(d *Doc, _ Context) result { return CheckMetaDescription(d) }},
	{"Meta Tags", "Canonical URL", "P1", func(d *Doc, _ Context) result { return CheckCanonical(d) }},
	{"Content", "H1 heading", "P0", func(d *Doc, _ Context) result { return CheckH1(d) }},
	{"Content", "H2 headings", "P2", func(d *Doc, _ Context) result { return CheckH2(d) }},
	{"Images", "Image alt text", "P1", func(d *Doc, _ Context) result { return CheckImageAlt(d) }},
	{"Structured Data", "LocalBusiness structured data", "P0", func(d *Doc, _ Context) result { return CheckStructuredData(d) }},
	{"Mobile", "Viewport", "P0", func(d *Doc, _ Context) result { return CheckViewport(d) }},
	{"Security", "HTTPS", "P0", func(_ *Doc, c Context) result { return CheckHTTPS(c) }},
	{"Content", "Content length", "P2", func(d *Doc, _ Context) result { return CheckContentLength(d) }},
	{"Links", "Internal links", "P2", CheckInternalLinks},
	{"Performance", "Resource hints", "P2", func(d *Doc, _ Context) result { return CheckResourceHints(d) }},
	{"Local SEO", "Business phone and address (NAP)", "P1", CheckNAP},
}

// CheckNames lists the audit's checks in order.
func CheckNames() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.check
	}
	return out
}

// AuditDoc runs every rule on a parsed page.
func AuditDoc(d *Doc, c Context) []Check {
	out := make([]Check, 0, len(rules))
	for _, r := range rules {
		res := r.run(d, c)
		ch := Check{Category: r.category, Check: r.check, Priority: r.priority, Status: res.status, Message: res.message}
		if res.status != Pass {
			ch.Fix = res.fix
		}
		out = append(out, ch)
	}
	return out
}

// AuditHTML parses a page and runs every rule on it.
func AuditHTML(b []byte, c Context) ([]Check, error) {
	d, err := Parse(b)
	if err != nil {
		return nil, err
	}
	return AuditDoc(d, c), nil
}

// Counts are the checks by status.
type Counts struct {
	Passed   int `json:"passed"`
	Warnings int `json:"warnings"`
	Failed   int `json:"failed"`
}

// Total is the number of checks counted.
func (c Counts) Total() int { return c.Passed + c.Warnings + c.Failed }

// Count tallies checks by status.
func Count(checks []Check) Counts {
	var c Counts
	for _, ch := range checks {
		switch ch.Status {
		case Pass:
			c.Passed++
		case Warning:
			c.Warnings++
		default:
			c.Failed++
		}
	}
	return c
}

// Score is the verification and dashboard audit score: the percentage
// of passing checks, rounded (0 when there is nothing to score).
func Score(c Counts) int {
	if c.Total() == 0 {
		return 0
	}
	return int(math.Round(float64(c.Passed) / float64(c.Total()) * 100))
}

// ComplianceScore is (compliant + 0.7 × warnings) / total as a
// percentage, clamped to 0-100.
func ComplianceScore(c Counts) int {
	if c.Total() == 0 {
		return 0
	}
	s := math.Round((float64(c.Passed) + WarningWeight*float64(c.Warnings)) / float64(c.Total()) * 100)
	return int(math.Max(0, math.Min(100, s)))
}

// ComplianceStatus is the compliance audit's word for a check's outcome
// (spec 4: compliant, warning, non-compliant).
type ComplianceStatus string

// The compliance audit's statuses.
const (
	Compliant    ComplianceStatus = "compliant"
	NotCompliant ComplianceStatus = "non-compliant"
)

// ComplianceCheck is one check of the SEO Compliance audit.
type ComplianceCheck struct {
	Category string           `json:"category"`
	Check    string           `json:"check"`
	Status   ComplianceStatus `json:"status" tstype:"'compliant' | 'warning' | 'non-compliant'"`
	Message  string           `json:"message"`
	Priority string           `json:"priority"`
	Fix      string           `json:"fix,omitempty"`
}

// verificationOnly are the checks spec 2.4's compliance audit does not
// list (it checks title, meta description, canonical, H1, LocalBusiness
// structured data, viewport, image alt text, HTTPS, content length and
// internal links; the verification audit adds these).
var verificationOnly = map[string]bool{"H2 headings": true, "Resource hints": true, "Business phone and address (NAP)": true}

// Compliance is the SEO Compliance audit of a page's checks, and its
// score (spec 5: (compliant + 0.7 × warnings) / total).
func Compliance(checks []Check) ([]ComplianceCheck, int) {
	out := []ComplianceCheck{}
	var c Counts
	for _, ch := range checks {
		if verificationOnly[ch.Check] {
			continue
		}
		st := Compliant
		switch ch.Status {
		case Warning:
			st, c.Warnings = ComplianceStatus(Warning), c.Warnings+1
		case Fail:
			st, c.Failed = NotCompliant, c.Failed+1
		default:
			c.Passed++
		}
		out = append(out, ComplianceCheck{Category: ch.Category, Check: ch.Check, Status: st, Message: ch.Message, Priority: ch.Priority, Fix: ch.Fix})
	}
	return out, ComplianceScore(c)
}

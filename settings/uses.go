package settings

import (
	"html"
	"regexp"
	"sort"
	"strings"

	"github.com/atlanta-restoration/site/config"
)

// Where the phone numbers appear (ADR 039): before a save, System
// Settings shows the owner every place that shows each number, counted in
// the pages the site serves, so a change can be judged before it is made
// and checked after.

// RenderedPage is one public page as the site serves it.
type RenderedPage struct {
	Path string
	// Kind names the page's kind for people ("City pages").
	Kind string
	HTML []byte
}

// KindUse counts one number on the pages of one kind.
type KindUse struct {
	Kind string `json:"kind"`
	// Pages is how many pages of the kind show the number; Example is one.
	Pages   int    `json:"pages"`
	Example string `json:"example"`
	// Links are tel: links that dial it; Texts the times it is written in
	// the visible text; StructuredData the JSON-LD telephone fields.
	Links          int `json:"links"`
	Texts          int `json:"texts"`
	StructuredData int `json:"structuredData"`
}

// NumberUses is where one number appears.
type NumberUses struct {
	// Which is "line" (the 24/7 line) or "office".
	Which  string    `json:"which" tstype:"'line' | 'office'"`
	Number string    `json:"number"`
	Kinds  []KindUse `json:"kinds"`
	// Pages, Links, Texts and StructuredData are the totals.
	Pages          int `json:"pages"`
	Links          int `json:"links"`
	Texts          int `json:"texts"`
	StructuredData int `json:"structuredData"`
	// Elsewhere are the places outside the pages that use the number.
	Elsewhere []string `json:"elsewhere"`
}

// OtherNumber is a phone number a page shows that is neither of the
// settings' numbers (typed into content, for example): a save does not
// change it.
type OtherNumber struct {
	Number string   `json:"number"`
	Paths  []string `json:"paths"`
}

// PhoneUses is the answer of where the numbers appear.
type PhoneUses struct {
	// Scanned is how many pages were read.
	Scanned int           `json:"scanned"`
	Numbers []NumberUses  `json:"numbers"`
	Others  []OtherNumber `json:"others"`
}

// elsewhere are the places outside the pages that show the 24/7 line
// (PhoneFor's other places).
var elsewhere = []string{
	"The acknowledgement email a homeowner gets after sending the estimate form",
	"The estimate form's messages (\"call us\" when a request cannot be sent)",
	"The offline page shown when a visitor loses signal",
}

var (
	telHrefRE = regexp.MustCompile(`href="tel:([^"]*)"`)
	scriptRE  = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	styleRE   = regexp.MustCompile(`(?is)<style\b[^>]*>.*?</style>`)
	tagRE     = regexp.MustCompile(`(?s)<[^>]*>`)
	// phoneRE finds a US number written for people: (770) 555-0134,
	// 770-555-0134, 770.555.0134, +1 770 555 0134.
	phoneRE     = regexp.MustCompile(`(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}\b`)
	telephoneRE = regexp.MustCompile(`"telephone"\s*:\s*"([^"]*)"`)
)

// pageCount is what one page shows of each number (by digits).
type pageCount struct {
	links, texts, data map[string]int
}

func countPage(doc []byte) pageCount {
	pc := pageCount{links: map[string]int{}, texts: map[string]int{}, data: map[string]int{}}
	s := string(doc)
	for _, m := range telHrefRE.FindAllStringSubmatch(s, -1) {
		pc.links[config.PhoneDigits(html.UnescapeString(m[1]))]++
	}
	for _, m := range scriptRE.FindAllStringSubmatch(s, -1) {
		if strings.Contains(m[1], "application/ld+json") {
			for _, t := range telephoneRE.FindAllStringSubmatch(m[2], -1) {
				pc.data[config.PhoneDigits(t[1])]++
			}
		}
	}
	// The visible text: no scripts (props, JSON-LD), styles or tags.
	body := s
	if i := strings.Index(strings.ToLower(body), "<body"); i >= 0 {
		body = body[i:]
	}
	text := html.UnescapeString(tagRE.ReplaceAllString(styleRE.ReplaceAllString(scriptRE.ReplaceAllString(body, " "), " "), " "))
	for _, m := range phoneRE.FindAllString(text, -1) {
		pc.texts[config.PhoneDigits(m)]++
	}
	return pc
}

// CountPhoneUses counts where the 24/7 line and the office number
// ("" for none) appear in pages, and lists any other number they show.
func CountPhoneUses(pages []RenderedPage, line, office string) PhoneUses {
	out := PhoneUses{Scanned: len(pages), Others: []OtherNumber{}}
	type num struct {
		which, number, digits string
	}
	nums := []num{{"line", line, config.PhoneDigits(line)}}
	if office != "" {
		nums = append(nums, num{"office", office, config.PhoneDigits(office)})
	}
	counts := make([]pageCount, len(pages))
	for i, p := range pages {
		counts[i] = countPage(p.HTML)
	}
	for _, n := range nums {
		u := NumberUses{Which: n.which, Number: n.number, Kinds: []KindUse{}, Elsewhere: []string{}}
		if n.which == "line" {
			u.Elsewhere = append(u.Elsewhere, elsewhere...)
		}
		byKind := map[string]*KindUse{}
		var order []string
		for i, p := range pages {
			c := counts[i]
			l, t, d := c.links[n.digits], c.texts[n.digits], c.data[n.digits]
			if l+t+d == 0 {
				continue
			}
			k := byKind[p.Kind]
			if k == nil {
				k = &KindUse{Kind: p.Kind, Example: p.Path}
				byKind[p.Kind] = k
				order = append(order, p.Kind)
			}
			k.Pages++
			k.Links += l
			k.Texts += t
			k.StructuredData += d
			u.Pages++
			u.Links += l
			u.Texts += t
			u.StructuredData += d
		}
		for _, k := range order {
			u.Kinds = append(u.Kinds, *byKind[k])
		}
		out.Numbers = append(out.Numbers, u)
	}
	others := map[string][]string{}
	for i, p := range pages {
		seen := map[string]bool{}
		for _, m := range []map[string]int{counts[i].links, counts[i].texts, counts[i].data} {
			for d := range m {
				known := len(d) != 10
				for _, n := range nums {
					known = known || d == n.digits
				}
				if !known && !seen[d] {
					seen[d] = true
					others[d] = append(others[d], p.Path)
				}
			}
		}
	}
	for d, paths := range others {
		if len(paths) > 5 {
			paths = paths[:5]
		}
		out.Others = append(out.Others, OtherNumber{Number: "(" + d[:3] + ") " + d[3:6] + "-" + d[6:], Paths: paths})
	}
	sort.Slice(out.Others, func(i, j int) bool { return out.Others[i].Number < out.Others[j].Number })
	return out
}

// kindNames name the route table's page kinds for people.
var kindNames = map[string]string{
	"home": "Home page", "services": "Services page", "service": "Service pages", "service-areas": "Service areas page",
	"county": "County pages", "city": "City pages", "blog": "Blog page", "blog-post": "Blog articles", "blog-category": "Blog topic pages", "estimate": "Estimate page",
	"portfolio": "Portfolio page", "contact": "Contact page", "emergency": "Emergency page", "info": "About, privacy and terms pages",
	"html-sitemap": "Site map page", "water-landing": "Water damage city pages", "city-profile": "City guide pages",
}

// KindName is a page kind's name for people ("City pages").
func KindName(kind string) string {
	if n, ok := kindNames[kind]; ok {
		return n
	}
	return "Other pages"
}

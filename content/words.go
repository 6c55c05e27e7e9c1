package content

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Words are the site's fixed wording that the owner may change (ADR 045):
// hero headlines and badges, the response-time claims, the trust figures,
// button labels, the estimate form's texts and the thank-you message.
// They are one record (kind "words", key "site"), grouped by where they
// appear: group key -> field key -> text. The catalogue
// (words-catalogue.json, also read by the admin's form) lists every group
// and field with its default, the spec's text; a record only overrides it.
//
// A text may name inserts, written {key}: the business facts from System
// Settings (company name, phone, office city and county, licence) and the
// values of the "values" groups (the response times and the trust
// figures), so a claim is written once and every text that names it
// agrees. Fill replaces them; the owner's screen shows them by name.
type Words map[string]map[string]string

// KindWords is the record kind of the site's wording; WordsKey its one
// record's key.
const (
	KindWords = "words"
	WordsKey  = "site"
)

//go:embed words-catalogue.json
var catalogueJSON []byte

// WordsCatalogue describes every group and field of the wording.
type WordsCatalogue struct {
	Inserts []WordsInsert `json:"inserts"`
	Groups  []WordsGroup  `json:"groups"`
}

// WordsInsert is a value a text may name: a business fact ("settings")
// or a field of a values group (its group's key).
type WordsInsert struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	From  string `json:"from"`
}

// WordsGroup is a group of texts shown together. Values groups hold the
// values other texts insert (they name no insert themselves). Pages are
// the page kinds whose props carry the group ("*": every page), so a
// change re-renders exactly the pages that show it.
type WordsGroup struct {
	Key    string       `json:"key"`
	Title  string       `json:"title"`
	Intro  string       `json:"intro,omitempty"`
	Values bool         `json:"values,omitempty"`
	Pages  []string     `json:"pages"`
	Fields []WordsField `json:"fields"`
}

// WordsField is one text: its default (the spec's) and where it appears.
type WordsField struct {
	Key     string   `json:"key"`
	Label   string   `json:"label"`
	Default string   `json:"default"`
	Hint    string   `json:"hint,omitempty"`
	Where   []string `json:"where,omitempty"`
}

// Catalogue is the wording's catalogue, read once from the embedded file.
var Catalogue = func() WordsCatalogue {
	var c WordsCatalogue
	dec := json.NewDecoder(strings.NewReader(string(catalogueJSON)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		panic(fmt.Sprintf("content: words-catalogue.json: %v", err)) // embedded and tested
	}
	return c
}()

// DefaultWords are every text's default, the spec's.
func DefaultWords() Words {
	w := Words{}
	for _, g := range Catalogue.Groups {
		w[g.Key] = map[string]string{}
		for _, f := range g.Fields {
			w[g.Key][f.Key] = f.Default
		}
	}
	return w
}

// withDefaults is w over the defaults: a field the record does not name
// (one added to the catalogue after the record was saved) keeps its
// default. Unknown groups and fields are kept for Check to report.
func (w Words) withDefaults() Words {
	out := DefaultWords()
	for g, fields := range w {
		if out[g] == nil {
			out[g] = map[string]string{}
		}
		for k, v := range fields {
			out[g][k] = v
		}
	}
	return out
}

// DecodeWords reads a words record's JSON over the defaults.
func DecodeWords(data []byte) (Words, error) {
	var w Words
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("words: %w", err)
	}
	return w.withDefaults(), nil
}

var insertRE = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// Facts are the business facts a text may insert, from System Settings.
type Facts struct {
	Name, Phone, City, County, License string
}

// Fill returns the groups a page kind shows with every insert replaced:
// the facts, the response times and the trust figures.
func (w Words) Fill(kind string, f Facts) Words {
	values := w.InsertValues(f)
	out := Words{}
	for _, g := range Catalogue.Groups {
		if !slices.Contains(g.Pages, "*") && !slices.Contains(g.Pages, kind) {
			continue
		}
		out[g.Key] = map[string]string{}
		for _, fd := range g.Fields {
			out[g.Key][fd.Key] = FillText(w[g.Key][fd.Key], values)
		}
	}
	return out
}

// InsertValues are what each insert stands for: the facts, the response
// times and the trust figures.
func (w Words) InsertValues(f Facts) map[string]string {
	values := map[string]string{"name": f.Name, "phone": f.Phone, "city": f.City, "county": f.County, "license": f.License}
	for _, in := range Catalogue.Inserts {
		if in.From != "settings" {
			values[in.Key] = w[in.From][in.Key]
		}
	}
	return values
}

// FillText replaces each {key} of text that values names.
func FillText(text string, values map[string]string) string {
	return insertRE.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// insertKeys are the keys a text may name.
func insertKeys() map[string]bool {
	out := map[string]bool{}
	for _, in := range Catalogue.Inserts {
		out[in.Key] = true
	}
	return out
}

// claimRE finds a response-time claim written in a record's own text
// ("on site within 60 minutes", "arrive within 15-60 minutes").
var claimRE = regexp.MustCompile(`(?i)\bwithin (\d+(?:-\d+)? (?:minutes|hours))\b`)

// mayClaim reports whether b holds "within" in any case, as claimRE
// needs: a byte scan, many times faster than the regexp's, so the rules
// of a folder of 2,000 cities run the regexp only on the few records that
// may state a time. (?i) folds these letters within ASCII only.
func mayClaim(b []byte) bool {
	for i := 0; i+6 <= len(b); i++ {
		if b[i]|0x20 == 'w' && bytes.EqualFold(b[i:i+6], []byte("within")) {
			return true
		}
	}
	return false
}

// claimKinds are the records whose prose states response times (FAQ
// answers, a service's text, the fixed city pages): the owner's own text,
// not the wording's, so a changed time cannot reach it.
var claimKinds = map[string]string{KindFAQ: "FAQs", KindService: "Service", KindCityProfile: "Fixed city page", KindCounty: "County", KindCity: "City"}

// checkClaims is guidance on the wording: a response time written in a
// record's own text that is none of the wording's response times (the
// owner changed one here and the FAQ still says the old one) makes the
// pages disagree, so it names where to change it too.
func (s *Set) checkClaims(c *checker) {
	times := map[string]bool{}
	for _, v := range s.Words["times"] {
		times[strings.ToLower(strings.TrimSpace(v))] = true
	}
	found := map[string][]string{}
	var order []string
	for _, r := range s.Records() {
		kind, ok := claimKinds[r.Kind]
		if !ok {
			continue
		}
		if !mayClaim(r.JSON) {
			continue
		}
		for _, m := range claimRE.FindAllStringSubmatch(string(r.JSON), -1) {
			claim := strings.ToLower(m[1])
			if times[claim] {
				continue
			}
			where := kind + " “" + recordName(r) + "”"
			if !slices.Contains(found[claim], where) {
				if found[claim] == nil {
					order = append(order, claim)
				}
				found[claim] = append(found[claim], where)
			}
		}
	}
	for _, claim := range order {
		c.need(false, KindWords, WordsKey, "", false, "None of the response times is %q, but these texts still say it: %s. Change them too, so the pages agree", claim, strings.Join(found[claim], ", "))
	}
}

// faqNames name the FAQ blocks as the editor lists them.
var faqNames = map[string]string{"home": "Home page FAQ", "homeDescriptions": "Home page: services we provide", "services": "Services page FAQ"}

// recordName is a record's name as the owner knows it.
func recordName(r Record) string {
	if n, ok := faqNames[r.Slug]; ok && r.Kind == KindFAQ {
		return n
	}
	var m map[string]any
	if json.Unmarshal(r.JSON, &m) == nil {
		for _, k := range []string{"title", "name", "cityName", "city"} {
			if v, ok := m[k].(string); ok && v != "" {
				return v
			}
		}
	}
	return r.Slug
}

// checkWords reports what would make the pages read wrong: an unknown
// group or field (nothing would show it), an empty text, an insert that
// does not exist (the page would show its code), or a response time or
// figure that itself names an insert. Long texts are guidance.
func (c *checker) checkWords(w Words) {
	k, slug := KindWords, WordsKey
	known := insertKeys()
	groups := map[string]WordsGroup{}
	for _, g := range Catalogue.Groups {
		groups[g.Key] = g
	}
	for _, gk := range sortedKeys(w) {
		g, ok := groups[gk]
		if !ok {
			c.need(false, k, slug, gk, true, "is not a group of the site's wording")
			continue
		}
		fields := map[string]bool{}
		for _, f := range g.Fields {
			fields[f.Key] = true
		}
		for _, fk := range sortedKeys(w[gk]) {
			field, text := gk+"."+fk, w[gk][fk]
			if !fields[fk] {
				c.need(false, k, slug, field, true, "is not a text of this group")
				continue
			}
			c.need(strings.TrimSpace(text) != "", k, slug, field, true, "is empty")
			c.need(len([]rune(text)) <= 400, k, slug, field, false, "is %d characters; keep it under 400", len([]rune(text)))
			for _, m := range insertRE.FindAllStringSubmatch(text, -1) {
				if g.Values {
					c.need(false, k, slug, field, true, "cannot contain an insert: it is itself inserted into other texts")
					break
				}
				c.need(known[m[1]], k, slug, field, true, "has text in curly brackets that is not one of the inserts")
			}
		}
	}
}

package content

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var office = Facts{Name: "Atlanta Restoration Pros", Phone: "(770) 555-0134", City: "Douglasville", County: "Douglas", License: "RBQA006428"}

// The defaults are the spec's texts (spec 1, 2.2, 2.3), filled in as the
// pages show them with the spec's office (Douglasville, Douglas County).
func TestWordsDefaultsAreTheSpecs(t *testing.T) {
	want := map[string]string{
		// Spec 1's response-time claims, each written once.
		"times.emergency": "60 minutes",
		"times.water":     "60-90 minutes",
		"times.areas":     "15-60 minutes",
		"times.buckhead":  "45 minutes",
		"times.general":   "2 hours",
		"times.visit":     "Same or next day",
		// Spec 1's claims and 2.3's trust section.
		"figures.years":        "20+",
		"figures.projects":     "1000+",
		"figures.satisfaction": "99%",
		"figures.counties":     "11+",
		// Spec 2.3's home hero (city variant) and 2.2's menu button.
		"home.headline":    "Water, Fire & Storm Restoration in Douglasville, Douglas County",
		"home.badge":       "Serving Douglasville, Douglas County",
		"home.claim":       "24/7 emergency response within 60 minutes.",
		"home.callButton":  "Call Now for Emergency Help",
		"home.point1":      "20+ Years in Business",
		"home.point2":      "1000+ Projects",
		"home.point3":      "99% Customer Satisfaction",
		"buttons.quote":    "GET A QUOTE",
		"buttons.estimate": "Get Free Estimate",
		"buttons.call":     "Call (770) 555-0134",
		"trust.title":      "Trusted Across Metro Atlanta",
		"trust.years":      "Years Experience",
		"trust.projects":   "Projects Completed",
		"trust.counties":   "Metro Counties",
		"trust.badge":      "24/7 Emergency · Response within 60 minutes",
		// Spec 2.3's contact promise and 8's "contact within 60 minutes;
		// general inquiries within 2 hours", in the thank-you message.
		"form.submit":        "Request My Free Estimate",
		"form.thanksTitle":   "Thank you! Your estimate request was received.",
		"form.thanks":        "Our team will contact you within 60 minutes for emergencies and within 2 hours for general inquiries. For immediate help call (770) 555-0134.",
		"form.required":      "* Required. For emergencies call (770) 555-0134 now.",
		"contact.headline":   "Contact Us",
		"contact.promise":    "Our promise: we contact you within 60 minutes for emergencies and within 2 hours for general inquiries.",
		"portfolio.headline": "Our Work Portfolio",
		"services.badge":     "Serving 11+ metro Atlanta counties",
		"water.headline":     "Water Damage Restoration & Cleanup in Atlanta",
		"water.trustBadge":   "24/7 Emergency · Crews arrive in 60-90 minutes",
		"estimate.headline":  "Get Your Free Estimate",
	}
	got := map[string]string{}
	w := DefaultWords()
	for _, g := range Catalogue.Groups {
		for _, f := range g.Fields {
			got[g.Key+"."+f.Key] = FillText(w[g.Key][f.Key], w.InsertValues(office))
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	// Every default passes the rules, and names only inserts that exist.
	c := &checker{}
	c.checkWords(w)
	if len(c.out) != 0 {
		t.Errorf("defaults have problems: %v", c.out)
	}
	for k, v := range got {
		if insertRE.MatchString(v) {
			t.Errorf("%s still shows an insert after filling: %q", k, v)
		}
	}
}

// A page gets exactly the groups the catalogue lists for its kind, filled.
func TestWordsFillPerPage(t *testing.T) {
	w := DefaultWords()
	w["times"]["emergency"] = "45 minutes"
	home := w.Fill("home", office)
	if got, want := home["home"]["claim"], "24/7 emergency response within 45 minutes."; got != want {
		t.Errorf("home claim = %q, want %q", got, want)
	}
	if !strings.Contains(home["form"]["thanks"], "within 45 minutes for emergencies") {
		t.Errorf("the thank-you message does not follow the emergency time: %q", home["form"]["thanks"])
	}
	keys := func(w Words) []string { return sortedKeys(w) }
	for kind, want := range map[string][]string{
		"home":      {"buttons", "figures", "form", "home", "times", "trust"},
		"blog-post": {"buttons"},
		"":          {"buttons"},
		"estimate":  {"buttons", "estimate", "form", "times"},
		"county":    {"buttons", "jobs", "times"},
		"services":  {"buttons", "services"},
	} {
		if diff := cmp.Diff(want, keys(w.Fill(kind, office))); diff != "" {
			t.Errorf("groups of %q (-want +got):\n%s", kind, diff)
		}
	}
}

// The rules refuse what would make a page read wrong.
func TestWordsCheck(t *testing.T) {
	for _, c := range []struct {
		name, group, key, text, field, message string
		hard                                   bool
	}{
		{"empty", "home", "headline", "  ", "home.headline", "is empty", true},
		{"unknown insert", "home", "headline", "Serving {town}", "home.headline", "has text in curly brackets that is not one of the inserts", true},
		{"insert in a value", "times", "emergency", "{water}", "times.emergency", "cannot contain an insert: it is itself inserted into other texts", true},
		{"unknown field", "home", "tagline", "x", "home.tagline", "is not a text of this group", true},
		{"unknown group", "footer", "x", "x", "footer", "is not a group of the site's wording", true},
		{"long", "home", "headline", strings.Repeat("a", 401), "home.headline", "is 401 characters; keep it under 400", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := DefaultWords()
			if w[c.group] == nil {
				w[c.group] = map[string]string{}
			}
			w[c.group][c.key] = c.text
			ck := &checker{}
			ck.checkWords(w)
			want := []Problem{{Kind: KindWords, Slug: WordsKey, Field: c.field, Message: c.message, Hard: c.hard}}
			if diff := cmp.Diff(want, ck.out); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// A stored record round-trips; a field it lacks (added to the catalogue
// later) keeps its default.
func TestWordsRecord(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rs := s.Records()
	rs = replace(t, rs, KindWords, WordsKey, func(m map[string]any) {
		m["home"].(map[string]any)["headline"] = "Restoration you can count on"
		delete(m["buttons"].(map[string]any), "quote")
	})
	back, problems, err := FromRecords(rs, s.Updated)
	if err != nil || len(HardProblems(problems)) != 0 {
		t.Fatalf("FromRecords: %v %v", err, problems)
	}
	if got := back.Words["home"]["headline"]; got != "Restoration you can count on" {
		t.Errorf("headline = %q", got)
	}
	if got := back.Words["buttons"]["quote"]; got != "GET A QUOTE" {
		t.Errorf("a missing field = %q, want its default", got)
	}
	if _, err := Decode(KindWords, WordsKey, []byte(`{"home": "not a group"}`)); err == nil {
		t.Error("a group that is not an object was read")
	}
	b, _ := json.Marshal(back.Words)
	again, err := Decode(KindWords, WordsKey, b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(back.Words, *again.(*Words)); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// A response time changed in the wording but still written in a record's
// own text is named, as guidance, so the owner changes it there too.
func TestWordsClaimsElsewhere(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Check() {
		if p.Kind == KindWords {
			t.Errorf("the defaults agree with the content, yet: %v", p)
		}
	}
	s.Words["times"]["emergency"] = "45 minutes"
	var got []Problem
	for _, p := range s.Check() {
		if p.Kind == KindWords {
			got = append(got, p)
		}
	}
	if len(got) != 1 || got[0].Hard || got[0].Field != "" ||
		!strings.Contains(got[0].Message, `None of the response times is "60 minutes", but these texts still say it: FAQs “Home page FAQ”`) {
		t.Errorf("problems: %v", got)
	}
}

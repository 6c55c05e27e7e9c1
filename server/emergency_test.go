package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// localBusinessLD returns the LocalBusiness node of a page's JSON-LD.
func localBusinessLD(t *testing.T, doc *html.Node) map[string]any {
	t.Helper()
	for _, b := range jsonLDBlocks(t, doc) {
		graph, _ := b["@graph"].([]any)
		for _, n := range graph {
			m, _ := n.(map[string]any)
			if types, _ := m["@type"].([]any); len(types) > 0 && types[0] == "LocalBusiness" {
				return m
			}
		}
	}
	t.Fatal("no LocalBusiness in the JSON-LD")
	return nil
}

// byClass returns the text of every element whose class list has class.
func byClass(doc *html.Node, class string) []string {
	var out []string
	for _, n := range find(doc, func(n *html.Node) bool {
		return strings.Contains(" "+attr(n, "class")+" ", " "+class+" ")
	}) {
		out = append(out, text(n))
	}
	return out
}

func saveSettings(t *testing.T, h http.Handler, tok string, over map[string]any) *response {
	t.Helper()
	st := map[string]any{"businessName": "Peach State Restoration", "phone": "(404) 555-0177", "address": "100 Main St, Marietta, GA 30060",
		"website": "https://www.peachstate.example", "officePhone": "(404) 555-0199", "autoIndexNow": false, "seoMonitoring": false,
		"autoSchema": true, "emergencyMode": true, "businessHours": "Mo-Fr 08:00-18:00; Sa 09:00-13:00"}
	for k, v := range over {
		st[k] = v
	}
	return jsonReq(t, h, "PUT", "/api/admin/settings", tok, st)
}

// TestEmergencyModeToggle: off, the chrome and the call buttons say "Call
// us" with the business hours and dial the business phone, and the
// LocalBusiness opening hours are the business hours; on again, the 24/7
// bar dials the emergency phone and the structured data says open 24/7.
func TestEmergencyModeToggle(t *testing.T) {
	srv, store := adminServer(t, nil)
	h := srv.Handler()
	tok := settingsAdmin(t, srv, store)
	const hoursText = "Mon–Fri 8:00 AM–6:00 PM; Sat 9:00 AM–1:00 PM"
	paths := []string{"/", "/services/water-damage-restoration"}

	// Default: 24/7, open around the clock.
	for _, p := range paths {
		doc := get(t, h, p).Doc
		if bar := byClass(doc, "bluebar__emergency"); len(bar) != 1 || !strings.HasPrefix(bar[0], "24/7 Emergency: ") {
			t.Errorf("%s: default emergency bar %q", p, bar)
		}
		if lb := localBusinessLD(t, doc); lb["openingHours"] != "Mo-Su 00:00-23:59" {
			t.Errorf("%s: default openingHours %v", p, lb["openingHours"])
		}
	}

	if r := saveSettings(t, h, tok, map[string]any{"emergencyMode": false}); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	for _, p := range paths {
		res := get(t, h, p)
		doc := res.Doc
		txt := text(bodyOf(doc))
		bar := byClass(doc, "bluebar__emergency")
		if len(bar) != 1 || bar[0] != "Call us: (404) 555-0177 · "+hoursText {
			t.Errorf("%s: bar %q", p, bar)
		}
		for _, b := range byClass(doc, "emergency-banner") {
			if strings.Contains(b, "24/7") || strings.Contains(b, "24 hours") || !strings.Contains(b, "Call us") || !strings.Contains(b, hoursText) {
				t.Errorf("%s: emergency banner %q", p, b)
			}
		}
		for _, cls := range []string{"bluebar", "hero", "page-hero", "quote__side", "svc-side", "svc-trust", "trust-badges", "badge-card", "help-card", "faq__call", "footer"} {
			for _, s := range byClass(doc, cls) {
				if strings.Contains(s, "24/7") || strings.Contains(s, "day or night") {
					t.Errorf("%s: .%s still promises 24/7: %q", p, cls, s)
				}
			}
		}
		if !strings.Contains(txt, "Call us") || !strings.Contains(txt, hoursText) {
			t.Errorf("%s: no 'Call us' with the hours", p)
		}
		if strings.Contains(res.Body, "tel:+14045550199") || strings.Contains(txt, "(404) 555-0199") {
			t.Errorf("%s: the office number is dialled outside the contact page", p)
		}
		lb := localBusinessLD(t, doc)
		if got, _ := json.Marshal(lb["openingHours"]); string(got) != `["Mo-Fr 08:00-18:00","Sa 09:00-13:00"]` {
			t.Errorf("%s: openingHours %s", p, got)
		}
		spec, _ := lb["openingHoursSpecification"].([]any)
		if len(spec) != 2 {
			t.Errorf("%s: openingHoursSpecification %v", p, lb["openingHoursSpecification"])
		}
		if strings.Contains(lb["description"].(string), "24/7") {
			t.Errorf("%s: LocalBusiness description still says 24/7", p)
		}
	}
	// The contact page's availability card shows the hours.
	if c := byClass(get(t, h, "/contact").Doc, "contact-cards"); len(c) != 1 || !strings.Contains(c[0], hoursText) || strings.Contains(c[0], "24 hours a day") {
		t.Errorf("contact cards: %q", c)
	}

	// Back on: the 24/7 bar dials the one 24/7 line, as every other call
	// link does (ADR 039); the office number is the contact page's only.
	// Open around the clock.
	if r := saveSettings(t, h, tok, map[string]any{"emergencyMode": true}); r.StatusCode != 200 {
		t.Fatalf("save: %d %s", r.StatusCode, r.Body)
	}
	for _, p := range paths {
		res := get(t, h, p)
		if bar := byClass(res.Doc, "bluebar__emergency"); len(bar) != 1 || bar[0] != "24/7 Emergency: (404) 555-0177" {
			t.Errorf("%s: bar after switching back %q", p, bar)
		}
		if !strings.Contains(res.Body, `class="bluebar__emergency" href="tel:+14045550177"`) && !strings.Contains(res.Body, `href="tel:+14045550177" class="bluebar__emergency"`) {
			t.Errorf("%s: the 24/7 bar does not dial the 24/7 line", p)
		}
		if strings.Contains(res.Body, "5550199") || strings.Contains(res.Body, "555-0199") {
			t.Errorf("%s: the office number is shown outside the contact page", p)
		}
		if tb := byClass(res.Doc, "topbar"); len(tb) != 1 || !strings.Contains(tb[0], "(404) 555-0177") {
			t.Errorf("%s: top bar should show the 24/7 line: %q", p, tb)
		}
		lb := localBusinessLD(t, res.Doc)
		if lb["openingHours"] != "Mo-Su 00:00-23:59" {
			t.Errorf("%s: openingHours after switching back %v", p, lb["openingHours"])
		}
		if !strings.Contains(lb["telephone"].(string), "404-555-0177") {
			t.Errorf("%s: LocalBusiness telephone %v", p, lb["telephone"])
		}
	}
}

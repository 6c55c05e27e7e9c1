package analytics

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

func TestCleanText(t *testing.T) {
	long := "a" + strings.Repeat("é", 150)
	for _, c := range []struct{ in, want string }{
		{"newsletter", "newsletter"},
		{"  spring  sale\t2026 ", "spring sale 2026"},
		{"news\x00letter", "newsletter"},
		{"news\u202eletter", "newsletter"},                         // right-to-left override
		{"zero\u200bwidth\ufeff", "zerowidth"},                     // zero-width space, BOM
		{"bell\x07\x1b[31mred", "bell[31mred"},                     // control characters
		{"priv\ue000ate\U0010fffd", "private"},                     // private use
		{"\xff\xfebad", ""},                                        // invalid UTF-8: unreadable
		{"caf\xc3", ""},                                            // a character cut in half
		{"Café Atlanta ☔", "Café Atlanta ☔"},                       // printable text stays
		{"<script>alert(1)</script>", "<script>alert(1)</script>"}, // text, escaped where shown
		{long, "a" + strings.Repeat("é", MaxUTM-1)},
	} {
		got := CleanText(c.in, MaxUTM)
		if got != c.want {
			t.Errorf("CleanText(%q) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > MaxUTM || strings.ContainsRune(got, 0) {
			t.Errorf("CleanText(%q) = %q is not storable text", c.in, got)
		}
	}
	// Every printable rune survives, everything else goes, at any length.
	for r := rune(0); r < 0x11000; r += 7 {
		s := CleanText(strings.Repeat(string(r), 3), 2)
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > 2 {
			t.Fatalf("rune %U: %q", r, s)
		}
		for _, x := range s {
			if !unicode.IsGraphic(x) && x != ' ' {
				t.Fatalf("rune %U kept", x)
			}
		}
	}
}

func TestRefHost(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.Google.com/search?q=water+damage":  "www.google.com",
		"https://xn--caf-dma.example/":                  "xn--caf-dma.example",
		"http://192.0.2.1:8080/x":                       "192.0.2.1",
		"http://[2001:db8::1]/":                         "2001:db8::1",
		"android-app://com.google.android.gm/":          "com.google.android.gm",
		"":                                              "",
		"not a url":                                     "",
		"https://evil\u202e.example/":                   "",
		"https://exa_mple.com/":                         "",
		"https://" + strings.Repeat("a", 300) + ".com/": "",
		"https://%00.example/":                          "",
		"https://ex%41mple.com/":                        "",
		"https://-bad-.example/":                        "",
	} {
		if got := RefHost(in); got != want {
			t.Errorf("RefHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBeaconPath(t *testing.T) {
	for in, want := range map[string]string{
		"/": "/", "/services": "/services", "/services/": "/services", "/services?utm_source=x": "/services",
		"/areas/cobb/smyrna#faq": "/areas/cobb/smyrna", "/%73ervices": "/services",
		"//evil.example/x": "", "/%2e%2e/admin/leads": "", "/admin": "", "/admin/leads": "", "javascript:alert(1)": "",
		"services": "", "": "", "/" + strings.Repeat("a", MaxPath): "", "/a/../admin": "", "/a/./b": "",
	} {
		got, ok := BeaconPath(in)
		if ok != (want != "") || got != want {
			t.Errorf("BeaconPath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestNetwork(t *testing.T) {
	for in, want := range map[string]string{
		"198.51.100.7": "198.51.100.7", "::ffff:198.51.100.7": "198.51.100.7",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64", "2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"2001:db8:1:3::1": "2001:db8:1:3::/64", "fe80::1%eth0": "fe80::/64", "not-an-ip": "not-an-ip",
	} {
		if got := Network(in); got != want {
			t.Errorf("Network(%q) = %q, want %q", in, got, want)
		}
	}
}

var testIntake = &Intake{
	Pages: map[string]string{"/": "home", "/services": "services", "/areas/cobb/smyrna": "city"},
	Places: func() *Places {
		p := NewPlaces()
		p.Add("cobb/smyrna", "Smyrna, Cobb County", "Smyrna", "/areas/cobb/smyrna")
		return p
	}(),
	SiteHost: "www.example-restoration.test",
}

// What each beacon becomes: page views only of pages the site serves,
// the rest a not-found view with no path; vitals only plausible and of a
// served page; every text field clean.
func TestIntakeEvent(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	type out struct{ Kind, Path, PageKind, Source, Referrer, UTMSource, UTMCampaign, Area, Metric string }
	for _, c := range []struct {
		name string
		b    Beacon
		want *out
	}{
		{"page", Beacon{Type: "pageview", Path: "/services/", Referrer: "https://www.google.com/search?q=x"},
			&out{Kind: "pageview", Path: "/services", Source: SourceOrganic, Referrer: "www.google.com"}},
		{"area page", Beacon{Type: "pageview", Path: "/areas/cobb/smyrna"}, &out{Kind: "pageview", Path: "/areas/cobb/smyrna", Source: SourceDirect, Area: "cobb/smyrna"}},
		{"not served", Beacon{Type: "pageview", Path: "/call-404-555-0199-for-cheaper-repairs", Referrer: "https://spam.example/", UTMSource: "spam"}, &out{Kind: "not_found"}},
		{"pattern without a page", Beacon{Type: "pageview", Path: "/areas/cobb/nowhere"}, &out{Kind: "not_found"}},
		{"hostile utm", Beacon{Type: "pageview", Path: "/", UTMSource: "g\x00oogle", UTMCampaign: "a" + strings.Repeat("é", 60) + "\u202e"},
			&out{Kind: "pageview", Path: "/", Source: SourceOrganic, UTMSource: "google", UTMCampaign: "a" + strings.Repeat("é", 60)}},
		{"hostile referrer", Beacon{Type: "pageview", Path: "/", Referrer: "https://bad\u202ehost.example/"}, &out{Kind: "pageview", Path: "/", Source: SourceDirect}},
		{"call on the not-found page", Beacon{Type: "tel_click", Path: "/nope"}, &out{Kind: "tel_click"}},
		{"call", Beacon{Type: "tel_click", Path: "/services"}, &out{Kind: "tel_click", Path: "/services"}},
		{"vital", Beacon{Type: "vital", Path: "/", Metric: "LCP", Value: 1800}, &out{Kind: "vital", Path: "/", PageKind: "home", Metric: "LCP"}},
		{"vital at the range's end", Beacon{Type: "vital", Path: "/", Metric: "LCP", Value: 60000}, &out{Kind: "vital", Path: "/", PageKind: "home", Metric: "LCP"}},
		{"LCP of two minutes", Beacon{Type: "vital", Path: "/", Metric: "LCP", Value: 119000}, nil},
		{"INP of 11 s", Beacon{Type: "vital", Path: "/", Metric: "INP", Value: 11000}, nil},
		{"CLS of 11", Beacon{Type: "vital", Path: "/", Metric: "CLS", Value: 11}, nil},
		{"negative", Beacon{Type: "vital", Path: "/", Metric: "TTFB", Value: -1}, nil},
		{"unknown metric", Beacon{Type: "vital", Path: "/", Metric: "FID", Value: 10}, nil},
		{"vital of a page not served", Beacon{Type: "vital", Path: "/nope", Metric: "LCP", Value: 10}, nil},
		{"unknown kind", Beacon{Type: "purchase", Path: "/"}, nil},
		{"not_found sent as a kind", Beacon{Type: "not_found", Path: "/"}, nil},
		{"lead sent as a kind", Beacon{Type: "lead", Path: "/"}, nil},
		{"admin", Beacon{Type: "pageview", Path: "/admin/leads"}, nil},
	} {
		e, ok := testIntake.Event(c.b, now)
		if (c.want != nil) != ok {
			t.Errorf("%s: ok %v", c.name, ok)
			continue
		}
		if !ok {
			continue
		}
		got := out{e.Kind, e.Path, e.PageKind, e.Source, e.Referrer, e.UTMSource, e.UTMCampaign, e.Area, e.Metric}
		if diff := cmp.Diff(*c.want, got); diff != "" {
			t.Errorf("%s (-want, +got):\n%s", c.name, diff)
		}
		if e.Day != "2026-11-20" || !e.At.Equal(now) {
			t.Errorf("%s: day %s at %v", c.name, e.Day, e.At)
		}
	}
}

func pv(day, visitor string) db.Event {
	return db.Event{Day: day, Kind: db.EventPageview, Path: "/", Visitor: visitor}
}

// One network's random user agents make at most MaxVisitorsPerNetwork
// visitors a day; each visitor at most MaxPageviewsPerVisitor page
// views; the limits start again the next day.
func TestBudgetVisitorsPerNetwork(t *testing.T) {
	b := NewBudget()
	admitted := map[string]int{}
	for i := 0; i < 1000; i++ {
		v := fmt.Sprintf("ua-%d", i%50)
		if b.Admit("198.51.100.1", pv("2026-11-20", v)) {
			admitted[v]++
		}
	}
	if len(admitted) != MaxVisitorsPerNetwork {
		t.Errorf("%d visitors admitted from one address, want %d", len(admitted), MaxVisitorsPerNetwork)
	}
	for v, n := range admitted {
		if n != 20 {
			t.Errorf("%s: %d page views admitted, want all 20", v, n)
		}
	}
	if b.Capped.Load() != 1000-20*MaxVisitorsPerNetwork {
		t.Errorf("capped %d", b.Capped.Load())
	}
	n := 0
	for i := 0; i < 2*MaxPageviewsPerVisitor; i++ {
		if b.Admit("198.51.100.2", pv("2026-11-20", "one")) {
			n++
		}
	}
	if n != MaxPageviewsPerVisitor {
		t.Errorf("%d page views of one visitor, want %d", n, MaxPageviewsPerVisitor)
	}
	// Another address is another client; the next day starts afresh.
	if !b.Admit("198.51.100.3", pv("2026-11-20", "ua-49")) || !b.Admit("198.51.100.1", pv("2026-11-21", "ua-49")) {
		t.Error("a new client or a new day refused")
	}
	// A beacon of the day before, still in flight at midnight.
	if b.Admit("198.51.100.9", pv("2026-11-20", "late")) {
		t.Error("yesterday's beacon counted after midnight")
	}
}

// An IPv6 client owns a /64: a thousand of its addresses, in parallel,
// are one network.
func TestBudgetIPv6AndParallel(t *testing.T) {
	b := NewBudget()
	var mu sync.Mutex
	visitors := map[string]bool{}
	var wg sync.WaitGroup
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ip := fmt.Sprintf("2001:db8:aa:bb:%x:%x::1", i, i*7)
			v := fmt.Sprintf("v%d", i)
			if b.Admit(Network(ip), pv("2026-11-20", v)) {
				mu.Lock()
				visitors[v] = true
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if len(visitors) != MaxVisitorsPerNetwork {
		t.Errorf("%d visitors from one /64, want %d", len(visitors), MaxVisitorsPerNetwork)
	}
}

// Not-found views, calls and form views are bounded per network,
// whatever the user agents; vitals per network and metric, and per
// visitor, page and metric; vitals of a visitor not counted are not.
func TestBudgetEventsAndVitals(t *testing.T) {
	b := NewBudget()
	count := func(net string, e db.Event, times int) int {
		n := 0
		for i := 0; i < times; i++ {
			e := e
			if e.Visitor == "" {
				e.Visitor = fmt.Sprintf("random-%d", i)
			}
			if b.Admit(net, e) {
				n++
			}
		}
		return n
	}
	day := "2026-11-20"
	if n := count("a", db.Event{Day: day, Kind: db.EventNotFound}, 500); n != MaxNotFoundPerNetwork {
		t.Errorf("not found: %d", n)
	}
	if n := count("a", db.Event{Day: day, Kind: db.EventTelClick}, 500); n != MaxActionsPerNetwork {
		t.Errorf("calls: %d", n)
	}
	if n := count("a", db.Event{Day: day, Kind: db.EventFormView}, 500); n != MaxActionsPerNetwork {
		t.Errorf("form views: %d", n)
	}
	if n := count("a", db.Event{Day: day, Kind: db.EventLead, Visitor: "x"}, 500); n != 500 {
		t.Errorf("leads are the estimate form's to limit: %d", n)
	}
	lcp := func(v, path string) db.Event {
		return db.Event{Day: day, Kind: db.EventVital, Visitor: v, Path: path, Metric: "LCP", Value: 59000}
	}
	if n := count("b", lcp("stranger", "/"), 5); n != 0 {
		t.Errorf("vitals of a visitor with no page view counted: %d", n)
	}
	b.Admit("b", pv(day, "p"))
	if n := count("b", lcp("p", "/"), 10); n != MaxVitalsPerPage {
		t.Errorf("LCPs of one page: %d", n)
	}
	n := 0
	for i := 0; i < 20; i++ {
		n += count("b", lcp("p", fmt.Sprintf("/page-%d", i)), 3)
	}
	if n != MaxVitalsPerNetwork-MaxVitalsPerPage {
		t.Errorf("LCPs of one network: %d more, want %d", n, MaxVitalsPerNetwork-MaxVitalsPerPage)
	}
	if !b.Admit("b", db.Event{Day: day, Kind: db.EventVital, Visitor: "p", Path: "/", Metric: "CLS", Value: 0.01}) {
		t.Error("another metric refused")
	}
}

// Memory is bounded: past MaxNetworksPerDay networks, new ones wait for
// the next day.
func TestBudgetNetworksPerDay(t *testing.T) {
	b := NewBudget()
	for i := 0; i < MaxNetworksPerDay; i++ {
		if !b.Admit(fmt.Sprint("n", i), pv("2026-11-20", "v")) {
			t.Fatalf("network %d refused", i)
		}
	}
	if b.Admit("one more", pv("2026-11-20", "v")) {
		t.Error("past the bound")
	}
	if !b.Admit("n1", pv("2026-11-20", "v")) {
		t.Error("a known network refused")
	}
}

// The visitors of a private or loopback address reaching the limit is
// reported once (a proxy the server does not know about).
func TestBudgetWarnsOfAProxy(t *testing.T) {
	b := NewBudget()
	got := make(chan string, 10)
	b.OnFull = func(n string, private bool) { got <- fmt.Sprintf("%s %v", n, private) }
	for i := 0; i < 30; i++ {
		b.Admit(Network("10.0.0.5"), pv("2026-11-20", fmt.Sprint(i)))
		b.Admit(Network("2001:db8::9"), pv("2026-11-20", fmt.Sprint(i)))
	}
	want := map[string]bool{"10.0.0.5 true": true, "2001:db8::/64 false": true}
	for i := 0; i < 2; i++ {
		select {
		case s := <-got:
			if !want[s] {
				t.Errorf("reported %q", s)
			}
			delete(want, s)
		case <-time.After(time.Second):
			t.Fatal("not reported")
		}
	}
	select {
	case s := <-got:
		t.Errorf("reported twice: %s", s)
	case <-time.After(50 * time.Millisecond):
	}
}

// BenchmarkIntakeAndBudget: what the checks of this file add to a beacon.
func BenchmarkIntakeAndBudget(b *testing.B) {
	bud := NewBudget()
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	beacon := Beacon{Type: "pageview", Path: "/services", Referrer: "https://www.google.com/search?q=x", UTMSource: "google", UTMMedium: "cpc", UTMCampaign: "spring sale", Width: 390}
	for i := 0; i < b.N; i++ {
		e, _ := testIntake.Event(beacon, now)
		e.Visitor = "v"
		bud.Admit(Network(fmt.Sprintf("198.51.%d.%d", i/250%250, i%250)), e)
	}
}

package analytics

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/analytics/analyticstest"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth/authtest"
)

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// randomText is printable and unprintable junk of up to n runes.
func randomText(r *rand.Rand, n int) string {
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz0123456789-_.%/é☔\u202e\u200b\u0007 <>\"'")
	var b strings.Builder
	for i := r.Intn(n + 1); i > 0; i-- {
		b.WriteRune(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// Analytics could be filled with junk: 5,000 beacons with
// random paths, referrers, UTM tags and user agents from 17 IPs were all
// stored, counted as 5,000 visitors, and an attacker's path became the
// top page. The same attack, in parallel, with paths the site serves
// mixed in, percent-encoded paths, and two of the 17 clients IPv6 /64s
// using a new address for every beacon: the real visitors still count,
// the attackers add at most their networks' daily limits, no attacker
// path is a page, the sources are the known ones and the figures agree.
func TestCollectJunkAttack(t *testing.T) {
	eachDB(t, func(t *testing.T, rm *room) {
		store := rm.store
		// 20 people, three pages each, from Google.
		for i := 0; i < 20; i++ {
			ip := fmt.Sprintf("198.51.100.%d", 100+i)
			for k, p := range []string{"/", "/services", "/contact"} {
				ref := ""
				if k == 0 {
					ref = "https://www.google.com/"
				}
				rm.rawBeacon(ip, browserUA, mustJSON(map[string]any{"t": "pageview", "p": p, "r": ref, "w": 1280}))
			}
		}
		served := make([]string, 0, len(rm.site.ServedPages()))
		for p := range rm.site.ServedPages() {
			served = append(served, p)
		}
		sort.Strings(served)
		const spam = "/call-404-555-0199-for-cheaper-repairs"
		var wg sync.WaitGroup
		jobs := make(chan int)
		for w := 0; w < 16; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				r := rand.New(rand.NewSource(int64(w)))
				for i := range jobs {
					c := i % 17
					ip := fmt.Sprintf("192.0.2.%d", 10+c)
					if c >= 15 {
						ip = fmt.Sprintf("2001:db8:%x::%x:%x", c, r.Intn(65536), i) // a new address of the same /64 every time
					}
					var p string
					switch r.Intn(5) {
					case 0:
						p = spam
					case 1:
						p = "/call-%34%30%34-555-0199-" + randomText(r, 8) // percent-encoded
					case 2, 3:
						p = "/" + randomText(r, 40)
					default:
						p = served[r.Intn(len(served))]
					}
					b := map[string]any{"t": "pageview", "p": p, "r": "https://" + randomText(r, 20) + ".example/" + randomText(r, 10),
						"us": randomText(r, 150), "um": []string{"cpc", "email", "social", randomText(r, 10)}[r.Intn(4)], "uc": randomText(r, 150), "w": r.Intn(5000)}
					if r.Intn(10) == 0 {
						b = map[string]any{"t": "tel_click", "p": p}
					}
					ua := fmt.Sprintf("Mozilla/5.0 (%s) Chrome/%d", randomText(r, 30), r.Intn(1_000_000))
					rm.rawBeacon(ip, ua, mustJSON(b))
				}
			}(w)
		}
		for i := 0; i < 5000; i++ {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		rm.flush(t)
		analyticstest.CheckStoredText(t, store)

		rep := rm.report(t, 1)
		if problems := analyticstest.Check(rep, analyticstest.Oracle(rm.storedEvents(t), rep.From, rep.To, Places(rm.site).Label)); len(problems) > 0 {
			t.Errorf("figures disagree:\n%s", strings.Join(problems, "\n"))
		}
		maxVisitors := int64(20 + 17*analytics.MaxVisitorsPerNetwork)
		if rep.Visitors < 20 || rep.Visitors > maxVisitors {
			t.Errorf("%d visitors: want the 20 real ones and at most %d in all", rep.Visitors, maxVisitors)
		}
		if rep.NotFound == 0 || rep.NotFound > int64(17*analytics.MaxNotFoundPerNetwork) {
			t.Errorf("%d not-found views, want between 1 and %d", rep.NotFound, 17*analytics.MaxNotFoundPerNetwork)
		}
		if rep.Calls > int64(17*analytics.MaxActionsPerNetwork) {
			t.Errorf("%d calls from 17 clients", rep.Calls)
		}
		for _, p := range rep.Pages {
			if _, ok := rm.site.ServedPages()[p.Path]; !ok {
				t.Errorf("Pages lists %q, which the site does not serve", p.Path)
			}
		}
		known := map[string]bool{analytics.SourceOrganic: true, analytics.SourceDirect: true, analytics.SourceSocial: true,
			analytics.SourceReferral: true, analytics.SourceEmail: true, analytics.SourcePaid: true}
		for _, s := range rep.Sources {
			if !known[s.Source] {
				t.Errorf("source %q", s.Source)
			}
		}
		var spamRows int
		store.SQL().QueryRow(`SELECT COUNT(*) FROM analytics_events WHERE path LIKE '%call%' OR path LIKE '%404%'`).Scan(&spamRows)
		if spamRows != 0 {
			t.Errorf("%d events keep the attacker's path", spamRows)
		}
		var stored int
		store.SQL().QueryRow(`SELECT COUNT(*) FROM analytics_events`).Scan(&stored)
		t.Logf("5,000 junk beacons: %d events stored, %d visitors, %d page views, %d not-found views, %d over the limits", stored, rep.Visitors, rep.Pageviews, rep.NotFound, rm.capped())
	})
}

// vitalsAnswer is GET /api/admin/vitals.
type vitalsAnswer struct {
	Overall []analytics.VitalRow `json:"overall"`
	Samples int                  `json:"samples"`
}

// 400 in-range LCP beacons of 119,000 ms from two IPs flipped the
// Performance Monitor's p75 to poor. Now an LCP of minutes is
// not a measurement, and what two clients can add a day in range (59 s
// from random user agents on random pages) is bounded: the p75 of 100
// real visits stays good.
func TestCollectVitalsAttack(t *testing.T) {
	eachDB(t, func(t *testing.T, rm *room) {
		for i := 0; i < 100; i++ {
			ip := fmt.Sprintf("198.51.100.%d", i+1)
			rm.rawBeacon(ip, browserUA, []byte(`{"t":"pageview","p":"/","w":390}`))
			rm.rawBeacon(ip, browserUA, mustJSON(map[string]any{"t": "vital", "p": "/", "m": "LCP", "v": 1000 + 10*i}))
		}
		served := []string{"/", "/services", "/contact", "/about", "/areas/cobb/smyrna", "/blog"}
		attack := func(v float64) {
			var wg sync.WaitGroup
			for _, ip := range []string{"192.0.2.66", "192.0.2.67"} {
				for i := 0; i < 200; i++ {
					wg.Add(1)
					go func(ip string, i int) {
						defer wg.Done()
						ua := fmt.Sprintf("%s attacker-%d", browserUA, i)
						p := served[i%len(served)]
						rm.rawBeacon(ip, ua, mustJSON(map[string]any{"t": "pageview", "p": p}))
						rm.rawBeacon(ip, ua, mustJSON(map[string]any{"t": "vital", "p": p, "m": "LCP", "v": v}))
					}(ip, i)
				}
			}
			wg.Wait()
			rm.flush(t)
		}
		tok := authtest.PIN
		lcp := func() analytics.VitalRow {
			var a vitalsAnswer
			r := rm.Call(t, "GET", "/api/admin/vitals", tok, nil)
			if err := json.Unmarshal([]byte(r.Body), &a); err != nil || len(a.Overall) == 0 {
				t.Fatalf("vitals: %d %s", r.StatusCode, r.Body)
			}
			return a.Overall[0]
		}
		attack(119000) // out of range: none stored
		if row := lcp(); row.Status != "good" || row.Samples != 100 {
			t.Errorf("after 400 LCPs of 119 s: %+v", row)
		}
		attack(59000) // in range: at most the two networks' daily limit
		row := lcp()
		if row.Status != "good" || row.Samples > 100+2*analytics.MaxVitalsPerNetwork {
			t.Errorf("after 400 LCPs of 59 s: %+v", row)
		}
		t.Logf("LCP after both attacks: %+v", row)
	})
}

// The admin answer says what was not stored, and why.
func TestAnalyticsAnswerCountsWhatWasNotStored(t *testing.T) {
	t.Parallel()
	rm := newRoom(t, db.NewTestSQLite(t))
	for i := 0; i < 3*analytics.MaxNotFoundPerNetwork; i++ {
		rm.rawBeacon("192.0.2.9", browserUA, []byte(`{"t":"pageview","p":"/missing"}`))
	}
	rm.flush(t)
	tok := authtest.PIN
	r := rm.Call(t, "GET", "/api/admin/analytics", tok, nil)
	var a struct {
		NotFound                 int64
		Dropped, Refused, Capped *int64
	}
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil || a.Dropped == nil || a.Refused == nil || a.Capped == nil {
		t.Fatalf("%s", r.Body)
	}
	if a.NotFound != analytics.MaxNotFoundPerNetwork || *a.Capped != 2*analytics.MaxNotFoundPerNetwork || *a.Refused != 0 {
		t.Errorf("not found %d, capped %d, refused %d", a.NotFound, *a.Capped, *a.Refused)
	}
}

// The per-minute limit is per client: an IPv6 client that sends every
// beacon from a new address of its /64 has used up its minute for all of
// them, as one IPv4 address would; another /64 has not.
func TestCollectLimitPerIPv6Network(t *testing.T) {
	t.Parallel()
	rm := newRoom(t, db.NewTestSQLite(t))
	var wg sync.WaitGroup
	for i := 0; i < 2*CollectPerIP; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ip := fmt.Sprintf("2001:db8:77:1:%x:%x:%x:1", i, i*3, i*7)
			rm.rawBeacon(ip, browserUA, []byte(`{"t":"pageview","p":"/no-such-page"}`))
		}(i)
	}
	wg.Wait()
	rm.rawBeacon("2001:db8:77:1::abcd", browserUA, []byte(`{"t":"pageview","p":"/services"}`))
	rm.rawBeacon("2001:db8:77:2::1", browserUA, []byte(`{"t":"pageview","p":"/contact"}`))
	rm.flush(t)
	got := map[string]int{}
	for _, e := range rm.storedEvents(t) {
		got[e.Kind+" "+e.Path]++
	}
	want := map[string]int{"not_found ": analytics.MaxNotFoundPerNetwork, "pageview /contact": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored (-want, +got):\n%s", diff)
	}
}

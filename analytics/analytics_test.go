package analytics

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct{ ref, us, um, want string }{
		{"", "", "", SourceDirect},
		{"https://www.example-restoration.test/services", "", "", SourceDirect},
		{"https://www.google.com/", "", "", SourceOrganic},
		{"https://www.google.co.uk/search", "", "", SourceOrganic},
		{"https://duckduckgo.com/", "", "", SourceOrganic},
		{"https://m.facebook.com/", "", "", SourceSocial},
		{"https://t.co/abc", "", "", SourceSocial},
		{"https://nextdoor.com/p/1", "", "", SourceSocial},
		{"https://mail.google.com/mail/u/0", "", "", SourceEmail},
		{"https://www.yelp.com/biz/x", "", "", SourceReferral},
		{"", "newsletter", "email", SourceEmail},
		{"https://www.google.com/", "google", "cpc", SourcePaid},
		{"", "facebook", "", SourceSocial},
		{"not a url", "", "", SourceDirect},
	} {
		if got := Classify(c.ref, c.us, c.um, "www.example-restoration.test"); got != c.want {
			t.Errorf("Classify(%q, %q, %q) = %q, want %q", c.ref, c.us, c.um, got, c.want)
		}
	}
}

func TestBotsAndOptOut(t *testing.T) {
	for _, ua := range []string{"", "Googlebot/2.1 (+http://www.google.com/bot.html)", "Mozilla/5.0 (compatible; bingbot/2.0)",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36",
		"Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 Chrome-Lighthouse",
		"curl/8.5.0", "python-requests/2.31", "Go-http-client/1.1", "facebookexternalhit/1.1", "AhrefsBot/7.0"} {
		if !IsBot(ua) {
			t.Errorf("%q is not a bot", ua)
		}
	}
	for _, ua := range []string{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0"} {
		if IsBot(ua) {
			t.Errorf("%q taken for a bot", ua)
		}
	}
	if !OptedOut("1", "") || !OptedOut("", "1") || OptedOut("0", "") {
		t.Error("OptedOut")
	}
}

func TestWidthClass(t *testing.T) {
	for w, want := range map[int]string{0: "", 375: "mobile", 768: "tablet", 1366: "laptop", 1920: "desktop"} {
		if got := WidthClass(w); got != want {
			t.Errorf("WidthClass(%d) = %q", w, got)
		}
	}
}

// The same visitor is one id all day and an unrelated one the next day
// (new salt): unlinkable, and the id holds no IP.
func TestVisitorRotatesDaily(t *testing.T) {
	a := Visitor("salt-1", "203.0.113.7", "UA", "2026-11-21")
	if a != Visitor("salt-1", "203.0.113.7", "UA", "2026-11-21") {
		t.Error("not stable within a day")
	}
	if a == Visitor("salt-2", "203.0.113.7", "UA", "2026-11-22") || a == Visitor("salt-1", "203.0.113.8", "UA", "2026-11-21") || a == Visitor("salt-1", "203.0.113.7", "UA2", "2026-11-21") {
		t.Error("collision")
	}
	if len(a) != 32 {
		t.Errorf("id %q", a)
	}
}

type memStore struct {
	mu  sync.Mutex
	evs []db.Event
}

func (m *memStore) AddEvents(_ context.Context, evs []db.Event) error {
	m.mu.Lock()
	m.evs = append(m.evs, evs...)
	m.mu.Unlock()
	return nil
}
func (m *memStore) DailySalt(context.Context, string) (string, error) { return "s", nil }
func (m *memStore) Ping(context.Context) error                        { return nil }

func TestCollectorBatchesAndDropsWhenFull(t *testing.T) {
	st := &memStore{}
	c := NewCollector(st, nil)
	for i := 0; i < QueueSize+10; i++ {
		c.Add(db.Event{Kind: "pageview"})
	}
	if c.Dropped.Load() != 10 {
		t.Errorf("dropped %d, want 10", c.Dropped.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	<-done
	if len(st.evs) != QueueSize {
		t.Errorf("%d events written, want %d", len(st.evs), QueueSize)
	}
}

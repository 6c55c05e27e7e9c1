package server

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/portal"
)

// The job page through the assembled site: rendered per request with
// the owner's words, private (noindex, no-store, no referrer, not in the
// sitemap), the phone as a tap-to-call link; the insurer's view without
// contact, opt-out or messaging; an unknown token is the 404 screen.
func TestJobHomePage(t *testing.T) {
	srv, store := newTestServer(t, nil)
	ctx := context.Background()
	now := time.Now().UTC()
	l := db.Lead{ID: "lead-jh1", CreatedAt: now, UpdatedAt: now, FirstName: "Maria", LastName: "Gonzalez", Phone: "+17705550199",
		Email: "lead-jh1@example.com", City: "Marietta", StreetAddress: "12 Roswell St", DamageType: "Water Damage", Status: "new", Source: "website", ClaimNumber: "SF-9"}
	if err := store.CreateLead(ctx, l); err != nil {
		t.Fatal(err)
	}
	home, hash := portal.NewToken()
	if _, err := store.IssueLeadLink(ctx, l.ID, db.LinkHomeowner, hash, nil, db.SystemActor, now); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ChangeLeadStatus(ctx, l.ID, "scheduled", db.Actor{Name: "Owner"}, now); err != nil {
		t.Fatal(err)
	}
	r := get(t, srv, "/my/"+home)
	if r.StatusCode != 200 || r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("Referrer-Policy") != "no-referrer" || r.Header.Get("X-Robots-Tag") != "noindex, nofollow" {
		t.Fatalf("home: %d %v\n%s", r.StatusCode, r.Header, r.Body)
	}
	for _, want := range []string{`content="noindex, nofollow"`, "We received your request", "Visit scheduled", "Shut off the water", `href="tel:`, "Hello Maria,", "/my/" + home + "/stop"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("home page lacks %q", want)
		}
	}
	if strings.Contains(r.Body, "Gonzalez") || strings.Contains(r.Body, "lead-jh1@example.com") {
		t.Error("the page shows the last name or the email")
	}
	adj, ah := portal.NewToken()
	exp := now.Add(24 * time.Hour)
	if _, err := store.IssueLeadLink(ctx, l.ID, db.LinkAdjuster, ah, &exp, db.SystemActor, now); err != nil {
		t.Fatal(err)
	}
	r = get(t, srv, "/claim/"+adj)
	if r.StatusCode != 200 || !strings.Contains(r.Body, "SF-9") || !strings.Contains(r.Body, "Visit scheduled") || !strings.Contains(r.Body, "The homeowner’s request reached us") && !strings.Contains(r.Body, "The homeowner&#x27;s request reached us") {
		t.Fatalf("claim: %d\n%s", r.StatusCode, r.Body)
	}
	for _, not := range []string{"Maria", "lead-jh1@example.com", "/stop", "<form", "Who is coming"} {
		if strings.Contains(r.Body, not) {
			t.Errorf("the insurer's view shows %q", not)
		}
	}
	for _, p := range []string{"/my/" + strings.Repeat("A", 22), "/my/short", "/claim/" + home} {
		if nf := get(t, srv, p); nf.StatusCode != 404 || !strings.Contains(nf.Body, "Oops! Page not found") {
			t.Errorf("%s: %d", p, nf.StatusCode)
		}
	}
	if sm := get(t, srv, "/sitemap.xml"); strings.Contains(sm.Body, "/my") || strings.Contains(sm.Body, "/claim") {
		t.Error("the sitemap lists a job page")
	}
}

// The request log never holds a job page's token.
func TestJobHomeTokenNotLogged(t *testing.T) {
	srv, _ := newTestServer(t, map[string]string{"DATA_DIR": t.TempDir()})
	var b bytes.Buffer
	srv.log = NewFormatLogger(&b, nil, "text", 0)
	srv.accessLog = true
	const token = "Zq8v3TtokenNeverLogged"
	get(t, srv.Handler(), "/my/"+token)
	get(t, srv.Handler(), "/my/"+token+"/stop")
	get(t, srv.Handler(), "/claim/"+token)
	out := b.String()
	if strings.Contains(out, token) {
		t.Fatalf("the token reached the log:\n%s", out)
	}
	for _, want := range []string{"path=/my/[REDACTED] ", "path=/my/[REDACTED]/stop ", "path=/claim/[REDACTED] "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/web/audits"
	"github.com/atlanta-restoration/site/web/dashboard"
)

// Plain words and true screens: each tool card and screen says what
// it does in the owner's words, and shows only what is so.

// toolsByslug reads GET /api/admin/tools.
func toolsBySlug(t *testing.T, srv *Server, tok string) map[string]dashboard.ToolStatus {
	t.Helper()
	r := jsonReq(t, srv, "GET", "/api/admin/tools", tok, nil)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("tools: %d %s", r.StatusCode, r.Body)
	}
	out := map[string]dashboard.ToolStatus{}
	for _, c := range decode[dashboard.Tools](t, r).Tools {
		out[c.Slug] = c
	}
	return out
}

// TestToolCardsAreComputedFromTheSite: every card's status follows the
// running site. Before anything has run nothing says Active, Optimized or
// Secure; after the checks, the words are the spec's only when true.
func TestToolCardsAreComputedFromTheSite(t *testing.T) {
	srv, store := adminServer(t, nil)
	tok := unlock(t, srv)
	ctx := context.Background()

	before := toolsBySlug(t, srv, tok)
	for slug, want := range map[string]string{"seo-audit": "Not run yet", "schema": "Not checked yet", "security": "Not scanned yet",
		"performance": "No visits measured yet", "analytics": "No visits yet", "upload": "Ready", "content": "Available", "settings": "Available"} {
		if got := before[slug].Status; got != want {
			t.Errorf("%s before any run: %q, want %q", slug, got, want)
		}
	}
	if len(before) != 10 {
		t.Errorf("%d cards, want 10", len(before))
	}
	for slug, c := range before {
		if c.Detail == "" || c.Tone == "" || c.Priority == "" {
			t.Errorf("%s: empty detail, tone or priority: %+v", slug, c)
		}
	}

	// IndexNow: the card follows the key in force.
	key, _, err := srv.jobs.indexNow.Keys.Key(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ix := before["indexnow"]; (key == "") != (ix.Status == "Needs a key") || (key != "" && ix.Status != "Active") {
		t.Errorf("indexnow with key %q: %+v", key, ix)
	}
	if key == "" {
		if r := jsonReq(t, srv, "PUT", "/api/admin/indexnow/key", tok, map[string]string{"key": "0123456789abcdef0123"}); r.StatusCode != 200 {
			t.Fatalf("put key: %d %s", r.StatusCode, r.Body)
		}
		if ix := toolsBySlug(t, srv, tok)["indexnow"]; ix.Status != "Active" || !strings.Contains(ix.Detail, "Nothing submitted yet") {
			t.Errorf("indexnow with a key: %+v", ix)
		}
	}

	// The checks run: each card says what the stored run says.
	seo, err := srv.jobs.seo.Audit(ctx, seoaudit.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	sch, _, err := srv.jobs.schema.Check(ctx, schemacheck.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.jobs.security.Scan(ctx, securitycheck.TriggerManual); err != nil {
		t.Fatal(err)
	}
	open, err := store.CountOpenVulnerabilities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after := toolsBySlug(t, srv, tok)
	wantSEO := "Active"
	if seo.Failed > 0 {
		wantSEO = fmt.Sprintf("%d failing check", seo.Failed)
	} else if seo.Warnings > 0 {
		wantSEO = fmt.Sprintf("%d warning", seo.Warnings)
	}
	if got := after["seo-audit"].Status; !strings.HasPrefix(got, wantSEO) || !strings.Contains(after["seo-audit"].Detail, fmt.Sprintf("Score %d%%", seo.Score)) {
		t.Errorf("seo-audit: %+v, want %q (run %+v)", after["seo-audit"], wantSEO, seo)
	}
	// This test server is http://: the HTTPS check fails, so SEO is high priority.
	if seo.Failed > 0 && after["seo-audit"].Priority != "high" {
		t.Errorf("failing checks but priority %q", after["seo-audit"].Priority)
	}
	wantSchema := "Optimized"
	if sch.Errors+sch.Unreadable > 0 {
		wantSchema = fmt.Sprintf("%d error", sch.Errors+sch.Unreadable)
	} else if sch.Warnings > 0 {
		wantSchema = fmt.Sprintf("%d warning", sch.Warnings)
	}
	if got := after["schema"].Status; !strings.HasPrefix(got, wantSchema) {
		t.Errorf("schema: %q, want %q (run %+v)", got, wantSchema, sch)
	}
	if (after["schema"].Status == "Optimized") != (sch.Errors+sch.Warnings+sch.Unreadable == 0) {
		t.Errorf("schema says %q with %d errors and %d warnings", after["schema"].Status, sch.Errors, sch.Warnings)
	}
	sec := after["security"]
	if (sec.Status == "Secure") && open > 0 || open > 0 && !strings.HasPrefix(sec.Status, fmt.Sprint(open)) {
		t.Errorf("security with %d open: %+v", open, sec)
	}
	loc := srv.site.Locations()
	if l := after["locations"]; l.Status != "Active" || !strings.Contains(l.Detail, fmt.Sprintf("%d county page", loc.Counties)) {
		t.Errorf("locations: %+v", l)
	}
}

// TestLeadNotificationsCountPushDevices: 'Push to phones' is told how
// many devices a new lead reaches, none before any subscribed.
func TestLeadNotificationsCountPushDevices(t *testing.T) {
	srv, _ := adminServer(t, nil)
	tok := unlock(t, srv)
	r := jsonReq(t, srv, "GET", "/api/admin/notifications", tok, nil)
	st := decode[dashboard.NotificationsStatus](t, r)
	if r.StatusCode != 200 || st.PushDevices != 0 {
		t.Errorf("notifications: %d pushDevices %d, want 0: %s", r.StatusCode, st.PushDevices, r.Body)
	}
}

// TestSchemaGeneratorServesWhatThePageServes: the generator offers the
// site's pages of each type and answers the JSON-LD the page really
// serves; a type or page it does not offer is refused.
func TestSchemaGeneratorServesWhatThePageServes(t *testing.T) {
	srv, _ := adminServer(t, nil)
	tok := unlock(t, srv)
	opts := decode[audits.GeneratorOptions](t, jsonReq(t, srv, "GET", "/api/admin/schema/generator", tok, nil))
	byType := map[string]audits.GeneratorType{}
	var names []string
	for _, gt := range opts.Types {
		byType[gt.Type] = gt
		names = append(names, gt.Type)
	}
	if diff := cmp.Diff([]string{"LocalBusiness", "Service", "Article", "FAQ", "Review"}, names); diff != "" {
		t.Errorf("types (-want, +got):\n%s", diff)
	}
	// Article: exactly the blog posts of the route table.
	var posts []string
	for _, r := range srv.site.Routes() {
		if r.Page == "blog-post" {
			posts = append(posts, r.Paths(srv.site.Content())...)
		}
	}
	var offered []string
	for _, p := range byType["Article"].Pages {
		offered = append(offered, p.Path)
		if p.Group != "Blog posts" {
			t.Errorf("%s grouped as %q", p.Path, p.Group)
		}
	}
	if len(posts) == 0 || !cmp.Equal(posts, offered) {
		t.Errorf("Article pages %v, want the blog posts %v", offered, posts)
	}
	// FAQ pages are known once a check has run.
	if faq := byType["FAQ"]; len(faq.Pages) != 0 || !strings.Contains(faq.Note, "first structured data check") {
		t.Errorf("FAQ before a check: %+v", faq)
	}

	for _, tc := range []struct{ typ, path, kind string }{
		{"Article", posts[0], "Article"},
		{"LocalBusiness", "/", "LocalBusiness"},
		{"Service", byType["Service"].Pages[0].Path, "Service"},
	} {
		r := jsonReq(t, srv, "GET", "/api/admin/schema/generate?type="+tc.typ+"&path="+url.QueryEscape(tc.path), tok, nil)
		if r.StatusCode != 200 {
			t.Fatalf("%s on %s: %d %s", tc.typ, tc.path, r.StatusCode, r.Body)
		}
		g := decode[audits.Generated](t, r)
		page := get(t, srv, tc.path)
		want, err := schemacheck.Items([]byte(page.Body), tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		// Compare as JSON: what the page serves, item for item.
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(g.JSON)
		if len(g.JSON) == 0 || string(wj) != string(gj) {
			t.Errorf("%s on %s:\n got %s\nwant %s", tc.typ, tc.path, gj, wj)
		}
		if g.FileName == "" || !strings.HasSuffix(g.FileName, ".json") || g.Note != "" {
			t.Errorf("%s on %s: file %q note %q", tc.typ, tc.path, g.FileName, g.Note)
		}
	}
	// Review: the business's rating when it qualifies, else a note; never invented.
	g := decode[audits.Generated](t, jsonReq(t, srv, "GET", "/api/admin/schema/generate?type=Review&path=/", tok, nil))
	if len(g.JSON) == 0 && !strings.Contains(g.Note, "no invented rating") {
		t.Errorf("Review on /: %+v", g)
	}
	for _, bad := range []string{"type=Recipe&path=/", "type=Article&path=/", "type=Article&path=/admin", "type=Service&path=/no-such-page", "type=&path=", "path=/"} {
		r := jsonReq(t, srv, "GET", "/api/admin/schema/generate?"+bad, tok, nil)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "Choose") {
			t.Errorf("%s: %d %s, want 400 with what to choose", bad, r.StatusCode, r.Body)
		}
	}
}

// devWords is what no server message that reaches an owner screen may
// carry (the browser scan's list, tests/e2e/admin-words.test.mjs, in
// Go's syntax: no look-ahead).
var devWords = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`(?i)\bspecs?\b`), "a spec reference"},
	{regexp.MustCompile(`(?i)route table`), "a code name (route table)"},
	{regexp.MustCompile(`(?i)\bseed`), "a code name (seed)"},
	{regexp.MustCompile(`\{[A-Za-z_]+\}`), "a {placeholder}"},
	{regexp.MustCompile(`\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b`), "an environment variable"},
	{regexp.MustCompile(`content/`), "a repository path"},
	{regexp.MustCompile(`(?i)\bdeploy(s|ed|ing)?\b`), "a developer step (deploy)"},
}

// strings walks a decoded JSON value and calls f with each string and
// where it is.
func eachString(v any, at string, f func(at, s string)) {
	switch x := v.(type) {
	case string:
		f(at, x)
	case []any:
		for i, e := range x {
			eachString(e, fmt.Sprintf("%s[%d]", at, i), f)
		}
	case map[string]any:
		for k, e := range x {
			eachString(e, at+"."+k, f)
		}
	}
}

// TestServerMessagesSpeakPlainWords: the answers the tool screens show,
// after every check has run, carry no developer word. Fields that are
// codes the screen never prints (trigger, check ids, kinds) are skipped.
func TestServerMessagesSpeakPlainWords(t *testing.T) {
	srv, _ := adminServer(t, nil)
	tok := unlock(t, srv)
	ctx := context.Background()
	if _, err := srv.jobs.seo.Audit(ctx, seoaudit.TriggerManual); err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.jobs.schema.Check(ctx, schemacheck.TriggerManual); err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.jobs.security.Scan(ctx, securitycheck.TriggerManual); err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`\.(trigger|checkId|id|kind|job|outcome|status|severity|category|property|priority|source|baseUrl|url|path|example|component|pattern|changefreq|fileName|keyLocation|key)$`)
	for _, path := range []string{"/api/admin/overview", "/api/admin/tools", "/api/admin/notifications", "/api/admin/jobs", "/api/admin/security",
		"/api/admin/seo-audit", "/api/admin/schema", "/api/admin/locations", "/api/admin/health", "/api/admin/schema/generator"} {
		r := jsonReq(t, srv, "GET", path, tok, nil)
		if r.StatusCode != 200 {
			t.Errorf("%s: %d", path, r.StatusCode)
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(r.Body), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		eachString(v, path, func(at, s string) {
			if codes.MatchString(at) {
				return
			}
			for _, w := range devWords {
				if m := w.re.FindString(s); m != "" {
					t.Errorf("%s: %s (%q) in %q", at, w.why, m, s)
				}
			}
		})
	}
}

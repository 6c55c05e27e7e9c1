package server

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/web/auth"
	backupsweb "github.com/atlanta-restoration/site/web/backups"
	"github.com/atlanta-restoration/site/web/dashboard"
	editorweb "github.com/atlanta-restoration/site/web/editor"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
	"github.com/atlanta-restoration/site/web/push"
)

// The admin API's types cross the wire once (issue 21): the Go answer
// types are the source, and the TypeScript interfaces the admin app reads
// them with are checked against them here. Every field the browser reads
// must be one the server sends, under the same JSON name; a renamed or
// dropped Go field fails this test, as a typo in a TS interface does.
// (tsc checks the app's use of the interfaces: `make test-ts`.)
var adminContract = []struct {
	goType   any
	file, ts string
	uiOnly   []string // fields the browser adds itself, never sent
}{
	{goType: auth.Session{}, file: "admin/session.tsx", ts: "Session"},
	{goType: auth.SessionRow{}, file: "admin/session.tsx", ts: "SessionRow"},
	{goType: auth.LoginResult{}, file: "admin/gate.tsx", ts: "LoginResult"},
	{goType: leadsweb.UserRow{}, file: "admin/pages/users.tsx", ts: "User"},
	{goType: indexnowweb.RouteInfo{}, file: "admin/data/indexnow.ts", ts: "RouteInfo"},
	{goType: indexnowweb.Submission{}, file: "admin/data/indexnow.ts", ts: "Submission"},
	{goType: indexnowweb.IndexNowKey{}, file: "admin/data/indexnow.ts", ts: "KeyInfo"},
	{goType: dashboard.NotificationsStatus{}, file: "admin/data/dashboard.ts", ts: "NotificationsStatus"},
	{goType: backupsweb.List{}, file: "admin/data/backups.ts", ts: "BackupList"},
	{goType: backup.Entry{}, file: "admin/data/backups.ts", ts: "BackupEntry"},
	{goType: db.ActiveBackup{}, file: "admin/data/backups.ts", ts: "RunningBackup"},
	{goType: backupsweb.RunAnswer{}, file: "admin/data/backups.ts", ts: "RunAnswer"},
	{goType: dashboard.NotificationRow{}, file: "admin/data/dashboard.ts", ts: "NotificationRow"},
	{goType: dashboard.ActivityLine{}, file: "admin/data/dashboard.ts", ts: "Activity"},
	{goType: seoaudit.PageResult{}, file: "admin/data/seo-audit.ts", ts: "PageResult"},
	{goType: db.SEOAuditRun{}, file: "admin/data/seo-audit.ts", ts: "AuditRun"},
	// Speed to lead (issue 23).
	{goType: db.LeadEvent{}, file: "admin/data/leads.ts", ts: "TimelineEntry"},
	{goType: db.Attribution{}, file: "admin/data/leads.ts", ts: "Attribution"},
	{goType: leadsweb.LeadWork{}, file: "admin/data/leads.ts", ts: "LeadWork"},
	{goType: leadsweb.Assignee{}, file: "admin/data/leads.ts", ts: "Assignee"},
	{goType: leadsweb.EventAnswer{}, file: "admin/data/leads.ts", ts: "EventAnswer"},
	{goType: leadsweb.ResponseWindow{}, file: "admin/data/leads.ts", ts: "ResponseWindow"},
	{goType: leadsweb.ResponseFigures{}, file: "admin/data/leads.ts", ts: "ResponseFigures"},
	// Leads first: the dashboard's unanswered leads and the Call/Text reveal.
	{goType: leadsweb.AttentionAnswer{}, file: "admin/data/leads.ts", ts: "AttentionAnswer"},
	{goType: leadsweb.TodayFigures{}, file: "admin/data/leads.ts", ts: "TodayFigures"},
	{goType: leads.Waiting{}, file: "admin/data/leads.ts", ts: "Waiting"},
	{goType: leads.Contact{}, file: "admin/data/leads.ts", ts: "Contact"},
	{goType: push.Key{}, file: "admin/data/push.ts", ts: "PushKey"},
	{goType: push.Device{}, file: "admin/data/push.ts", ts: "Device"},
	{goType: push.DeviceList{}, file: "admin/data/push.ts", ts: "DeviceList"},
	{goType: push.AccountDevice{}, file: "admin/data/push.ts", ts: "AccountDevice"},
	{goType: push.AllDevices{}, file: "admin/data/push.ts", ts: "AllDevices"},
	{goType: push.DeviceAnswer{}, file: "admin/data/push.ts", ts: "DeviceAnswer"},
	{goType: analytics.LeadSourceRow{}, file: "admin/data/analytics.ts", ts: "LeadSourceRow"},
	{goType: analytics.CallPageRow{}, file: "admin/data/analytics.ts", ts: "CallPageRow"},
	// Content editing (issue 22, docs/content-api.md)
	{goType: editorweb.ItemView{}, file: "admin/data/content.ts", ts: "ItemView"},
	{goType: editorweb.ItemDetail{}, file: "admin/data/content.ts", ts: "ItemDetail"},
	{goType: editorweb.ItemList{}, file: "admin/data/content.ts", ts: "ItemList"},
	{goType: editorweb.ConflictAnswer{}, file: "admin/data/content.ts", ts: "ConflictAnswer"},
	{goType: editorweb.InvalidAnswer{}, file: "admin/data/content.ts", ts: "InvalidAnswer"},
	{goType: editorweb.History{}, file: "admin/data/content.ts", ts: "History"},
	{goType: editor.RevisionView{}, file: "admin/data/content.ts", ts: "RevisionView"},
	{goType: editor.FieldDiff{}, file: "admin/data/content.ts", ts: "FieldDiff"},
	{goType: editor.DiffLine{}, file: "admin/data/content.ts", ts: "DiffLine"},
	{goType: editor.Guidance{}, file: "admin/data/content.ts", ts: "Guidance"},
	{goType: content.Problem{}, file: "admin/data/content.ts", ts: "ContentProblem"},
	{goType: media.GalleryItem{}, file: "admin/data/content.ts", ts: "MediaItem"},
	{goType: editorweb.RedirectList{}, file: "admin/data/redirects.ts", ts: "RedirectList"},
	{goType: editorweb.RedirectRow{}, file: "admin/data/redirects.ts", ts: "RedirectRow"},
	{goType: editorweb.NotFoundList{}, file: "admin/data/redirects.ts", ts: "NotFoundList"},
	{goType: editorweb.NotFoundPath{}, file: "admin/data/redirects.ts", ts: "NotFoundPath"},
}

// jsonFields lists the JSON names a Go type is sent with: tagged fields,
// and the fields of embedded structs, as encoding/json flattens them.
func jsonFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k := range jsonFields(f.Type) {
				out[k] = true
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = true
	}
	return out
}

var tsField = regexp.MustCompile(`^\s*(?:readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)\??\s*:`)

// tsFields reads the field names of `interface name { ... }` in src: the
// top level of its braces, comments dropped.
func tsFields(t *testing.T, src, name string) map[string]bool {
	t.Helper()
	src = regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(src, "")
	src = regexp.MustCompile(`//[^\n]*`).ReplaceAllString(src, "")
	m := regexp.MustCompile(`interface\s+` + name + `\b[^{]*\{`).FindStringIndex(src)
	if m == nil {
		t.Fatalf("interface %s not found", name)
	}
	depth, start := 1, m[1]
	end := start
	for ; end < len(src) && depth > 0; end++ {
		switch src[end] {
		case '{':
			depth++
		case '}':
			depth--
		}
	}
	body := src[start : end-1]
	// Split the top level at ; and newlines, skipping nested braces.
	out := map[string]bool{}
	var part strings.Builder
	depth = 0
	flush := func() {
		if m := tsField.FindStringSubmatch(part.String()); m != nil {
			out[m[1]] = true
		}
		part.Reset()
	}
	for _, r := range body {
		switch {
		case r == '{' || r == '(' || r == '<':
			depth++
		case r == '}' || r == ')' || r == '>':
			depth--
		case (r == ';' || r == '\n') && depth == 0:
			flush()
			continue
		}
		part.WriteRune(r)
	}
	flush()
	return out
}

func TestAdminTypesMatchTheServer(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range adminContract {
		gt := reflect.TypeOf(c.goType)
		t.Run(gt.String()+"/"+c.ts, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(root, c.file))
			if err != nil {
				t.Fatal(err)
			}
			sent := jsonFields(gt)
			read := tsFields(t, string(src), c.ts)
			for _, f := range c.uiOnly {
				delete(read, f)
			}
			var unknown []string
			for f := range read {
				if !sent[f] {
					unknown = append(unknown, f)
				}
			}
			sort.Strings(unknown)
			if len(unknown) > 0 {
				t.Errorf("%s (%s) reads %v, which %s never sends (it sends %v)", c.ts, c.file, unknown, gt, keys(sent))
			}
			if len(read) == 0 {
				t.Errorf("%s has no fields: the parser missed it", c.ts)
			}
		})
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

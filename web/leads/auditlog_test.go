package leads

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/atlanta-restoration/site/db"
)

// auditActionRE finds an audit action constant: AuditSomething = "code".
var auditActionRE = regexp.MustCompile(`(?m)^\s*Audit[A-Za-z]+\s*=\s*"([a-z0-9_]+)"`)

// auditActions reads every audit action constant of the packages that
// write the audit log, so a new action without a sentence fails here.
func auditActions(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"../../db", "../../editor", "../../web/auth", "../../web/leads", "../../web/push", "../../web/settings", "../../accounts", "../../backup", "../../leads"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range auditActionRE.FindAllStringSubmatch(string(b), -1) {
				out = append(out, m[1])
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("found only %d audit actions: %v", len(out), out)
	}
	return out
}

// Every action has a sentence, and no sentence shows the code.
func TestEveryAuditActionHasASentence(t *testing.T) {
	actions := append(auditActions(t), "lead_reveal", "backup_run", "backup_download", "recovery_codes_renewed")
	for _, a := range actions {
		if _, ok := sentences[a]; !ok {
			t.Errorf("audit action %q has no sentence", a)
			continue
		}
		r := db.AuditRow{AuditEntry: db.AuditEntry{Action: a, Actor: "ada@example.com", LeadID: "lead-1", IP: "203.0.113.7", Detail: ""},
			ActorEmail: "ada@example.com", LeadFound: true, LeadFirst: "Jo", LeadLast: "Doe", LeadCity: "Marietta"}
		s := Sentence(r)
		if regexp.MustCompile(`\b`+a+`\b`).MatchString(s) || strings.Contains(s, "_") || !strings.HasPrefix(s, "ada@example.com ") {
			t.Errorf("%s: %q", a, s)
		}
	}
}

func TestAuditSentences(t *testing.T) {
	at := time.Now()
	entry := func(action, detail string) db.AuditEntry {
		return db.AuditEntry{At: at, UserID: "u-sam", Actor: "sam@example.com", Action: action, LeadID: "", Detail: detail, IP: "203.0.113.7"}
	}
	sam := func(e db.AuditEntry) db.AuditRow {
		return db.AuditRow{AuditEntry: e, ActorEmail: "sam@example.com", ActorName: "Sam Lee"}
	}
	lead := func(e db.AuditEntry) db.AuditRow {
		e.LeadID = "lead-1"
		r := sam(e)
		r.LeadFound, r.LeadFirst, r.LeadLast, r.LeadCity = true, "jane", "Doe", "Marietta"
		return r
	}
	gone := func(e db.AuditEntry) db.AuditRow {
		e.LeadID = "lead-9"
		return sam(e)
	}
	for _, c := range []struct {
		r    db.AuditRow
		want string
	}{
		{sam(entry(db.AuditLogin, "")), "Sam Lee (sam@example.com) signed in from 203.0.113.7"},
		{db.AuditRow{AuditEntry: entry(db.AuditLogin, ""), ActorEmail: "ada@example.com"}, "ada@example.com signed in from 203.0.113.7"},
		{sam(entry(db.AuditLogin, "with a recovery code")), "Sam Lee (sam@example.com) signed in with a recovery code from 203.0.113.7"},
		{db.AuditRow{AuditEntry: db.AuditEntry{Action: db.AuditLoginFailed, Actor: "who@example.com", IP: "198.51.100.2"}}, "A sign-in as who@example.com failed from 198.51.100.2"},
		{lead(entry(db.AuditStatusChange, "new → contacted")), "Sam Lee (sam@example.com) changed the status of J. D., Marietta from new to contacted"},
		{gone(entry(db.AuditStatusChange, "new → contacted")), "Sam Lee (sam@example.com) changed the status of a deleted lead from new to contacted"},
		{lead(entry(db.AuditLeadDetail, "")), "Sam Lee (sam@example.com) opened the details of J. D., Marietta"},
		{lead(entry(db.AuditLeadAssign, "to Crew Lead")), "Sam Lee (sam@example.com) assigned J. D., Marietta to Crew Lead"},
		{lead(entry("lead_reveal", "")), "Sam Lee (sam@example.com) revealed the phone number of J. D., Marietta to call or text"},
		{sam(entry(db.AuditExport, "status=new emergency=true (12 rows) with source")),
			"Sam Lee (sam@example.com) exported 12 leads to a spreadsheet (leads with status new, emergencies only), with where each came from"},
		{sam(entry(db.AuditListFull, "all leads page 2")), "Sam Lee (sam@example.com) viewed the full contact details of all leads, page 2"},
		{sam(entry(db.AuditSettingsSaved, "24/7 phone number, business hours")), "Sam Lee (sam@example.com) changed the settings: 24/7 phone number, business hours"},
		{sam(entry("content_publish", "service water-damage-restoration")), "Sam Lee (sam@example.com) published the service “water-damage-restoration”"},
		{sam(entry(db.AuditPrivacyExport, "2 leads: lead-1, lead-2")), "Sam Lee (sam@example.com) exported one person's data (2 leads)"},
		{db.AuditRow{AuditEntry: db.AuditEntry{Action: db.AuditUserCreated, Actor: "command line", Detail: "kim@example.com (staff)"}}, "The command line added the account kim@example.com (staff)"},
		{sam(entry("redirect_add", "redirect /old-page -> /services")), "Sam Lee (sam@example.com) sent visitors of /old-page on to /services"},
		{sam(entry("backup_download", "")), "Sam Lee (sam@example.com) downloaded a backup"},
		{sam(entry("something_new", "")), "Sam Lee (sam@example.com) did something this version of the site cannot describe"},
	} {
		if diff := cmp.Diff(c.want, Sentence(c.r)); diff != "" {
			t.Errorf("%s (-want, +got):\n%s", c.r.Action, diff)
		}
	}
}

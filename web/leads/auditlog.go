package leads

import (
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
)

// The Audit Log reads as sentences (ADR 039): every entry names its actor
// by account (email, with the display name beside it), the address it
// came from, and a lead by the homeowner's initials and city. The action
// codes never reach the screen: Sentence is the one place that turns an
// entry into words.

// AuditLine is one entry of GET /api/admin/audit.
type AuditLine struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
	// Who names the actor: "Sam Lee (sam@example.com)", an email, or
	// "The command line".
	Who string `json:"who"`
	// IP is the address the action came from ("" for the command line).
	IP string `json:"ip"`
	// Sentence says what happened, with Who as its subject.
	Sentence string `json:"sentence"`
}

// AuditPage is GET /api/admin/audit: a page of the audit log, newest
// first (q, page, perPage: web/paging).
type AuditPage struct {
	Entries []AuditLine `json:"entries"`
	paging.Info
}

// Audit answers a page of the audit log, each entry as a sentence. q
// matches who acted (the actor, the account's name and email), the lead's
// name and city, the entry's details and its address (db.Store.AuditPage).
func (h *Handler) Audit(c echo.Context) error {
	pg, err := paging.Parse(query(c), paging.DefaultPerPage)
	if err != nil {
		return err
	}
	rows, total, err := h.Store.AuditPage(c.Request().Context(), db.Page{Q: pg.Q, Limit: pg.Limit(), Offset: pg.Offset()})
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The audit log could not be loaded.", Err: err}
	}
	out := AuditPage{Entries: make([]AuditLine, 0, len(rows)), Info: pg.Info(total)}
	for _, r := range rows {
		out.Entries = append(out.Entries, AuditLine{ID: r.ID, At: r.At, Who: Who(r), IP: r.IP, Sentence: Sentence(r)})
	}
	return c.JSON(http.StatusOK, out)
}

// Who names an entry's actor: the account's display name with its email
// ("Sam Lee (sam@example.com)"), its email alone when the name adds
// nothing, the email recorded when the account is gone, or what did it
// ("The command line").
func Who(r db.AuditRow) string {
	email, name := r.ActorEmail, strings.TrimSpace(r.ActorName)
	if email == "" {
		switch {
		case r.Actor == "command line":
			return "The command line"
		case r.Actor == "site content import":
			return "The content import"
		case r.Actor == "" || r.Actor == "(unknown)":
			return "Someone"
		}
		return r.Actor
	}
	if name == "" || strings.EqualFold(name, email) {
		return email
	}
	return name + " (" + email + ")"
}

// LeadName is a lead as the log names it: the homeowner's initials and
// city ("J. D., Marietta"), or "a deleted lead".
func LeadName(r db.AuditRow) string {
	if !r.LeadFound {
		return "a deleted lead"
	}
	var initials []string
	for _, n := range []string{r.LeadFirst, r.LeadLast} {
		if c, _ := utf8.DecodeRuneInString(strings.TrimSpace(n)); c != utf8.RuneError {
			initials = append(initials, strings.ToUpper(string(c))+".")
		}
	}
	name := strings.Join(initials, " ")
	if name == "" {
		name = "a lead"
	}
	if city := strings.TrimSpace(r.LeadCity); city != "" {
		name += ", " + city
	}
	return name
}

// contentKinds name the content editor's kinds for people.
var contentKinds = map[string]string{"service": "the service", "city": "the city page", "county": "the county page", "article": "the article",
	"faq": "the questions", "home": "the home page", "words": "the words across the site", "profile": "the city profile", "category": "the category"}

// contentWhat names the item of a content entry: its detail is
// "kind slug (more)".
func contentWhat(detail string) string {
	kind, rest, _ := strings.Cut(detail, " ")
	slug, more, _ := strings.Cut(rest, " (")
	k, ok := contentKinds[kind]
	if !ok {
		k = "the " + kind
	}
	out := k
	if slug != "" {
		out += " “" + slug + "”"
	}
	if more = strings.TrimSuffix(more, ")"); more != "" {
		out += " (" + more + ")"
	}
	return out
}

// sentences turn an entry into the words after its actor. Every audit
// action has one (auditlog_test.go reads the action constants).
var sentences = map[string]func(r db.AuditRow) string{
	db.AuditLogin: func(r db.AuditRow) string {
		if r.Detail != "" {
			return "signed in " + r.Detail + from(r)
		}
		return "signed in" + from(r)
	},
	db.AuditLoginFailed: func(r db.AuditRow) string { return "failed to sign in" + from(r) },
	db.AuditListFull: func(r db.AuditRow) string {
		desc, page, _ := strings.Cut(r.Detail, " page ") // "status=new page 2"
		if page != "" && page != "1" {
			return "viewed the full contact details of " + filterWords(desc) + ", page " + page
		}
		return "viewed the full contact details of " + filterWords(desc)
	},
	db.AuditLeadDetail:        func(r db.AuditRow) string { return "opened the details of " + LeadName(r) },
	db.AuditExport:            exportSentence,
	db.AuditStatusChange:      statusSentence,
	db.AuditUserCreated:       func(r db.AuditRow) string { return "added the account " + r.Detail },
	db.AuditUserUpdated:       func(r db.AuditRow) string { return "changed the account " + r.Detail },
	db.AuditTwoFactorEnrolled: func(r db.AuditRow) string { return "set up two-factor sign-in" + from(r) },
	db.AuditTwoFactorFailed: func(r db.AuditRow) string {
		return "entered a wrong two-factor code" + paren(r.Detail) + from(r)
	},
	db.AuditRecoveryCodeUsed: func(r db.AuditRow) string { return "used a recovery code" + from(r) },
	db.AuditTwoFactorReset:   func(r db.AuditRow) string { return "reset the two-factor sign-in of " + r.Detail },
	db.AuditLeadNote:         func(r db.AuditRow) string { return "added a note to " + LeadName(r) + paren(r.Detail) },
	db.AuditLeadAssign: func(r db.AuditRow) string {
		if r.Detail == "unassigned" {
			return "took " + LeadName(r) + " off everyone's list"
		}
		return "assigned " + LeadName(r) + " " + r.Detail
	},
	db.AuditPushDeviceAdded:   func(r db.AuditRow) string { return "turned on new-lead alerts on " + orDevice(r.Detail) },
	db.AuditPushDeviceRemoved: func(r db.AuditRow) string { return "turned off new-lead alerts on " + orDevice(r.Detail) },
	db.AuditLeadDeleted:       func(r db.AuditRow) string { return "erased a lead at the homeowner's request" },
	db.AuditPrivacyExport: func(r db.AuditRow) string {
		n, _, _ := strings.Cut(r.Detail, ":") // "2 leads: id, id"
		return "exported one person's data" + paren(n)
	},
	db.AuditSettingsSaved: func(r db.AuditRow) string {
		if r.Detail == "" {
			return "saved the settings without changing them"
		}
		return "changed the settings: " + r.Detail
	},
	"content_publish":    func(r db.AuditRow) string { return "published " + contentWhat(r.Detail) },
	"content_schedule":   func(r db.AuditRow) string { return "scheduled " + contentWhat(r.Detail) },
	"content_unschedule": func(r db.AuditRow) string { return "cancelled the scheduled publishing of " + contentWhat(r.Detail) },
	"content_unpublish":  func(r db.AuditRow) string { return "took " + contentWhat(r.Detail) + " off the website" },
	"content_delete":     func(r db.AuditRow) string { return "deleted " + contentWhat(r.Detail) },
	"content_restore":    func(r db.AuditRow) string { return "restored an earlier version of " + contentWhat(r.Detail) },
	"content_create":     func(r db.AuditRow) string { return "created " + contentWhat(r.Detail) },
	"redirect_add": func(r db.AuditRow) string {
		from, to, _ := strings.Cut(strings.TrimPrefix(r.Detail, "redirect "), " -> ")
		return "sent visitors of " + from + " on to " + to
	},
	"redirect_delete": func(r db.AuditRow) string {
		return "removed the redirect from " + strings.TrimPrefix(r.Detail, "redirect ")
	},
	db.AuditJobPublish:   func(r db.AuditRow) string { return "put the job " + quoted(r.Detail) + " on the website" },
	db.AuditJobUnpublish: func(r db.AuditRow) string { return "took the job " + quoted(r.Detail) + " off the website" },
	db.AuditJobDelete:    func(r db.AuditRow) string { return "deleted the job " + quoted(r.Detail) },
	db.AuditJobNameConsent: func(r db.AuditRow) string {
		return "recorded that the homeowner agreed to show their name on the job " + quoted(r.Detail)
	},
	// Actions other parts of the admin record.
	"lead_reveal":            func(r db.AuditRow) string { return "revealed the phone number of " + LeadName(r) + " to call or text" },
	"backup_run":             func(r db.AuditRow) string { return "started a backup" + paren(r.Detail) },
	"backup_download":        func(r db.AuditRow) string { return "downloaded a backup" + paren(r.Detail) },
	"recovery_codes_renewed": func(r db.AuditRow) string { return "issued new recovery codes" + from(r) },
}

// Sentence is an entry in words: "ada@example.com signed in from
// 203.0.113.7", "Sam Lee (sam@example.com) changed the status of J. D.,
// Marietta from new to contacted". An action without a sentence (a newer
// server's, read by an older one) is still told without its code.
func Sentence(r db.AuditRow) string {
	who := Who(r)
	if r.Action == db.AuditLoginFailed && r.ActorEmail == "" && strings.Contains(r.Actor, "@") {
		return "A sign-in as " + r.Actor + " failed" + from(r)
	}
	if f, ok := sentences[r.Action]; ok {
		return who + " " + f(r)
	}
	return who + " did something this version of the site cannot describe" + paren(r.Detail)
}

// exportSentence reads the detail "status=new (119 rows) with source".
func exportSentence(r db.AuditRow) string {
	d, source := strings.CutSuffix(r.Detail, " with source")
	i := strings.LastIndex(d, " (")
	if i < 0 || !strings.HasSuffix(d, " rows)") {
		return "exported leads to a spreadsheet" + paren(r.Detail)
	}
	n := strings.TrimSuffix(d[i+2:], " rows)")
	out := "exported " + n + " leads to a spreadsheet (" + filterWords(d[:i]) + ")"
	if source {
		out += ", with where each came from"
	}
	return out
}

var filterKeyRE = regexp.MustCompile(`(?:^| )(q|status|damage_type|emergency|from|to)=`)

// filterWords reads a lead filter's description ("q=smith status=new
// emergency=true", leads.Filter.Describe) as words.
func filterWords(desc string) string {
	desc = strings.TrimSpace(desc)
	if desc == "" || desc == "all leads" {
		return "all leads"
	}
	idx := filterKeyRE.FindAllStringSubmatchIndex(desc, -1)
	if len(idx) == 0 {
		return desc
	}
	var parts []string
	for i, m := range idx {
		end := len(desc)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		key, val := desc[m[2]:m[3]], desc[m[1]:end]
		switch key {
		case "q":
			parts = append(parts, "matching “"+val+"”")
		case "status":
			parts = append(parts, "with status "+val)
		case "damage_type":
			parts = append(parts, strings.ReplaceAll(val, "_", " ")+" damage")
		case "emergency":
			if val == "true" {
				parts = append(parts, "emergencies only")
			} else {
				parts = append(parts, "no emergencies")
			}
		case "from":
			parts = append(parts, "from "+val)
		case "to":
			parts = append(parts, "to "+val)
		}
	}
	return "leads " + strings.Join(parts, ", ")
}

// statusSentence reads the detail "new → contacted".
func statusSentence(r db.AuditRow) string {
	before, after, ok := strings.Cut(r.Detail, " → ")
	if !ok {
		return "changed the status of " + LeadName(r) + paren(r.Detail)
	}
	return "changed the status of " + LeadName(r) + " from " + before + " to " + after
}

func from(r db.AuditRow) string {
	if r.IP == "" {
		return ""
	}
	return " from " + r.IP
}

func paren(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return ""
	}
	return " (" + s + ")"
}

func orDevice(label string) string {
	if strings.TrimSpace(label) == "" {
		return "a device"
	}
	return label
}

// quoted is a title in curly quotes.
func quoted(s string) string { return "“" + s + "”" }

// Command tsgen writes the TypeScript files generated from Go types
// (package tsgen), one per list of types (files):
//
//   - admin/api.gen.ts: the answers the admin API sends (wireTypes);
//   - components/props.gen.ts: the public pages' props, as the server
//     hands them to the renderer (propTypes, props.go).
//
// The admin app and the public pages import their types from these
// files; `make test` fails when a committed file differs from what the
// Go types generate (TestGeneratedFileIsCurrent). Run it after changing
// one of those Go types:
//
//	go run ./cmd/tsgen
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/backup"
	bookingrules "github.com/atlanta-restoration/site/booking"
	"github.com/atlanta-restoration/site/content"
	"github.com/atlanta-restoration/site/editor"
	"github.com/atlanta-restoration/site/health"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/schemacheck"
	"github.com/atlanta-restoration/site/securitycheck"
	"github.com/atlanta-restoration/site/seoaudit"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/tsgen"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/audits"
	"github.com/atlanta-restoration/site/web/auth"
	backupsweb "github.com/atlanta-restoration/site/web/backups"
	bookingweb "github.com/atlanta-restoration/site/web/booking"
	"github.com/atlanta-restoration/site/web/dashboard"
	editorweb "github.com/atlanta-restoration/site/web/editor"
	feedbackweb "github.com/atlanta-restoration/site/web/feedback"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
	"github.com/atlanta-restoration/site/web/leadfiles"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
	"github.com/atlanta-restoration/site/web/leadstream"
	mediaweb "github.com/atlanta-restoration/site/web/media"
	portalweb "github.com/atlanta-restoration/site/web/portal"
	"github.com/atlanta-restoration/site/web/push"
	"github.com/atlanta-restoration/site/web/runjob"
	settingsweb "github.com/atlanta-restoration/site/web/settings"
	workweb "github.com/atlanta-restoration/site/web/work"
	"github.com/atlanta-restoration/site/work"
)

// file is one generated TypeScript file.
type file struct {
	// Out is the file, relative to the repository root.
	Out string
	// header opens the file; prelude, when set, follows it (types that
	// are not a Go struct's).
	header  string
	prelude func() string
	types   []tsgen.Type
}

// files are the generated files.
var files = []file{
	{Out: "admin/api.gen.ts", header: adminHeader, prelude: kinds, types: wireTypes},
	{Out: "components/props.gen.ts", header: propsHeader, types: propTypes},
}

// wireTypes are the admin API's answers, under the names the admin app
// reads them by. A struct they reach that is not listed is written under
// its Go name.
var wireTypes = []tsgen.Type{
	// Sign-in and sessions (web/auth).
	tsgen.Of("Session", auth.Session{}),
	tsgen.Of("SessionRow", auth.SessionRow{}),
	tsgen.Of("SessionList", auth.SessionList{}),
	tsgen.Of("UnlockResult", auth.UnlockResult{}),
	tsgen.Of("LoginResult", auth.LoginResult{}),
	tsgen.Of("RecoveryCodesInfo", auth.RecoveryCodesInfo{}),
	tsgen.Of("Enrolment", auth.Enrolment{}),
	// Users and leads (web/leads, leads).
	tsgen.Of("User", leadsweb.UserRow{}),
	tsgen.Of("UserList", leadsweb.UserList{}),
	tsgen.Of("UserAnswer", leadsweb.UserAnswer{}),
	tsgen.Of("Account", leadsweb.Account{}),
	tsgen.Of("AuditPage", leadsweb.AuditPage{}),
	tsgen.Of("AuditEntry", leadsweb.AuditLine{}),
	tsgen.Of("TimelineEntry", leads.Event{}),
	tsgen.Of("Attribution", leads.AttributionView{}),
	tsgen.Of("LeadWork", leadsweb.LeadWork{}),
	tsgen.Of("Assignee", leadsweb.Assignee{}),
	tsgen.Of("EventAnswer", leadsweb.EventAnswer{}),
	tsgen.Of("ResponseWindow", leadsweb.ResponseWindow{}),
	tsgen.Of("ResponseFigures", leadsweb.ResponseFigures{}),
	tsgen.Of("AttentionAnswer", leadsweb.AttentionAnswer{}),
	tsgen.Of("TodayFigures", leadsweb.TodayFigures{}),
	tsgen.Of("Waiting", leads.Waiting{}),
	tsgen.Of("Contact", leads.Contact{}),
	tsgen.Of("LeadList", leadsweb.LeadList{}),
	tsgen.Of("LeadAnswer", leadsweb.LeadAnswer{}),
	tsgen.Of("LeadMasked", leads.Masked{}),
	tsgen.Of("LeadFull", leads.Full{}),
	tsgen.Of("PersonExport", leads.PersonExport{}),
	tsgen.Of("PersonRecord", leads.PersonRecord{}),
	tsgen.Of("ErasedAnswer", leadsweb.ErasedAnswer{}),
	// A change the lead stream announces (GET /api/admin/leads/events).
	tsgen.Of("LeadChange", leadstream.Change{}),
	// SEO & IndexNow (web/indexnow, seoaudit).
	tsgen.Of("RouteInfo", indexnowweb.RouteInfo{}),
	tsgen.Of("Submission", indexnowweb.Submission{}),
	tsgen.Of("KeyInfo", indexnowweb.IndexNowKey{}),
	tsgen.Of("PageResult", seoaudit.PageResult{}),
	tsgen.Of("AuditCheck", seoaudit.Check{}),
	tsgen.Of("AuditRun", seoaudit.Run{}),
	tsgen.Of("SeoAuditData", audits.SEOAuditReport{}),
	tsgen.Of("LocationBrief", audits.LocationBrief{}),
	tsgen.Of("PageAudit", seoaudit.PageAudit{}),
	tsgen.Of("ComplianceCheck", seoaudit.ComplianceCheck{}),
	tsgen.Of("ThinPagesData", seoaudit.ThinReport{}),
	tsgen.Of("ThinPage", seoaudit.ThinPage{}),
	tsgen.Of("ThinFix", seoaudit.Fix{}),
	tsgen.Of("RoutesInfo", indexnowweb.RoutesInfo{}),
	tsgen.Of("HealthReport", indexnowweb.HealthReport{}),
	tsgen.Of("HealthSummary", indexnowweb.HealthSummary{}),
	tsgen.Of("HealthRun", health.Run{}),
	tsgen.Of("UrlHealth", health.Result{}),
	tsgen.Of("SubmissionPage", indexnowweb.SubmissionPage{}),
	tsgen.Of("IndexNowSubmitted", indexnowweb.IndexNowSubmitted{}),
	// A run press on any of the scans (web/runjob).
	tsgen.Of("Queued", runjob.Queued{}),
	// Location Pages (web/audits).
	tsgen.Of("LocationsData", audits.LocationsInfo{}),
	tsgen.Of("LocationsSummary", audits.LocationsSummary{}),
	tsgen.Of("LocationCounty", audits.LocationCounty{}),
	tsgen.Of("LocationCity", audits.LocationCity{}),
	tsgen.Of("LocationPage", audits.LocationPage{}),
	tsgen.Of("LocationDraft", audits.LocationDraft{}),
	// Schema Management (web/audits, schemacheck).
	tsgen.Of("SchemaData", audits.SchemaReport{}),
	tsgen.Of("SchemaRun", schemacheck.Run{}),
	tsgen.Of("SchemaCards", audits.SchemaCards{}),
	tsgen.Of("SchemaTypeResult", schemacheck.TypeSummary{}),
	tsgen.Of("SchemaMessage", schemacheck.Message{}),
	tsgen.Of("SchemaPage", schemacheck.PageResult{}),
	tsgen.Of("SchemaFinding", schemacheck.Finding{}),
	tsgen.Of("SchemaTemplate", audits.SchemaTemplate{}),
	tsgen.Of("GeneratorOptions", audits.GeneratorOptions{}),
	tsgen.Of("GeneratorType", audits.GeneratorType{}),
	tsgen.Of("GeneratorPage", audits.GeneratorPage{}),
	tsgen.Of("Generated", audits.Generated{}),
	// Security Scanner (web/audits, securitycheck).
	tsgen.Of("SecurityReport", audits.SecurityReport{}),
	tsgen.Of("ScanInfo", securitycheck.Scan{}),
	tsgen.Of("SecurityCheck", securitycheck.CheckResult{}),
	tsgen.Of("Vulnerability", securitycheck.Vulnerability{}),
	tsgen.Of("VulnerabilityAnswer", audits.VulnerabilityAnswer{}),
	tsgen.Of("MonitoringItem", audits.MonitoringItem{}),
	tsgen.Of("HardeningItem", securitycheck.HardeningItem{}),
	tsgen.Of("HardeningConfig", securitycheck.ConfigPanel{}),
	// Dashboard (web/dashboard).
	tsgen.Of("NotificationsStatus", dashboard.NotificationsStatus{}),
	tsgen.Of("NotificationRow", dashboard.NotificationRow{}),
	tsgen.Of("Activity", dashboard.ActivityLine{}),
	tsgen.Of("ActivityList", dashboard.ActivityList{}),
	tsgen.Of("Overview", dashboard.Overview{}),
	tsgen.Of("DashboardTile", dashboard.Tile{}),
	tsgen.Of("BackupStatus", dashboard.BackupStatus{}),
	tsgen.Of("ToolList", dashboard.Tools{}),
	tsgen.Of("ToolStatus", dashboard.ToolStatus{}),
	// Backups (web/backups, backup).
	tsgen.Of("BackupList", backupsweb.List{}),
	tsgen.Of("BackupEntry", backup.Entry{}),
	tsgen.Of("RunningBackup", backup.InProgress{}),
	tsgen.Of("RunAnswer", backupsweb.RunAnswer{}),
	tsgen.Of("JobList", workweb.JobList{}),
	tsgen.Of("JobRow", workweb.JobRow{}),
	tsgen.Of("JobDetail", workweb.JobDetail{}),
	tsgen.Of("JobPhoto", workweb.JobPhoto{}),
	tsgen.Of("JobChoices", workweb.JobChoices{}),
	tsgen.Of("JobRules", workweb.Rules{}),
	tsgen.Of("JobCity", work.City{}),
	tsgen.Of("JobService", work.Service{}),
	tsgen.Of("JobFields", work.Fields{}),
	// System Settings (web/settings, settings).
	tsgen.Of("SettingsAnswer", settingsweb.Answer{}),
	tsgen.Of("ReviewFigures", settings.ReviewFiguresInfo{}),
	tsgen.Of("ReviewFiguresInUse", reviews.Figures{}),
	tsgen.Of("PhoneUses", settings.PhoneUses{}),
	tsgen.Of("NumberUses", settings.NumberUses{}),
	tsgen.Of("KindUse", settings.KindUse{}),
	tsgen.Of("OtherNumber", settings.OtherNumber{}),
	// Push devices (web/push).
	tsgen.Of("PushKey", push.Key{}),
	tsgen.Of("Device", push.Device{}),
	tsgen.Of("DeviceList", push.DeviceList{}),
	tsgen.Of("AccountDevice", push.AccountDevice{}),
	tsgen.Of("AllDevices", push.AllDevices{}),
	tsgen.Of("DeviceAnswer", push.DeviceAnswer{}),
	// Analytics and Core Web Vitals (web/analytics, analytics).
	tsgen.Of("AnalyticsAnswer", analyticsweb.AnalyticsAnswer{}),
	tsgen.Of("LeadCounts", analytics.LeadCounts{}),
	tsgen.Of("PreviousPeriod", analytics.Previous{}),
	tsgen.Of("SourceRow", analytics.SourceRow{}),
	tsgen.Of("GeographyRow", analytics.AreaRow{}),
	tsgen.Of("PageRow", analytics.PageRow{}),
	tsgen.Of("Goals", analyticsweb.Goals{}),
	tsgen.Of("VitalsReport", analyticsweb.VitalsReport{}),
	tsgen.Of("KindRow", analytics.VitalRow{}),
	tsgen.Of("LeadSourceRow", analytics.LeadSourceRow{}),
	tsgen.Of("CallPageRow", analytics.CallPageRow{}),
	// Content, media and redirects (web/editor, editor, content, media).
	tsgen.Of("ItemView", editorweb.ItemView{}),
	tsgen.Of("ItemDetail", editorweb.ItemDetail{}),
	tsgen.Of("ItemList", editorweb.ItemList{}),
	tsgen.Of("ConflictAnswer", editorweb.ConflictAnswer{}),
	tsgen.Of("InvalidAnswer", editorweb.InvalidAnswer{}),
	tsgen.Of("History", editorweb.History{}),
	tsgen.Of("RevisionView", editor.RevisionView{}),
	tsgen.Of("FieldDiff", editor.FieldDiff{}),
	tsgen.Of("DiffLine", editor.DiffLine{}),
	tsgen.Of("Guidance", editor.Guidance{}),
	tsgen.Of("ContentProblem", content.Problem{}),
	tsgen.Of("Derived", content.Derived{}),
	tsgen.Of("Referrer", editor.Referrer{}),
	tsgen.Of("ReferrerList", editorweb.Referrers{}),
	tsgen.Of("ReferencedAnswer", editorweb.ReferencedAnswer{}),
	tsgen.Of("DeletedAnswer", editorweb.Deleted{}),
	tsgen.Of("MediaItem", media.GalleryItem{}),
	tsgen.Of("MediaLibrary", mediaweb.Library{}),
	tsgen.Of("RedirectList", editorweb.RedirectList{}),
	tsgen.Of("RedirectRow", editorweb.RedirectRow{}),
	tsgen.Of("NotFoundList", editorweb.NotFoundList{}),
	tsgen.Of("NotFoundPath", editorweb.NotFoundPath{}),
	// Testimonials and review requests (web/feedback, ADR 063).
	tsgen.Of("TestimonialList", feedbackweb.TestimonialList{}),
	tsgen.Of("TestimonialItem", feedbackweb.TestimonialItem{}),
	tsgen.Of("ReviewSettings", feedbackweb.ReviewSettings{}),
	// A lead's private links and the steps of the work (web/portal, ADR 065).
	tsgen.Of("LinkList", portalweb.LinkList{}),
	tsgen.Of("LinkItem", portalweb.LinkItem{}),
	tsgen.Of("IssuedLink", portalweb.IssuedLink{}),
	tsgen.Of("ProgressAnswer", portalweb.ProgressAnswer{}),
	// A lead's files (web/leadfiles, ADR 067).
	tsgen.Of("LeadFiles", leadfiles.LeadFiles{}),
	tsgen.Of("LeadFileItem", leadfiles.LeadFileItem{}),
	tsgen.Of("ShareablePhoto", leadfiles.ShareablePhoto{}),
	tsgen.Of("FileKind", leadfiles.FileKind{}),
	tsgen.Of("FileRemoved", leadfiles.FileRemoved{}),
	// Inspection booking (web/booking, ADR 066).
	tsgen.Of("BookingAvailability", bookingrules.Availability{}),
	tsgen.Of("BookingDayHours", bookingrules.DayHours{}),
	tsgen.Of("AvailabilityAnswer", bookingweb.AvailabilityAnswer{}),
	tsgen.Of("VisitsAnswer", bookingweb.VisitsAnswer{}),
	tsgen.Of("VisitDay", bookingweb.VisitDay{}),
	tsgen.Of("VisitItem", bookingweb.VisitItem{}),
	tsgen.Of("SlotChoice", bookingweb.SlotChoice{}),
	tsgen.Of("MoveVisitRequest", bookingweb.MoveRequest{}),
}

// overrides give the TypeScript of the types that encode themselves.
var overrides = map[reflect.Type]string{
	// A settings form value is sent as its text.
	reflect.TypeOf(settings.FormValue{}): "string",
}

const adminHeader = `// Code generated by go run ./cmd/tsgen; DO NOT EDIT.
// The admin API's answers as the Go types send them (cmd/tsgen lists
// which). Change the Go type, then run go run ./cmd/tsgen.

`

// generate returns the file's text.
func (f file) generate() (string, error) {
	g := &tsgen.Generator{Overrides: overrides}
	body, err := g.Generate(f.types)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.Out, err)
	}
	pre := ""
	if f.prelude != nil {
		pre = f.prelude()
	}
	return f.header + pre + body, nil
}

func main() {
	root, err := findRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	for _, f := range files {
		src, err := f.generate()
		if err != nil {
			fmt.Fprintln(os.Stderr, "tsgen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(root, f.Out), []byte(src), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "tsgen:", err)
			os.Exit(1)
		}
	}
}

// kinds declares Kind, the content kinds (content.Kinds), which the
// editor's answers name in their kind fields.
func kinds() string {
	var quoted []string
	for _, k := range content.Kinds {
		quoted = append(quoted, "'"+k+"'")
	}
	return "/** content.Kinds */\nexport type Kind = " + strings.Join(quoted, " | ") + ";\n\n"
}

// findRoot is the repository root: the nearest folder up with go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = up
	}
}

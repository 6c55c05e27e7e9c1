package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	analyticsweb "github.com/atlanta-restoration/site/web/analytics"
	"github.com/atlanta-restoration/site/web/audits"
	"github.com/atlanta-restoration/site/web/auth"
	backupsweb "github.com/atlanta-restoration/site/web/backups"
	bookingweb "github.com/atlanta-restoration/site/web/booking"
	"github.com/atlanta-restoration/site/web/dashboard"
	editorweb "github.com/atlanta-restoration/site/web/editor"
	"github.com/atlanta-restoration/site/web/estimate"
	feedbackweb "github.com/atlanta-restoration/site/web/feedback"
	indexnowweb "github.com/atlanta-restoration/site/web/indexnow"
	"github.com/atlanta-restoration/site/web/leadfiles"
	leadsweb "github.com/atlanta-restoration/site/web/leads"
	mediaweb "github.com/atlanta-restoration/site/web/media"
	"github.com/atlanta-restoration/site/web/pages"
	portalweb "github.com/atlanta-restoration/site/web/portal"
	"github.com/atlanta-restoration/site/web/push"
	settingsweb "github.com/atlanta-restoration/site/web/settings"
	workweb "github.com/atlanta-restoration/site/web/work"
)

// rooms are the HTTP rooms: each capability's handlers, holding the few
// interfaces they need. New builds them; install routes to them.
type rooms struct {
	pages         *pages.Handler        // public pages, search, assets, sitemap, reviews API
	estimate      *estimate.Handler     // the estimate form's posts
	analyticsRoom *analyticsweb.Handler // analytics beacons and screens
	auth          *auth.Service         // sign-in, sessions, capabilities
	mediaRoom     *mediaweb.Handler     // the upload tool and /media/*
	leadsRoom     *leadsweb.Handler     // leads, users, audit log
	settingsRoom  *settingsweb.Handler  // System Settings
	indexnowRoom  *indexnowweb.Handler  // IndexNow, health monitor, routes
	audits        *audits.Handler       // SEO audit, security, schema, locations
	dashboard     *dashboard.Handler    // tiles, activity, notifications
	editorRoom    *editorweb.Handler    // content, preview, redirects, 404 monitor
	push          *push.Handler         // Web Push devices, the admin app's manifest and service worker
	backupsRoom   *backupsweb.Handler   // the Backups screen: back up now, downloads
	workRoom      *workweb.Handler      // the Jobs screen: jobs, their photos, publishing
	feedbackRoom  *feedbackweb.Handler  // review requests: the feedback page, testimonials
	portalRoom    *portalweb.Handler    // a lead's private links: the job page, the insurer's view
	leadFilesRoom *leadfiles.Handler    // a lead's files and the homeowner's messages
	bookingRoom   *bookingweb.Handler   // inspection booking: the homeowner's booking, availability, visits
}

// install lists every route the site answers, with its guard: public,
// or an admin session with a capability (web/auth, docs/admin-auth-api.md).
// Routes are registered one by one, never through a group, so no
// catch-all can shadow another and nothing depends on their order.
func (s *Server) install(e *echo.Echo) {
	a := s.auth
	any := a.Require()                 // any live, finished admin session
	tools := a.Require(accounts.Tools) // the PIN's tools (and admins')
	media := a.Require(accounts.MediaWrite)
	settings := a.Require(accounts.SettingsWrite)
	users := a.Require(accounts.UsersManage)
	restricted := &StatusError{Status: http.StatusForbidden, Title: "Access Restricted", Message: "Only admins can view full lead details"}
	exportRestricted := &StatusError{Status: http.StatusForbidden, Title: "Export Restricted", Message: "Only admins can export lead data"}

	// Operations: health, and metrics for a scraper with METRICS_TOKEN
	// or on this machine
	getHead(e, "/healthz", s.healthz)
	e.GET("/metrics", s.serveMetrics, s.requireMetrics)

	// Crawlers: generated from the route table
	pg := s.pages
	getHead(e, "/sitemap.xml", pg.Sitemap())
	getHead(e, "/robots.txt", pg.Robots())

	// Hashed client assets, static files, stored media
	getHead(e, "/assets/*", pg.Asset)
	for _, name := range pg.StaticPaths() {
		getHead(e, name, pg.Static)
	}
	getHead(e, "/media/*", s.mediaRoom.Serve)
	// The IndexNow key file: a middleware, not a route ("/:keyfile" would
	// take every one-segment page from the page catch-all).
	ix := s.indexnowRoom
	e.Use(ix.KeyFile)

	// Service worker and the offline page it precaches
	getHead(e, "/sw.js", pg.ServiceWorker)
	getHead(e, pages.OfflinePath, pg.Offline)
	// The admin app's own manifest and service worker (scope /admin/):
	// public files, as the browser fetches them without credentials.
	getHead(e, push.ManifestPath, s.push.WebManifest)
	getHead(e, push.WorkerPath, s.push.Worker)

	// Public forms and JSON
	e.POST("/estimate", s.estimate.Post)            // no JavaScript
	e.POST("/api/estimate", s.estimate.Post)        // inline
	e.POST("/api/collect", s.analyticsRoom.Collect) // analytics beacons
	getHead(e, "/api/reviews", pg.ReviewList)
	e.POST("/api/reviews/refresh", pg.RefreshReviews)
	// The private feedback page of a review request (ADR 063): its token
	// is its key; noindex, no-store, in no sitemap.
	fb := s.feedbackRoom
	getHead(e, "/feedback/:token", fb.Show)
	e.POST("/feedback/:token", fb.Save)
	getHead(e, "/feedback/:token/stop", fb.StopPage)
	e.POST("/feedback/:token/stop", fb.Stop) // also RFC 8058's one-click
	// The homeowner's job page and an insurer's read-only view (ADR 065):
	// the token is the key; lookups limited per client; noindex,
	// no-store, no-referrer, in no sitemap.
	pt := s.portalRoom
	getHead(e, "/my/:token", pt.Home)
	getHead(e, "/my/:token/stop", pt.StopPage)
	e.POST("/my/:token/stop", pt.Stop) // also RFC 8058's one-click
	getHead(e, "/claim/:token", pt.Claim)
	// A lead's files on the homeowner's and the adjuster's private pages
	// (ADR 067): the link's token is the key, for its own lead only; the
	// adjuster's page sends nothing. /my/{token}/files and
	// /claim/{token}/files show the section alone until the pages
	// themselves carry it.
	lf := s.leadFilesRoom
	e.POST("/my/:token/photos", lf.Photos)
	e.POST("/my/:token/messages", lf.Message)
	getHead(e, "/my/:token/files", lf.HomeownerPage)
	getHead(e, "/my/:token/files/:id", lf.HomeownerFile)
	getHead(e, "/claim/:token/files", lf.AdjusterPage)
	getHead(e, "/claim/:token/files/:id", lf.AdjusterFile)
	// A homeowner's inspection booking (ADR 066), under their private
	// page: the link's token is its key; noindex, no-store, plain forms.
	book := s.bookingRoom
	getHead(e, "/my/:token/booking", book.Show)
	e.POST("/my/:token/booking", book.Book)
	e.POST("/my/:token/booking/cancel", book.Cancel)
	getHead(e, "/my/:token/booking.ics", book.ICSFile)

	// Admin: signing in and sessions (web/auth)
	e.POST("/api/admin/unlock", a.Unlock)
	e.POST("/api/admin/login", a.Login)
	e.POST("/api/admin/login/totp", a.LoginCode)
	e.POST("/api/admin/2fa/start", a.StartEnrolment)
	e.POST("/api/admin/2fa/confirm", a.ConfirmEnrolment)
	e.GET("/api/admin/2fa/recovery-codes", a.RecoveryCodesLeft, any)
	e.POST("/api/admin/2fa/recovery-codes", a.RenewRecoveryCodes, any)
	e.GET("/api/admin/session", a.Current)
	e.POST("/api/admin/logout", a.Logout)
	e.GET("/api/admin/sessions", a.ListSessions, any)
	e.DELETE("/api/admin/sessions/:id", a.RevokeSession, any)

	// Admin: media
	up := s.mediaRoom
	e.GET("/api/admin/media", up.List, media)
	e.POST("/api/admin/media", up.Upload, media)
	e.DELETE("/api/admin/media/:id", up.Delete, media)
	e.PATCH("/api/admin/media/:id", up.SaveText, media)
	e.PUT("/api/admin/media/:id/portfolio", up.SetPortfolio, media) // project work or library only
	e.PUT("/api/admin/media/:id/poster", up.PutPoster, media)

	// Admin: jobs (web/work, ADR 061). Staff, editors, admins and the PIN
	// create jobs and add their photos; publishing, and any change to a
	// job on the site (checked in the room), follows the content roles.
	// /api/admin/jobs is the background jobs' activity, so these are
	// under /api/admin/work.
	wk := s.workRoom
	jobs := a.Require(accounts.JobsWrite)
	e.GET("/api/admin/work", wk.List, jobs)
	e.POST("/api/admin/work", wk.Create, jobs)
	e.GET("/api/admin/work/choices", wk.Choices, jobs)
	e.GET("/api/admin/work/:id", wk.Get, jobs)
	e.PUT("/api/admin/work/:id", wk.Save, jobs)
	e.DELETE("/api/admin/work/:id", wk.Delete, jobs)
	e.POST("/api/admin/work/:id/photos", wk.AddPhoto, jobs)
	e.PUT("/api/admin/work/:id/photos/:media", wk.AddPhoto, jobs)
	e.DELETE("/api/admin/work/:id/photos/:media", wk.RemovePhoto, jobs)
	e.POST("/api/admin/work/:id/publish", wk.Publish, a.Require(accounts.ContentEdit))
	e.POST("/api/admin/work/:id/unpublish", wk.Unpublish, a.Require(accounts.ContentEdit))

	// Admin: settings. The PIN reads them (and where the phone numbers
	// appear); only an admin account with its second factor saves (the
	// handler checks the second factor, ADR 039).
	st := s.settingsRoom
	e.GET("/api/admin/settings", st.Get, tools)
	e.GET("/api/admin/settings/phone-uses", st.Uses, tools)
	e.PUT("/api/admin/settings", st.Put, settings)

	// Admin: tools (dashboards, audits, scans, IndexNow, jobs)
	d, au := s.dashboard, s.audits
	e.GET("/api/admin/overview", d.Overview, tools)
	e.GET("/api/admin/tools", d.Tools, tools) // the tool cards' statuses
	e.GET("/api/admin/routes", ix.Routes, tools)
	// Location Pages opens the content editor: an account that may edit
	// content (admin, editor), as the screen's manifest entry says
	e.GET("/api/admin/locations", au.Locations, a.RequireAny(accounts.Tools, accounts.ContentEdit)) // the PIN's figures; an editor's pages
	e.GET("/api/admin/notifications", d.Notifications, tools)
	e.GET("/api/admin/jobs", d.Activity, tools)
	e.GET("/api/admin/health", ix.Health, tools)
	e.POST("/api/admin/health/run", ix.RunHealth(), tools)
	e.GET("/api/admin/seo-audit", au.SEOAudit, tools)
	e.GET("/api/admin/seo-audit/page", au.SEOAuditPage, tools)
	e.POST("/api/admin/seo-audit/run", au.RunSEOAudit(), tools)
	e.GET("/api/admin/seo-audit/thin-pages", au.ThinPages, tools)
	e.GET("/api/admin/security", au.Security, tools)
	e.POST("/api/admin/security/scan", au.RunSecurityScan(), tools)
	e.PUT("/api/admin/security/vulnerabilities/:id", au.SetVulnerability, tools)
	e.GET("/api/admin/schema", au.Schema, tools)
	e.POST("/api/admin/schema/validate", au.ValidateSchema(), tools)
	e.GET("/api/admin/schema/generator", au.SchemaGenerator, tools) // the generator's pages per type
	e.GET("/api/admin/schema/generate", au.GenerateSchema, tools)   // the JSON-LD a page serves now
	in := s.analyticsRoom
	e.GET("/api/admin/analytics", in.Report, tools)
	e.PUT("/api/admin/analytics/goals", in.PutGoals, tools)
	e.GET("/api/admin/vitals", in.Vitals, tools)
	e.GET("/api/admin/indexnow/key", ix.GetKey, tools)
	e.PUT("/api/admin/indexnow/key", ix.PutKey, tools)
	e.POST("/api/admin/indexnow/submit", ix.Submit, tools)
	e.GET("/api/admin/indexnow/submissions", ix.Submissions, tools)

	// Admin: the Secure Leads Manager (spec 6: staff masked, admins full)
	lm := s.leadsRoom
	e.GET("/api/admin/leads", lm.List, a.Require(accounts.LeadsRead))
	e.GET("/api/admin/leads/export.csv", lm.Export, a.RequireOr(exportRestricted, accounts.LeadsRead, accounts.LeadsFull))
	e.GET("/api/admin/leads/:id", lm.Detail, a.RequireOr(restricted, accounts.LeadsRead, accounts.LeadsFull))
	e.PATCH("/api/admin/leads/:id", lm.SetStatus, a.Require(accounts.LeadsStatus))
	// Working a lead: staff add notes, admins also assign;
	// the timeline and the first response figures for both.
	e.GET("/api/admin/leads/response-times", lm.ResponseTimes, a.Require(accounts.LeadsRead))
	// Live (ADR 041): which lead changed, never its data.
	e.GET("/api/admin/leads/events", s.leadStream.Stream, a.Require(accounts.LeadsRead))
	e.GET("/api/admin/leads/:id/work", lm.Work, a.Require(accounts.LeadsRead))
	e.POST("/api/admin/leads/:id/notes", lm.AddNote, a.Require(accounts.LeadsNote))
	e.PUT("/api/admin/leads/:id/assignee", lm.Assign, a.Require(accounts.LeadsAssign))
	// A lead's private links and the steps of the work (ADR 065): staff
	// and admins; the steps are status changes, and tell the homeowner.
	share := a.Require(accounts.LeadsShare)
	e.GET("/api/admin/leads/:id/links", pt.Links, share)
	e.POST("/api/admin/leads/:id/links", pt.IssueAdjuster, share)
	e.DELETE("/api/admin/leads/:id/links/:link", pt.Revoke, share)
	e.DELETE("/api/admin/leads/:id/home-links", pt.RevokeHome, share)
	e.POST("/api/admin/leads/:id/progress", pt.Progress, a.Require(accounts.LeadsStatus))
	// A lead's files (ADR 067): admins on every lead, staff on the
	// leads assigned to them (checked in the room).
	files := a.Require(accounts.LeadsFiles)
	e.GET("/api/admin/leads/:id/files", lf.List, files)
	e.POST("/api/admin/leads/:id/files", lf.Upload, files)
	e.GET("/api/admin/leads/:id/files/:file", lf.Download, files)
	e.PUT("/api/admin/leads/:id/files/shared/:media", lf.Share, files)
	e.DELETE("/api/admin/leads/:id/files/:file", lf.Remove, files)
	// Leads first: the dashboard's unanswered leads and today's figures
	// (masked as the list is); an admin's Call or Text reveals one lead's
	// number, audited (staff: 'Access Restricted').
	e.GET("/api/admin/leads/attention", lm.Attention, a.Require(accounts.LeadsRead))
	e.POST("/api/admin/leads/:id/reveal", lm.Reveal, a.RequireOr(restricted, accounts.LeadsRead, accounts.LeadsFull))
	// Privacy requests: admins only, audited without the
	// person's contact data.
	erase := a.Require(accounts.LeadsErase)
	e.GET("/api/admin/leads/person", lm.ExportPerson, erase)
	e.DELETE("/api/admin/leads/:id", lm.DeleteLead, erase)
	e.GET("/api/admin/users", lm.Users, users)
	e.POST("/api/admin/users", lm.CreateUser, users)
	e.PATCH("/api/admin/users/:id", lm.UpdateUser, users)
	e.GET("/api/admin/audit", lm.Audit, users)

	// Admin: content editing (docs/content-api.md): accounts whose role
	// may edit (admin, editor); the PIN may not, as a publish names who
	// made it (ADR 035)
	content := a.Require(accounts.ContentEdit)
	ed := s.editorRoom
	e.GET("/api/admin/content", ed.List, content)
	e.POST("/api/admin/content", ed.Create, content)
	e.GET("/api/admin/content/:id", ed.Get, content)
	e.PUT("/api/admin/content/:id", ed.Save, content)
	e.DELETE("/api/admin/content/:id", ed.Delete, content)
	e.POST("/api/admin/content/:id/publish", ed.Publish, content)
	e.POST("/api/admin/content/:id/schedule", ed.Schedule, content)
	e.POST("/api/admin/content/:id/unschedule", ed.Unschedule, content)
	e.POST("/api/admin/content/:id/unpublish", ed.Unpublish, content)
	e.POST("/api/admin/content/:id/restore", ed.Restore, content)
	e.GET("/api/admin/content/:id/revisions", ed.Revisions, content)
	e.GET("/api/admin/content/:id/guidance", ed.Guidance, content)
	e.GET("/api/admin/content/:id/referrers", ed.Referrers, content)
	getHead(e, "/admin/preview/:id", content(ed.Preview)) // a private page: noindex, no-store
	e.GET("/api/admin/redirects", ed.Redirects, content)
	e.POST("/api/admin/redirects", ed.AddRedirect, content)
	e.DELETE("/api/admin/redirects", ed.DeleteRedirect, content)
	e.GET("/api/admin/not-found", ed.NotFound, content)
	// Testimonials: publishing them follows the content roles; the
	// review request's delay and link are System Settings' (admins).
	e.GET("/api/admin/testimonials", fb.List, content)
	e.PATCH("/api/admin/testimonials/:id", fb.Moderate, content)
	e.GET("/api/admin/review-requests", fb.Settings, content)
	e.PUT("/api/admin/review-requests", fb.SaveSettings, settings)
	// Admin: inspection booking (ADR 066). The availability is read as
	// the settings are and saved as they are; the visits are the leads'.
	e.GET("/api/admin/booking", book.Availability, tools)
	e.PUT("/api/admin/booking", book.SaveAvailability, settings)
	e.GET("/api/admin/visits", book.Visits, a.Require(accounts.LeadsRead))
	e.PATCH("/api/admin/visits/:id", book.MoveVisit, a.Require(accounts.LeadsStatus))

	// Admin: Web Push of new leads to one's own devices:
	// accounts that may read leads, never the PIN; every account's
	// devices for admins. A device is removed by its own account only.
	pu := s.push
	e.GET("/api/admin/push/key", pu.Key, a.Require(accounts.PushSubscribe))
	e.POST("/api/admin/push/subscriptions", pu.Subscribe, a.Require(accounts.PushSubscribe))
	e.GET("/api/admin/push/devices", pu.Devices, a.Require(accounts.PushSubscribe))
	e.DELETE("/api/admin/push/devices/:id", pu.Remove, a.Require(accounts.PushSubscribe))
	e.GET("/api/admin/push/devices/all", pu.AllDevices, a.Require(accounts.PushAll))

	// Admin: backups (ADR 042): admins only, never the PIN;
	// one backup at a time across instances; starts and downloads audited
	bk, backups := s.backupsRoom, a.Require(accounts.BackupsManage)
	e.GET("/api/admin/backups", bk.List, backups)
	e.POST("/api/admin/backups/run", bk.Run, backups)
	e.GET("/api/admin/backups/:id/download", bk.Download, backups)

	// Any other admin path: 401 without a session, 404 with one, so
	// probing reveals nothing.
	e.Any("/api/admin/*", func(c echo.Context) error {
		return &StatusError{Status: http.StatusNotFound, Message: "No such admin endpoint."}
	}, any)

	// Every public page: the route table decides.
	getHead(e, "/*", pg.Page)
}

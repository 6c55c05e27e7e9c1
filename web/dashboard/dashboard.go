// Package dashboard is the HTTP side of the admin dashboard (spec 2.4):
// the four stat tiles and how backups stand, the recent activity (job
// runs and uploads) and the lead notifications' outbox and spool. Every figure is measured, or says
// how it will fill. The routes and their guards are in server/install.go.
package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/analytics"
	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/media"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/words"
)

// Store is what the dashboard reads (db.Store).
type Store interface {
	LatestSEOAuditRun(ctx context.Context) (db.SEOAuditRun, error)
	LatestSecurityScan(ctx context.Context) (db.SecurityScan, []db.SecurityResult, error)
	CountOpenVulnerabilities(ctx context.Context) (int, error)
	VitalCounts(ctx context.Context, from, to string) ([]db.VitalCount, error)
	RecentJobRuns(ctx context.Context, limit int, skipped bool) ([]db.JobRun, error)
	RecentMedia(ctx context.Context, limit int) ([]db.Media, error)
}

// Notifier reads the outbox (notify.Notifier).
type Notifier interface {
	Status(ctx context.Context, recent int) (notify.Status, error)
}

// Spool counts the leads waiting on disk (spool.Intake).
type Spool interface {
	Backlog() int
	Refused() int
}

// Backups says how backups stand (backup.Service).
type Backups interface {
	Status(ctx context.Context) (backup.Status, error)
}

// Handler answers the dashboard.
type Handler struct {
	Store    Store
	Site     *site.Site
	Notifier Notifier
	Spool    Spool
	Backups  Backups
	// JobTitles name the jobs in the recent activity.
	JobTitles map[string]string
	// More and IndexNow feed the tool cards (tools.go).
	More     ToolsStore
	IndexNow IndexNowState
	// PushDevices counts the devices a new lead is pushed to.
	PushDevices func(ctx context.Context) (int, error)
}

// Overview is GET /api/admin/overview: the dashboard's tiles, and how
// backups stand.
type Overview struct {
	Tiles  []Tile       `json:"tiles"`
	Backup BackupStatus `json:"backup"`
}

// BackupStatus is the dashboard's line on backups: the last good one,
// the newest run when it failed, and the alarm when there is one.
type BackupStatus struct {
	// Location is where backups go; EveryHours the schedule (0: none,
	// backups come from site backup).
	Location   string  `json:"location"`
	EveryHours float64 `json:"everyHours"`
	// LastGoodAt, LastGoodName and LastGoodBytes describe the last good
	// backup (LastGoodAt null: none yet).
	LastGoodAt    *time.Time `json:"lastGoodAt"`
	LastGoodName  string     `json:"lastGoodName"`
	LastGoodBytes int64      `json:"lastGoodBytes"`
	// LastFailedAt and LastError are the newest run's, when it failed.
	LastFailedAt *time.Time `json:"lastFailedAt"`
	LastError    string     `json:"lastError"`
	// Alarm says what is wrong ("" when nothing is); Error that the
	// status could not be read.
	Alarm string `json:"alarm"`
	Error string `json:"error,omitempty"`
}

// ActivityList is GET /api/admin/jobs: the dashboard's recent activity.
type ActivityList struct {
	Activity []ActivityLine `json:"activity"`
}

// Tile is one dashboard stat tile. Value is "—" when nothing has been
// measured yet; How says how the figure is computed or how it will fill.
type Tile struct {
	Label    string `json:"label"`
	Value    string `json:"value"`
	Hint     string `json:"hint"`
	How      string `json:"how"`
	Measured bool   `json:"measured"`
}

// Overview answers the dashboard's four tiles.
func (h *Handler) Overview(c echo.Context) error {
	ctx := c.Request().Context()
	seo := Tile{Label: "SEO Score", Value: "—", Hint: "No audit yet",
		How: "Fills after the first SEO audit: it runs once the pages are rendered at boot, after every content change, and when you press Run Audit on the SEO Audit screen."}
	if run, err := h.Store.LatestSEOAuditRun(ctx); err == nil {
		seo = Tile{Label: "SEO Score", Value: strconv.Itoa(run.Score) + "%", Hint: "Site-wide audit", Measured: true,
			How: "Passing checks across " + words.Count(run.Pages-run.Errors, "page", "pages") + " in the latest SEO audit (" + words.When(run.FinishedAt) + "): " + strconv.Itoa(run.Passed) + " of " + strconv.Itoa(run.Passed+run.Warnings+run.Failed) + "."}
	} else if !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("The dashboard could not be loaded.", err)
	}
	loc := h.Site.Locations()
	sec := Tile{Label: "Security Issues", Value: "—", Hint: "No scan yet",
		How: "Fills after the first security scan: it runs at boot, every 24 hours, and when you press Run Full Scan on the Security screen."}
	if _, _, err := h.Store.LatestSecurityScan(ctx); err == nil {
		n, err := h.Store.CountOpenVulnerabilities(ctx)
		if err != nil {
			return httperr.Unavailable("The dashboard could not be loaded.", err)
		}
		sec = Tile{Label: "Security Issues", Value: strconv.Itoa(n), Hint: "Open findings", Measured: true,
			How: "Failed security checks whose vulnerability is open (not acknowledged or fixed), from the latest scan."}
	}
	tiles := []Tile{seo, h.pageSpeed(ctx),
		{Label: "Location Pages", Value: strconv.Itoa(loc.Counties + loc.Cities), Hint: "County and city pages", Measured: true,
			How: words.Count(loc.Counties, "county page", "county pages") + " (under /service-areas/) and " + words.Count(loc.Cities, "city page", "city pages") + " (under /areas/) published on the site."},
		sec}
	return c.JSON(http.StatusOK, Overview{Tiles: tiles, Backup: h.backup(ctx)})
}

// backup reads how backups stand; a failure to read it is said on the
// dashboard, not a failed dashboard.
func (h *Handler) backup(ctx context.Context) BackupStatus {
	if h.Backups == nil {
		return BackupStatus{Error: "Backups are not set up."}
	}
	st, err := h.Backups.Status(ctx)
	if err != nil {
		return BackupStatus{Location: st.Location, Error: "The backup status could not be read."}
	}
	out := BackupStatus{Location: st.Location, EveryHours: st.EveryHours, Alarm: st.Alarm}
	if g := st.LastGood; g != nil {
		at := g.FinishedAt
		out.LastGoodAt, out.LastGoodName, out.LastGoodBytes = &at, g.Name, g.Bytes
	}
	if st.LastFailed() {
		at := st.Last.StartedAt
		out.LastFailedAt, out.LastError = &at, st.Last.Summary
	}
	return out
}

// pageSpeed is the dashboard's Page Speed: spec 5's performance score
// (100 good, 60 needs improvement, 20 poor, averaged) of the site-wide 75th
// percentile of each Core Web Vital real visitors reported in the last 28
// days. Until any are reported it says how it will fill.
func (h *Handler) pageSpeed(ctx context.Context) Tile {
	empty := Tile{Label: "Page Speed", Value: "—", Hint: "No data yet",
		How: "Fills from real visitors' Core Web Vitals (75th percentile) once they are collected; no figure is shown until then."}
	now := time.Now()
	samples, err := h.Store.VitalCounts(ctx, analytics.Day(now.AddDate(0, 0, -(analytics.VitalDays-1))), analytics.Day(now))
	if err != nil {
		return empty
	}
	score, n, ok := analytics.PageSpeed(samples)
	if !ok {
		return empty
	}
	return Tile{Label: "Page Speed", Value: strconv.Itoa(score), Hint: "Real visitors, last 28 days", Measured: true,
		How: fmt.Sprintf("The performance score (each Core Web Vital counts 100 when good, 60 when it needs improvement, 20 when poor, averaged) of the 75th percentile of %d Core Web Vitals over %d measurements from real visits.", n, analytics.Measurements(samples))}
}

// ActivityLine is one line of the dashboard's recent activity: a job run or a
// batch of uploads.
type ActivityLine struct {
	Kind    string    `json:"kind"` // job or upload
	Job     string    `json:"job,omitempty"`
	Title   string    `json:"title"`
	Summary string    `json:"summary"`
	Outcome string    `json:"outcome"`
	At      time.Time `json:"at"`
}

// ActivityShown is how many lines the dashboard's recent activity shows.
const ActivityShown = 15

// Activity returns recent job runs (skipped ones left out) merged
// with recent uploads, newest first.
func (h *Handler) Activity(c echo.Context) error {
	ctx := c.Request().Context()
	runs, err := h.Store.RecentJobRuns(ctx, ActivityShown, false)
	if err != nil {
		return httperr.Unavailable("Recent activity could not be loaded.", err)
	}
	files, err := h.Store.RecentMedia(ctx, 200)
	if err != nil {
		return httperr.Unavailable("Recent activity could not be loaded.", err)
	}
	out := uploadActivity(files)
	for _, r := range runs {
		out = append(out, ActivityLine{Kind: "job", Job: r.Job, Title: h.JobTitles[r.Job], Summary: r.Summary, Outcome: r.Outcome, At: r.FinishedAt})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	if len(out) > ActivityShown {
		out = out[:ActivityShown]
	}
	return c.JSON(http.StatusOK, ActivityList{Activity: out})
}

// uploadActivity folds uploads (newest first) into one line per project
// per batch: files of one project less than 10 minutes apart.
func uploadActivity(files []db.Media) []ActivityLine {
	var out []ActivityLine
	var photos, videos int
	flush := func(m db.Media) {
		what := []string{}
		if photos > 0 {
			what = append(what, words.Count(photos, "photo", "photos"))
		}
		if videos > 0 {
			what = append(what, words.Count(videos, "video", "videos"))
		}
		title := what[0]
		if len(what) == 2 {
			title += " and " + what[1]
		}
		where := media.ProjectDisplayName(m.Project)
		if m.Project == "" {
			where = "the photo library" // a photo of no project
		}
		out[len(out)-1].Title = title + " uploaded to " + where
		photos, videos = 0, 0
	}
	for i, m := range files {
		if i == 0 || m.Project != files[i-1].Project || files[i-1].CreatedAt.Sub(m.CreatedAt) > 10*time.Minute {
			if i > 0 {
				flush(files[i-1])
			}
			out = append(out, ActivityLine{Kind: "upload", Outcome: db.OutcomeOK, At: m.CreatedAt})
		}
		if m.Kind == "video" {
			videos++
		} else {
			photos++
		}
	}
	if len(files) > 0 {
		flush(files[len(files)-1])
	}
	return out
}

// NotificationRow is one notification as the dashboard lists it: no
// payload, so no contact details of the lead.
type NotificationRow struct {
	Kind        string     `json:"kind"`
	LeadID      string     `json:"leadId"`
	Attempts    int        `json:"attempts"`
	LastError   string     `json:"lastError"`
	CreatedAt   time.Time  `json:"createdAt"`
	DeliveredAt *time.Time `json:"deliveredAt"`
	FailedAt    *time.Time `json:"failedAt"`
}

// NotificationsStatus is GET /api/admin/notifications. It never carries
// SMTP credentials, the webhook address or secret, or a lead's contact
// details.
type NotificationsStatus struct {
	// Configured says which channels are on: email, webhook, Web Push,
	// SMS and the homeowner's acknowledgement (its System Settings switch
	// aside).
	Configured      notify.Channels `json:"configured"`
	Pending         int             `json:"pending"`
	Retrying        int             `json:"retrying"`
	Failed          int             `json:"failed"`
	LastError       string          `json:"lastError"`
	LastDeliveredAt *time.Time      `json:"lastDeliveredAt"`
	SpoolBacklog    int             `json:"spoolBacklog"`
	// SpoolRefused counts leads the database kept refusing, moved aside
	// in DATA_DIR/spool/refused.jsonl for a person to look at.
	SpoolRefused int               `json:"spoolRefused"`
	Recent       []NotificationRow `json:"recent"`
	// PushDevices counts the devices a new lead is pushed to now (of
	// enabled admin and staff accounts); -1 when it could not be read.
	PushDevices int `json:"pushDevices"`
}

// RecentNotifications is how many rows the dashboard lists.
const RecentNotifications = 10

// Notifications answers the outbox and the spool on the dashboard.
func (h *Handler) Notifications(c echo.Context) error {
	st, err := h.Notifier.Status(c.Request().Context(), RecentNotifications)
	if err != nil {
		return err
	}
	out := NotificationsStatus{Pending: st.Pending, Retrying: st.Retrying, Failed: st.Failed, LastError: st.LastError,
		LastDeliveredAt: st.LastDeliveredAt, SpoolBacklog: h.Spool.Backlog(), SpoolRefused: h.Spool.Refused(), Recent: []NotificationRow{}}
	out.Configured = notify.Channels{Email: st.Email, Webhook: st.Webhook, Push: st.Push, SMS: st.SMS, Ack: st.Ack}
	out.PushDevices = -1
	if h.PushDevices != nil {
		if n, err := h.PushDevices(c.Request().Context()); err == nil {
			out.PushDevices = n
		}
	}
	for _, r := range st.Recent {
		out.Recent = append(out.Recent, NotificationRow{Kind: r.Kind, LeadID: r.LeadID, Attempts: r.Attempts, LastError: r.LastError,
			CreatedAt: r.CreatedAt, DeliveredAt: r.DeliveredAt, FailedAt: r.FailedAt})
	}
	return c.JSON(http.StatusOK, out)
}

// Package backups is the HTTP side of the Backups screen (ADR
// 042): the recent backups with the same-disk warning, 'Back up now'
// (one backup at a time across instances) and the download of a backup
// as one streamed archive. Admins only (accounts.BackupsManage); the start
// and every download are audited. The routes and their guards are in
// server/install.go; the backups themselves are package backup's.
package backups

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/backup"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Backups is the backup service (backup.Service).
type Backups interface {
	Overview(ctx context.Context) (backup.Overview, error)
	Start(ctx context.Context, requestedBy string) (backup.Started, error)
	OpenArchive(ctx context.Context, name string) (*backup.Archive, error)
}

// Store writes the audit log (db.Store).
type Store interface {
	AddAudit(ctx context.Context, e db.AuditEntry) error
}

// Handler answers the Backups screen.
type Handler struct {
	Backups Backups
	Store   Store
	Log     *slog.Logger
}

// Messages of the Backups screen.
const (
	msgUnavailable = "Backups could not be loaded. Try again in a minute."
	msgNoStart     = "The backup could not be started. Try again in a minute."
	msgNoBackup    = "No such backup. It may have been deleted by the daily clean-up of old backups."
	msgDamaged     = "This backup is damaged and cannot be downloaded. Download another one."
	// MsgSameDisk is the warning while backups are on the data's disk.
	MsgSameDisk = "Your backups are on the same disk as the website's data. If this disk fails, both are lost. Ask your web host to send backups to another disk or to cloud storage."
)

// List is GET /api/admin/backups.
type List struct {
	backup.Overview
	// Warning is MsgSameDisk while backups are on the data's disk.
	Warning string `json:"warning"`
}

// List answers the Backups screen.
func (h *Handler) List(c echo.Context) error {
	o, err := h.Backups.Overview(c.Request().Context())
	if err != nil {
		return httperr.Unavailable(msgUnavailable, err)
	}
	out := List{Overview: o}
	if o.SameDisk {
		out.Warning = MsgSameDisk
	}
	return c.JSON(http.StatusOK, out)
}

// RunAnswer is POST /api/admin/backups/run: the backup that started
// (202, Started), or the one already running (200), with Message saying
// so in words.
type RunAnswer struct {
	backup.Started
	Message string `json:"message"`
}

// Run is 'Back up now': a backup starts in the background unless one is
// running on any instance, and the press is answered at once.
func (h *Handler) Run(c echo.Context) error {
	u := auth.From(c).Account()
	st, err := h.Backups.Start(c.Request().Context(), u.Email)
	if errors.Is(err, backup.ErrStopping) {
		return httperr.Unavailable(backup.ErrStopping.Error()+".", err)
	}
	if err != nil {
		return httperr.Unavailable(msgNoStart, err)
	}
	if !st.Started {
		return c.JSON(http.StatusOK, RunAnswer{Started: st, Message: RunningMessage(st.Backup)})
	}
	h.audit(c, u, db.AuditBackupRun, st.Backup.ID)
	return c.JSON(http.StatusAccepted, RunAnswer{Started: st, Message: "Backup started."})
}

// RunningMessage is the answer to a press while a backup runs: when it
// started (UTC; the screen shows its own clock's time from the answer's
// startedAt) and who asked for it.
func RunningMessage(a *backup.InProgress) string {
	if a == nil {
		return "A backup is already running."
	}
	msg := "A backup is already running, started " + a.StartedAt.UTC().Format("15:04") + " UTC"
	switch {
	case a.RequestedBy != "":
		msg += " by " + a.RequestedBy
	case a.TriggeredBy == backup.TriggerSchedule:
		msg += " by the daily schedule"
	case a.TriggeredBy == backup.TriggerCommand:
		msg += " from the server's command line"
	}
	return msg + "."
}

// Download is GET /api/admin/backups/:id/download: the backup named by
// id (a name from the list, never a path) as one tar archive, streamed
// from the backup storage file by file, each checked against the
// manifest as it passes. Audited before the first byte.
func (h *Handler) Download(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := h.Backups.OpenArchive(ctx, c.Param("id"))
	switch {
	case errors.Is(err, backup.ErrNoBackup):
		return httperr.New(http.StatusNotFound, msgNoBackup)
	case errors.Is(err, backup.ErrDamaged):
		return &httperr.Error{Status: http.StatusConflict, Message: msgDamaged, Err: err}
	case err != nil:
		return httperr.Unavailable(msgUnavailable, err)
	}
	h.audit(c, auth.From(c).Account(), db.AuditBackupDownload, a.Name)
	hd := c.Response().Header()
	hd.Set(echo.HeaderContentType, "application/x-tar")
	hd.Set(echo.HeaderContentDisposition, `attachment; filename="`+a.FileName()+`"`)
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	c.Response().WriteHeader(http.StatusOK)
	start := time.Now()
	n, err := a.WriteTo(ctx, c.Response())
	if err != nil {
		// The status is sent: cut the connection, so the browser reports
		// a failed download rather than a short archive.
		h.Log.Error("backup download cut short", "backup", a.Name, "bytes", n, "err", err)
		panic(http.ErrAbortHandler)
	}
	h.Log.Info("backup downloaded", "backup", a.Name, "bytes", n, "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

// audit writes an audit row; a failure is logged, not shown (the action
// itself has happened).
func (h *Handler) audit(c echo.Context, u db.User, action, detail string) {
	actor := u.Email
	if actor == "" {
		actor = "(unknown)"
	}
	e := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: actor, Action: action, Detail: detail, IP: c.RealIP()}
	if err := h.Store.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		h.Log.Error("audit log not written", "action", action, "err", err)
	}
}

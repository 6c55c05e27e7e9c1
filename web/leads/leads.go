// Package leads (web/leads) is the HTTP side of the Secure Leads Manager
// (spec 6, docs/leads-api.md): the lead list, details, status changes and
// the CSV export; working a lead (work.go): notes, assignment,
// its timeline and the first response figures; privacy requests
// (privacy.go): one person's data exported, a lead erased; and the admins'
// Users and Audit Log screens. What each role may see is decided here and
// in the domain package leads, on the server: staff get masked rows from
// every endpoint. The routes and their guards are in server/install.go.
package leads

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/web/paging"
)

// Store is what the leads manager reads and writes (db.Store).
type Store interface {
	Ping(ctx context.Context) error
	QueryLeads(ctx context.Context, q db.LeadQuery) ([]db.Lead, int, error)
	EachLead(ctx context.Context, q db.LeadQuery, fn func(db.Lead) error) error
	GetLead(ctx context.Context, id string) (db.Lead, error)
	ChangeLeadStatus(ctx context.Context, id, status string, by db.Actor, now time.Time) (db.LeadEvent, error)
	AddLeadNote(ctx context.Context, leadID string, by db.Actor, body string, now time.Time) (db.LeadEvent, error)
	AssignLead(ctx context.Context, leadID, userID string, by db.Actor, now time.Time) (db.LeadEvent, error)
	LeadTimeline(ctx context.Context, leadID string) ([]db.LeadEvent, error)
	LeadResponseTimes(ctx context.Context, now time.Time) (db.ResponseTimes, error)
	LeadsAwaiting(ctx context.Context, limit int) ([]db.Lead, int, error)
	LeadDayFigures(ctx context.Context, from, to time.Time) (db.LeadDay, error)
	ListUsers(ctx context.Context) ([]db.User, error)
	CreateUser(ctx context.Context, u db.User) error
	UserByID(ctx context.Context, id string) (db.User, error)
	ChangeUser(ctx context.Context, id string, ch db.UserChange, now time.Time) (db.User, error)
	ResetTOTP(ctx context.Context, userID string) error
	AuditPage(ctx context.Context, p db.Page) ([]db.AuditRow, int, error)
	UsersPage(ctx context.Context, p db.Page) ([]db.User, int, error)
	ActiveUsersWithRole(ctx context.Context, role string) (int, error)
	AddAudit(ctx context.Context, e db.AuditEntry) error
	// Privacy requests (privacy.go).
	LeadsByContact(ctx context.Context, email, tel string) ([]db.Lead, error)
	DeleteLead(ctx context.Context, id string, audit db.AuditEntry) error
	TestimonialOfLead(ctx context.Context, leadID string) (db.Testimonial, error)
	JobsOfLead(ctx context.Context, leadID string) ([]db.Job, error)
	OptedOut(ctx context.Context, contact string) (bool, error)
}

// Locks says whether strangers' failed sign-ins have locked an account
// for new browsers (web/auth).
type Locks interface {
	AccountLocked(ctx context.Context, u db.User, now time.Time) (bool, time.Time)
}

// LeadList is GET /api/admin/leads: a page of leads, masked
// ([]leads.Masked) unless an admin asked for full data ([]leads.Full).
type LeadList struct {
	Total   int  `json:"total"`
	Page    int  `json:"page"`
	PerPage int  `json:"perPage"`
	Full    bool `json:"full"`
	// Leads are all leads.Full or all leads.Masked, as Full says.
	Leads []leads.View `json:"leads" tstype:"LeadFull[] | LeadMasked[]"`
}

// LeadAnswer is a status change's answer: the lead as the caller's role
// may see it (leads.Full or leads.Masked), and the change as its timeline
// records it (absent when the lead had that status already).
type LeadAnswer struct {
	Lead  leads.View   `json:"lead" tstype:"LeadFull | LeadMasked"`
	Event *leads.Event `json:"event,omitempty"`
}

// UserList is GET /api/admin/users: one page of the accounts, oldest
// first (q, page, perPage: web/paging).
type UserList struct {
	Users []UserRow `json:"users"`
	paging.Info
}

// Handler serves the leads manager's endpoints.
type Handler struct {
	Store Store
	Auth  Locks
	// Hash bounds the slow password hashing of account changes.
	Hash *guard.HashGate
	// Changed re-renders the public pages after a lead is erased: a job
	// that came from it loses the homeowner's name (ADR 061), a
	// testimonial it gave leaves the city page (ADR 063).
	Changed func(reason string)
	// Files removes an erased lead's files from storage (web/leadfiles:
	// the documents attached and the photos the homeowner sent); nil when
	// the site keeps none.
	Files FileEraser
	Log   *slog.Logger
}

// FileEraser lists and deletes the storage keys of a lead's own files:
// the keys are read before the lead's rows go, and deleted after.
type FileEraser interface {
	StoredFiles(ctx context.Context, leadID string) ([]string, error)
	DeleteStored(ctx context.Context, keys []string)
}

var (
	errFullRestricted = &httperr.Error{Status: http.StatusForbidden, Title: "Access Restricted", Message: "Only admins can view full lead details"}
	errExportRestrict = &httperr.Error{Status: http.StatusForbidden, Title: "Export Restricted", Message: "Only admins can export lead data"}
)

func isAdmin(c echo.Context) bool { return auth.From(c).Can(accounts.LeadsFull) }

func leadsUnavailable(err error) error {
	return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Failed to load lead data", Err: err}
}

func (h *Handler) List(c echo.Context) error {
	f, err := leads.ParseFilter(query(c))
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	admin := isAdmin(c)
	if f.Full && !admin {
		return errFullRestricted
	}
	list, total, err := h.Store.QueryLeads(c.Request().Context(), f.Query(admin, true))
	if err != nil {
		return leadsUnavailable(err)
	}
	out := LeadList{Total: total, Page: f.Page, PerPage: f.PerPage, Full: f.Full}
	if f.Full {
		out.Leads = make([]leads.View, len(list))
		for i, l := range list {
			out.Leads[i] = leads.Unmasked(l)
		}
		h.audit(c, auth.From(c).Account(), db.AuditListFull, "", f.Describe()+" page "+strconv.Itoa(f.Page))
	} else {
		me := auth.From(c).Account().ID
		out.Leads = make([]leads.View, len(list))
		for i, l := range list {
			out.Leads[i] = leads.MaskFor(l, me)
		}
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) Detail(c echo.Context) error {
	if !isAdmin(c) {
		return errFullRestricted
	}
	l, err := h.Store.GetLead(c.Request().Context(), c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return leadsUnavailable(err)
	}
	h.audit(c, auth.From(c).Account(), db.AuditLeadDetail, l.ID, "")
	return c.JSON(http.StatusOK, leads.Unmasked(l))
}

// SetStatus changes a lead's status (staff and admins), on its timeline
// with who did it; a person's first change ends the lead's first response
// time. The answer is the updated row as the caller's role may see it.
func (h *Handler) SetStatus(c echo.Context) error {
	var in struct {
		Status string `json:"status"`
	}
	if err := c.Bind(&in); err != nil || !leads.ValidStatus(in.Status) {
		return &httperr.Error{Status: http.StatusBadRequest, Message: leads.StatusMessage}
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	updateFailed := func(err error) error {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Failed to update lead status", Err: err}
	}
	before, err := h.Store.GetLead(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return updateFailed(err)
	}
	ev, err := h.Store.ChangeLeadStatus(ctx, id, in.Status, actor(c), time.Now().UTC())
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return updateFailed(err)
	}
	l, err := h.Store.GetLead(ctx, id)
	if err != nil {
		return updateFailed(err)
	}
	h.audit(c, auth.From(c).Account(), db.AuditStatusChange, id, before.Status+" → "+l.Status)
	out := LeadAnswer{Lead: leads.MaskFor(l, auth.From(c).Account().ID)}
	if isAdmin(c) {
		out.Lead = leads.Unmasked(l)
	}
	if ev.ID != "" {
		e := leads.EventOf(ev)
		out.Event = &e
	}
	return c.JSON(http.StatusOK, out)
}

// exportLeads streams the CSV of the leads the current filters select
// (admins only). Rows are written as they are read, so the export's memory
// does not grow with the number of leads.
func (h *Handler) Export(c echo.Context) error {
	if !isAdmin(c) {
		return errExportRestrict
	}
	f, err := leads.ParseFilter(query(c))
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	// Fail before the headers if the database cannot be read at all.
	if err := h.Store.Ping(ctx); err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Failed to export lead data", Err: err}
	}
	// 'Export with source': the spec's nine columns, then
	// where each lead came from.
	withSource := c.QueryParam("with") == "source"
	newWriter, name := leads.NewCSVWriter, "leads-export.csv"
	if withSource {
		newWriter, name = leads.NewSourceCSVWriter, "leads-export-with-source.csv"
	}
	hdr := c.Response().Header()
	hdr.Set("Content-Type", "text/csv; charset=utf-8")
	hdr.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	hdr.Set("X-Content-Type-Options", "nosniff")
	c.Response().WriteHeader(http.StatusOK)
	w, err := newWriter(c.Response())
	if err != nil {
		return nil // the client went away
	}
	n := 0
	err = h.Store.EachLead(ctx, f.Query(true, false), func(l db.Lead) error {
		n++
		if err := w.Write(l); err != nil {
			return err
		}
		if n%500 == 0 {
			if err := w.Flush(); err != nil {
				return err
			}
			c.Response().Flush()
		}
		return nil
	})
	w.Flush()
	if err != nil {
		// The status is already sent: abort the connection so the download
		// fails ('Export Failed') rather than end as a complete-looking,
		// truncated file.
		h.Log.Error("lead export interrupted", "rows", n, "err", err)
		panic(http.ErrAbortHandler)
	}
	detail := f.Describe() + " (" + strconv.Itoa(n) + " rows)"
	if withSource {
		detail += " with source"
	}
	h.audit(c, auth.From(c).Account(), db.AuditExport, "", detail)
	return nil
}

// audit writes an audit row for the current request. A failure is
// logged, not shown: the action itself has happened.
func (h *Handler) audit(c echo.Context, u db.User, action, leadID, detail string) {
	actor := u.Email
	if actor == "" {
		actor = "(unknown)"
	}
	entry := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: actor, Action: action, LeadID: leadID, Detail: detail, IP: c.RealIP()}
	if err := h.Store.AddAudit(context.WithoutCancel(c.Request().Context()), entry); err != nil {
		h.Log.Error("audit log not written", "action", action, "err", err)
	}
}

// noteFirstAdmin says at boot how to create the first admin account when
// there is none: the leads manager is closed until there is one.

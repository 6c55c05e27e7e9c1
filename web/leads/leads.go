// Package leads (web/leads) is the HTTP side of the Secure Leads Manager
// (spec 6, docs/leads-api.md): the lead list, details, status changes and
// the CSV export; working a lead (issue 23, work.go): notes, assignment,
// its timeline and the first response figures; privacy requests (issue 24,
// privacy.go): one person's data exported, a lead erased; and the admins'
// Users and Audit Log screens. What each role may see is decided here and
// in the domain package leads, on the server: staff get masked rows from
// every endpoint. The routes and their guards are in server/install.go.
package leads

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
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
	AuditRows(ctx context.Context, limit, offset int) ([]db.AuditRow, int, error)
	AddAudit(ctx context.Context, e db.AuditEntry) error
	// Privacy requests (issue 24, privacy.go).
	LeadsByContact(ctx context.Context, email, tel string) ([]db.Lead, error)
	DeleteLead(ctx context.Context, id string, audit db.AuditEntry) error
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
	Leads   any  `json:"leads"`
}

// LeadAnswer is a status change's answer: the lead as the caller's role
// may see it (leads.Full or leads.Masked), and the change as its timeline
// records it (absent when the lead had that status already).
type LeadAnswer struct {
	Lead  any           `json:"lead"`
	Event *db.LeadEvent `json:"event,omitempty"`
}

// UserList is GET /api/admin/users.
type UserList struct {
	Users []UserRow `json:"users"`
}

// Handler serves the leads manager's endpoints.
type Handler struct {
	Store Store
	Auth  Locks
	// Hash bounds the slow password hashing of account changes.
	Hash *guard.HashGate
	Log  *slog.Logger
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
	f, err := leads.ParseFilter(c.QueryParams())
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
		full := make([]leads.Full, len(list))
		for i, l := range list {
			full[i] = leads.Unmasked(l)
		}
		out.Leads = full
		h.audit(c, auth.From(c).Account(), db.AuditListFull, "", f.Describe()+" page "+strconv.Itoa(f.Page))
	} else {
		me := auth.From(c).Account().ID
		masked := make([]leads.Masked, len(list))
		for i, l := range list {
			masked[i] = leads.MaskFor(l, me)
		}
		out.Leads = masked
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
		out.Event = &ev
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
	f, err := leads.ParseFilter(c.QueryParams())
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	// Fail before the headers if the database cannot be read at all.
	if err := h.Store.Ping(ctx); err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "Failed to export lead data", Err: err}
	}
	// 'Export with source' (issue 23): the spec's nine columns, then
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

// Messages of the accounts API.
const (
	msgAccountsBusy    = "Account data could not be loaded. Try again in a minute."
	msgLastAdmin       = "The last admin cannot be disabled or demoted."
	msgOwnRole         = ReasonOwnAccount + ": another admin must change its role."
	msgOwnDisable      = ReasonOwnAccount + ": another admin must disable it."
	msgDuplicateEmail  = "An account with this email already exists."
	accountPageMaxSize = 200
)

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

// UserAnswer is the answer to an account change: the account as saved.
type UserAnswer struct {
	User db.User `json:"user"`
}

// UserRow is one account on the Users screen, with whether strangers'
// failed sign-ins have locked it for browsers that never signed in to it,
// and which changes the caller may make to it: the screen offers only
// those, and shows the reason in place of the others. UpdateUser applies
// the same rules (userActions), so the screen never offers what the
// server refuses.
type UserRow struct {
	db.User
	SignInLocked bool       `json:"signInLocked"`
	LockedUntil  *time.Time `json:"lockedUntil"`
	// Self: this is the caller's own account.
	Self bool `json:"self"`
	// CanDisable: the caller may disable the account (an account already
	// disabled may always be enabled again).
	CanDisable    bool   `json:"canDisable"`
	DisableReason string `json:"disableReason,omitempty"`
	// CanChangeRole: the caller may give the account another role.
	CanChangeRole bool   `json:"canChangeRole"`
	RoleReason    string `json:"roleReason,omitempty"`
}

// Why an account change is refused, in the owner's words.
const (
	ReasonOwnAccount = "This is your own account"
	ReasonLastAdmin  = "The site needs at least one active admin"
)

// userActions decides whether the caller (callerID; "" for none) may
// disable target or change its role, given how many enabled admins there
// are: never their own account (another admin does that, so nobody locks
// themselves out), and never the last enabled admin. The store checks the
// last-admin rule again inside its serialised write (db.ChangeUser), so
// two admins disabling each other at once still leave one.
func userActions(callerID string, target db.User, activeAdmins int) (disable, role string) {
	if callerID != "" && target.ID == callerID {
		return ReasonOwnAccount, ReasonOwnAccount
	}
	if target.DisabledAt == nil && accounts.RoleOf(target.Roles) == accounts.RoleAdmin && activeAdmins <= 1 {
		return ReasonLastAdmin, ReasonLastAdmin
	}
	return "", ""
}

func activeAdmins(us []db.User) int {
	n := 0
	for _, u := range us {
		if u.DisabledAt == nil && accounts.RoleOf(u.Roles) == accounts.RoleAdmin {
			n++
		}
	}
	return n
}

func (h *Handler) Users(c echo.Context) error {
	ctx := c.Request().Context()
	us, err := h.Store.ListUsers(ctx)
	if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	now := time.Now().UTC()
	me := auth.From(c).Account().ID
	admins := activeAdmins(us)
	rows := make([]UserRow, 0, len(us))
	for _, u := range us {
		r := UserRow{User: u, Self: me != "" && u.ID == me}
		if locked, until := h.Auth.AccountLocked(ctx, u, now); locked {
			r.SignInLocked, r.LockedUntil = true, &until
		}
		r.DisableReason, r.RoleReason = userActions(me, u, admins)
		r.CanDisable, r.CanChangeRole = r.DisableReason == "", r.RoleReason == ""
		rows = append(rows, r)
	}
	return c.JSON(http.StatusOK, UserList{Users: rows})
}

// hashNewPassword checks a password against the rules and hashes it
// inside the hash gate (argon2id is deliberately expensive).
func (h *Handler) hashNewPassword(ctx context.Context, pw, email, name string) (string, error) {
	if err := accounts.CheckPassword(pw, email, name); err != nil {
		return "", &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	var hash string
	var herr error
	if err := h.Hash.Do(ctx, func() { hash, herr = accounts.HashPassword(pw) }); err != nil {
		return "", &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The server is busy. Try again in a few seconds.", Err: err}
	}
	return hash, herr
}

func (h *Handler) CreateUser(c echo.Context) error {
	var in struct {
		Email, Name, Password, Role string
	}
	if err := c.Bind(&in); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the account as JSON: email, name, password and role."}
	}
	email, err := accounts.NormalizeEmail(in.Email)
	if err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	in.Name = strings.TrimSpace(in.Name)
	if err := accounts.CheckName(in.Name); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	if err := accounts.CheckRole(in.Role); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	ctx := c.Request().Context()
	hash, err := h.hashNewPassword(ctx, in.Password, email, in.Name)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	u := db.User{ID: uuid.NewString(), Email: email, Name: in.Name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now, Roles: []string{in.Role}}
	if err := h.Store.CreateUser(ctx, u); errors.Is(err, db.ErrDuplicate) {
		return &httperr.Error{Status: http.StatusConflict, Message: msgDuplicateEmail}
	} else if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The account could not be saved. Try again.", Err: err}
	}
	h.audit(c, auth.From(c).Account(), db.AuditUserCreated, "", fmt.Sprintf("%s (%s)", email, in.Role))
	return c.JSON(http.StatusCreated, UserAnswer{User: u})
}

func (h *Handler) UpdateUser(c echo.Context) error {
	ctx := c.Request().Context()
	var in struct {
		Name     *string `json:"name"`
		Role     *string `json:"role"`
		Disabled *bool   `json:"disabled"`
		Password *string `json:"password"`
		Unlock   bool    `json:"unlock"`
		// ResetTwoFactor removes the account's authenticator (a lost phone).
		ResetTwoFactor bool `json:"resetTwoFactor"`
	}
	if err := c.Bind(&in); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the change as JSON: name, role, disabled, password, unlock or resetTwoFactor."}
	}
	target, err := h.Store.UserByID(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
	}
	// The rules the Users screen showed (userActions): the caller's own
	// account is refused before anything is changed. The last-admin rule
	// is the store's, checked in the same serialised step as the write.
	if me := auth.From(c).Account().ID; me != "" && target.ID == me {
		if in.Role != nil {
			return &httperr.Error{Status: http.StatusForbidden, Title: "Not Your Own Account", Message: msgOwnRole}
		}
		if in.Disabled != nil && *in.Disabled {
			return &httperr.Error{Status: http.StatusForbidden, Title: "Not Your Own Account", Message: msgOwnDisable}
		}
	}
	ch := db.UserChange{Disabled: in.Disabled, Unlock: in.Unlock}
	var what []string
	if in.Unlock {
		what = append(what, "sign-in unlocked")
	}
	if in.ResetTwoFactor {
		if err := h.Store.ResetTOTP(ctx, target.ID); err != nil {
			return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
		}
		h.audit(c, auth.From(c).Account(), db.AuditTwoFactorReset, "", target.Email)
		what = append(what, "two-factor reset")
		if len(what) == 1 && in.Name == nil && in.Role == nil && in.Disabled == nil && in.Password == nil && !in.Unlock {
			u, err := h.Store.UserByID(ctx, target.ID)
			if err != nil {
				return &httperr.Error{Status: http.StatusServiceUnavailable, Message: msgAccountsBusy, Err: err}
			}
			return c.JSON(http.StatusOK, UserAnswer{User: u})
		}
	}
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		if err := accounts.CheckName(n); err != nil {
			return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Name = &n
		what = append(what, "name")
	}
	if in.Role != nil {
		if err := accounts.CheckRole(*in.Role); err != nil {
			return &httperr.Error{Status: http.StatusBadRequest, Message: err.Error()}
		}
		ch.Role = in.Role
		what = append(what, "role="+*in.Role)
	}
	if in.Disabled != nil {
		what = append(what, "disabled="+strconv.FormatBool(*in.Disabled))
	}
	if in.Password != nil {
		name := target.Name
		if ch.Name != nil {
			name = *ch.Name
		}
		hash, err := h.hashNewPassword(ctx, *in.Password, target.Email, name)
		if err != nil {
			return err
		}
		ch.PasswordHash = &hash
		what = append(what, "password reset")
	}
	if len(what) == 0 {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Nothing to change."}
	}
	u, err := h.Store.ChangeUser(ctx, target.ID, ch, time.Now().UTC())
	if errors.Is(err, db.ErrLastAdmin) {
		return &httperr.Error{Status: http.StatusConflict, Message: msgLastAdmin}
	} else if errors.Is(err, db.ErrNotFound) {
		return &httperr.Error{Status: http.StatusNotFound, Message: "No such account."}
	} else if err != nil {
		return &httperr.Error{Status: http.StatusServiceUnavailable, Message: "The change could not be saved. Try again.", Err: err}
	}
	h.audit(c, auth.From(c).Account(), db.AuditUserUpdated, "", target.Email+": "+strings.Join(what, ", "))
	return c.JSON(http.StatusOK, UserAnswer{User: u})
}

// pageParams reads page and per_page (defaults 1 and 50, at most 200).
func pageParams(c echo.Context) (page, per int, err error) {
	page, per = 1, 50
	if v := c.QueryParam("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 || page > 1_000_000 {
			return 0, 0, &httperr.Error{Status: http.StatusBadRequest, Message: "Page must be a positive number."}
		}
	}
	if v := c.QueryParam("per_page"); v != "" {
		if per, err = strconv.Atoi(v); err != nil || per < 1 {
			return 0, 0, &httperr.Error{Status: http.StatusBadRequest, Message: "Per page must be a positive number."}
		}
		per = min(per, accountPageMaxSize)
	}
	return page, per, nil
}

// noteFirstAdmin says at boot how to create the first admin account when
// there is none: the leads manager is closed until there is one.

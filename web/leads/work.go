package leads

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Working a lead: notes, assignment, the timeline and the
// first response figures. Staff may add notes and change the status;
// admins also assign. Every change is on the lead's timeline with who
// did it, and in the audit log.

var errNoLead = &httperr.Error{Status: http.StatusNotFound, Message: "No such lead."}

// Messages of the work endpoints.
const (
	msgNoteBody     = "Send the note as JSON: body."
	msgNoteBusy     = "The note could not be saved. Try again."
	msgTooManyNotes = "This lead has the most notes it may have (%d)."
	msgAssignBody   = "Send the assignment as JSON: userId (empty to take the lead from whoever has it)."
	msgCannotAssign = "That account cannot take leads: it does not exist, is disabled, or is neither staff nor admin."
	msgAssignBusy   = "The assignment could not be saved. Try again."
	msgWorkBusy     = "The lead's timeline could not be loaded. Try again."
	msgFiguresBusy  = "First response times could not be loaded."
)

// actor is who the request is, as a lead's timeline shows them.
func actor(c echo.Context) db.Actor {
	u := auth.From(c).Account()
	name := u.Name
	if name == "" {
		name = u.Email
	}
	return db.Actor{UserID: u.ID, Name: name}
}

// EventAnswer answers a note or an assignment: the timeline entry it made
// (absent when nothing changed).
type EventAnswer struct {
	Event *leads.Event `json:"event,omitempty"`
	// AssignedTo is the lead's account after an assignment (null: nobody).
	AssignedTo *string `json:"assignedTo,omitempty"`
}

// AddNote adds a note to a lead (staff and admins). The text is checked by
// leads.CheckNote; a person's first note ends the lead's first response
// time.
func (h *Handler) AddNote(c echo.Context) error {
	var in struct {
		Body string `json:"body"`
	}
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, msgNoteBody)
	}
	body, err := leads.CheckNote(in.Body)
	if err != nil {
		return httperr.New(http.StatusBadRequest, err.Error())
	}
	id := c.Param("id")
	ev, err := h.Store.AddLeadNote(c.Request().Context(), id, actor(c), body, time.Now().UTC())
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if errors.Is(err, db.ErrTooManyNotes) {
		return httperr.New(http.StatusConflict, fmt.Sprintf(msgTooManyNotes, db.MaxLeadNotes))
	} else if err != nil {
		return httperr.Unavailable(msgNoteBusy, err)
	}
	// The audit log records that a note was added, not its words.
	h.audit(c, auth.From(c).Account(), db.AuditLeadNote, id, strconv.Itoa(utf8.RuneCountInString(body))+" characters")
	e := leads.EventOf(ev)
	return c.JSON(http.StatusCreated, EventAnswer{Event: &e})
}

// Assign gives a lead to an account, or takes it from whoever has it
// (admins). The account must be enabled and staff or admin.
func (h *Handler) Assign(c echo.Context) error {
	var in struct {
		UserID *string `json:"userId"`
	}
	if err := c.Bind(&in); err != nil || in.UserID == nil {
		return httperr.New(http.StatusBadRequest, msgAssignBody)
	}
	to := *in.UserID
	if len(to) > 100 || !utf8.ValidString(to) {
		return httperr.New(http.StatusBadRequest, msgCannotAssign)
	}
	id := c.Param("id")
	ctx := c.Request().Context()
	ev, err := h.Store.AssignLead(ctx, id, to, actor(c), time.Now().UTC())
	switch {
	case errors.Is(err, db.ErrCannotAssign):
		return httperr.New(http.StatusBadRequest, msgCannotAssign)
	case errors.Is(err, db.ErrNotFound):
		return errNoLead
	case err != nil:
		return httperr.Unavailable(msgAssignBusy, err)
	}
	out := EventAnswer{}
	if to != "" {
		out.AssignedTo = &to
	}
	if ev.ID != "" {
		e := leads.EventOf(ev)
		out.Event = &e
		detail := "unassigned"
		if to != "" {
			detail = "to " + ev.Body
		}
		h.audit(c, auth.From(c).Account(), db.AuditLeadAssign, id, detail)
	}
	return c.JSON(http.StatusOK, out)
}

// Assignee is an account a lead may be given to.
type Assignee struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

// LeadWork is GET /api/admin/leads/:id/work: how the lead is being
// worked. Staff and admins get it: it holds no contact details of the
// lead (the timeline's notes are the crew's own).
type LeadWork struct {
	LeadID string `json:"leadId"`
	Status string `json:"status"`
	// AssignedTo is the account working the lead (null: nobody) and
	// AssignedName its name (or email).
	AssignedTo   *string `json:"assignedTo"`
	AssignedName string  `json:"assignedName"`
	// FirstResponseAt ends the lead's first response time (null: no
	// response by a person yet); EscalatedAt is when an emergency still
	// new was escalated.
	FirstResponseAt *time.Time `json:"firstResponseAt"`
	EscalatedAt     *time.Time `json:"escalatedAt"`
	// Timeline is oldest first: created, notified, status, note,
	// assigned, escalated.
	Timeline []leads.Event `json:"timeline"`
	// Assignees are the accounts the lead may be given to: admins only.
	Assignees []Assignee `json:"assignees,omitempty"`
}

// Work answers a lead's assignment and timeline.
func (h *Handler) Work(c echo.Context) error {
	ctx := c.Request().Context()
	l, err := h.Store.GetLead(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return httperr.Unavailable(msgWorkBusy, err)
	}
	tl, err := h.Store.LeadTimeline(ctx, l.ID)
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return httperr.Unavailable(msgWorkBusy, err)
	}
	users, err := h.Store.ListUsers(ctx)
	if err != nil {
		return httperr.Unavailable(msgWorkBusy, err)
	}
	out := LeadWork{LeadID: l.ID, Status: l.Status, AssignedTo: l.AssignedTo, FirstResponseAt: l.FirstResponseAt, EscalatedAt: l.EscalatedAt, Timeline: leads.Timeline(tl)}
	admin := auth.From(c).Can(accounts.LeadsAssign)
	for _, u := range users {
		name := u.Name
		if name == "" {
			name = u.Email
		}
		if l.AssignedTo != nil && u.ID == *l.AssignedTo {
			out.AssignedName = name
		}
		role := accounts.RoleOf(u.Roles)
		if admin && u.DisabledAt == nil && (role == accounts.RoleAdmin || role == accounts.RoleStaff) {
			out.Assignees = append(out.Assignees, Assignee{ID: u.ID, Name: u.Name, Email: u.Email, Role: role})
		}
	}
	if admin && out.Assignees == nil {
		out.Assignees = []Assignee{}
	}
	slices.SortStableFunc(out.Assignees, func(a, b Assignee) int {
		switch {
		case a.Name+a.Email < b.Name+b.Email:
			return -1
		case a.Name+a.Email > b.Name+b.Email:
			return 1
		}
		return 0
	})
	return c.JSON(http.StatusOK, out)
}

// ResponseWindow is the first response figures of the leads created in
// the last Days days: the time from a lead's creation to the first status
// change or note by a person (nearest-rank median and 90th percentile of
// the answered leads, in seconds).
type ResponseWindow struct {
	Days          int     `json:"days"`
	Leads         int     `json:"leads"`
	Answered      int     `json:"answered"`
	MedianSeconds float64 `json:"medianSeconds"`
	P90Seconds    float64 `json:"p90Seconds"`
}

// ResponseFigures is GET /api/admin/leads/response-times: the last 7 and
// 30 days.
type ResponseFigures struct {
	Windows []ResponseWindow `json:"windows"`
}

// ResponseTimes answers the dashboard's first response figures.
func (h *Handler) ResponseTimes(c echo.Context) error {
	rt, err := h.Store.LeadResponseTimes(c.Request().Context(), time.Now().UTC())
	if err != nil {
		return httperr.Unavailable(msgFiguresBusy, err)
	}
	w := func(days int, s db.ResponseStats) ResponseWindow {
		return ResponseWindow{Days: days, Leads: s.Leads, Answered: s.Answered, MedianSeconds: s.Median.Seconds(), P90Seconds: s.P90.Seconds()}
	}
	return c.JSON(http.StatusOK, ResponseFigures{Windows: []ResponseWindow{w(7, rt.Last7Days), w(30, rt.Last30Days)}})
}

package leads

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// The leads-first dashboard: the leads nobody has answered yet with how
// long each has waited, today's figures, and the admin's one-tap call
// (a reveal of one lead's phone and email, audited).

// Messages of the attention and reveal endpoints.
const (
	msgAttentionBusy = "The leads waiting for an answer could not be loaded. Try again."
	msgRevealBusy    = "The number could not be loaded. Try again."
)

// TodayFigures are today's lead figures, in the business's time zone:
// leads that came in, emergencies among them, leads answered (a person's
// first status change or note) and the median time to that answer.
type TodayFigures struct {
	// Date is today, "2026-11-27".
	Date          string  `json:"date"`
	New           int     `json:"new"`
	Emergencies   int     `json:"emergencies"`
	Answered      int     `json:"answered"`
	MedianSeconds float64 `json:"medianSeconds"`
}

// AttentionAnswer is GET /api/admin/leads/attention: the leads that need
// someone (status new, not answered yet), emergencies first and then the
// longest waiting, masked for every caller as the list masks them; how
// many wait in all; and today's figures.
type AttentionAnswer struct {
	Waiting []leads.Waiting `json:"waiting"`
	Total   int             `json:"total"`
	Today   TodayFigures    `json:"today"`
	// At is the server's time of the answer: each lead's wait is counted
	// to it.
	At time.Time `json:"at"`
}

// Attention answers the dashboard's leads block (leads.read).
func (h *Handler) Attention(c echo.Context) error {
	ctx := c.Request().Context()
	now := time.Now().UTC()
	ls, total, err := h.Store.LeadsAwaiting(ctx, leads.AttentionLimit)
	if err != nil {
		return httperr.Unavailable(msgAttentionBusy, err)
	}
	from, to := leads.Today(now)
	day, err := h.Store.LeadDayFigures(ctx, from, to)
	if err != nil {
		return httperr.Unavailable(msgAttentionBusy, err)
	}
	return c.JSON(http.StatusOK, AttentionAnswer{
		Waiting: leads.WaitingFor(ls, auth.From(c).Account().ID, now),
		Total:   total,
		Today: TodayFigures{Date: from.Format("2006-01-02"), New: day.New, Emergencies: day.Emergencies, Answered: day.Answered,
			MedianSeconds: day.MedianResponse.Seconds()},
		At: now,
	})
}

// Reveal answers POST /api/admin/leads/:id/reveal: one lead's full phone
// and email, for an admin's Call or Text tap (leads.full; staff get
// 'Access Restricted' from the route's guard). Every reveal is in the
// audit log.
func (h *Handler) Reveal(c echo.Context) error {
	if !isAdmin(c) {
		return errFullRestricted
	}
	l, err := h.Store.GetLead(c.Request().Context(), c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	} else if err != nil {
		return httperr.Unavailable(msgRevealBusy, err)
	}
	h.audit(c, auth.From(c).Account(), db.AuditLeadReveal, l.ID, "")
	return c.JSON(http.StatusOK, leads.ContactOf(l))
}

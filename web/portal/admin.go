package portal

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/portal"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// LinkItem is one private link of a lead, as the lead's screen shows it.
// Its token is never shown again after it was issued (only its hash is
// stored).
type LinkItem struct {
	ID   string `json:"id"`
	Kind string `json:"kind" tstype:"'homeowner' | 'adjuster'"`
	// State: live, revoked, or expired.
	State        string     `json:"state" tstype:"'live' | 'revoked' | 'expired'"`
	CreatedAt    time.Time  `json:"createdAt"`
	ExpiresAt    *time.Time `json:"expiresAt"`
	RevokedAt    *time.Time `json:"revokedAt"`
	Opens        int        `json:"opens"`
	LastOpenedAt *time.Time `json:"lastOpenedAt"`
}

// LinkList is a lead's links: the homeowner's (one per message sent)
// and insurers', newest first, with the homeowner's opens summed.
type LinkList struct {
	Items []LinkItem `json:"items"`
	// HomeOpens is how many times the homeowner opened their page, over
	// every link they were sent; HomeLive how many of those still work.
	HomeOpens int `json:"homeOpens"`
	HomeLive  int `json:"homeLive"`
}

// IssuedLink answers an adjuster link's issue: the address to copy,
// shown once.
type IssuedLink struct {
	Link LinkItem `json:"link"`
	URL  string   `json:"url"`
}

// ProgressAnswer answers a recorded step.
type ProgressAnswer struct {
	Step string    `json:"step"`
	At   time.Time `json:"at"`
}

func (h *Handler) itemOf(l db.LeadLink) LinkItem {
	st := "live"
	if l.RevokedAt != nil {
		st = "revoked"
	} else if l.ExpiresAt != nil && !l.ExpiresAt.After(h.now()) {
		st = "expired"
	}
	return LinkItem{ID: l.ID, Kind: l.Kind, State: st, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt, RevokedAt: l.RevokedAt, Opens: l.Opens, LastOpenedAt: l.LastOpenedAt}
}

func actor(c echo.Context) db.Actor {
	u := auth.From(c).Account()
	name := u.Name
	if name == "" {
		name = u.Email
	}
	if name == "" {
		name = "admin PIN"
	}
	return db.Actor{UserID: u.ID, Name: name}
}

var errNoLead = httperr.New(http.StatusNotFound, "This lead no longer exists.")

// Links is GET /api/admin/leads/{id}/links.
func (h *Handler) Links(c echo.Context) error {
	ls, err := h.Store.LeadLinks(c.Request().Context(), c.Param("id"))
	if err != nil {
		return httperr.Unavailable("The lead's links could not be loaded.", err)
	}
	out := LinkList{Items: []LinkItem{}}
	for _, l := range ls {
		it := h.itemOf(l)
		if l.Kind == db.LinkHomeowner {
			out.HomeOpens += l.Opens
			if it.State == "live" {
				out.HomeLive++
			}
		}
		out.Items = append(out.Items, it)
	}
	return c.JSON(http.StatusOK, out)
}

// AdjusterDaysMessage is the owner's message for a life out of range.
var AdjusterDaysMessage = fmt.Sprintf("Choose how many days the link works: 1 to %d.", portal.AdjusterMaxDays)

// IssueAdjuster is POST /api/admin/leads/{id}/links {days}: a new
// read-only link for an insurer, expiring after days (1 to
// portal.AdjusterMaxDays; absent: portal.AdjusterDefaultDays).
func (h *Handler) IssueAdjuster(c echo.Context) error {
	var in struct {
		Days *int `json:"days"`
	}
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, AdjusterDaysMessage)
	}
	days := portal.AdjusterDefaultDays
	if in.Days != nil {
		days = *in.Days
	}
	if days < 1 || days > portal.AdjusterMaxDays {
		return httperr.New(http.StatusBadRequest, AdjusterDaysMessage)
	}
	token, hash := portal.NewToken()
	exp := h.now().Add(time.Duration(days) * 24 * time.Hour)
	l, err := h.Store.IssueLeadLink(c.Request().Context(), c.Param("id"), db.LinkAdjuster, hash, &exp, actor(c), h.now())
	if errors.Is(err, db.ErrBadLink) {
		return errNoLead
	}
	if err != nil {
		return httperr.Unavailable("The link could not be made. Try again.", err)
	}
	return c.JSON(http.StatusCreated, IssuedLink{Link: h.itemOf(l), URL: strings.TrimRight(h.BaseURL, "/") + portal.ClaimPath + token})
}

// Revoke is DELETE /api/admin/leads/{id}/links/{link}: that link of
// this lead stops working.
func (h *Handler) Revoke(c echo.Context) error {
	l, err := h.Store.RevokeLeadLink(c.Request().Context(), c.Param("id"), c.Param("link"), actor(c), h.now())
	if errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusNotFound, "This link is not one of this lead's working links.")
	}
	if err != nil {
		return httperr.Unavailable("The link could not be revoked. Try again.", err)
	}
	return c.JSON(http.StatusOK, h.itemOf(l))
}

// RevokeHome is DELETE /api/admin/leads/{id}/home-links: every link the
// homeowner was sent stops working (a later message carries a new one).
func (h *Handler) RevokeHome(c echo.Context) error {
	if _, err := h.Store.RevokeHomeLinks(c.Request().Context(), c.Param("id"), actor(c), h.now()); err != nil {
		return httperr.Unavailable("The links could not be revoked. Try again.", err)
	}
	return h.Links(c)
}

// Progress is POST /api/admin/leads/{id}/progress {step}: a step of the
// work on the lead's timeline, and the homeowner told.
func (h *Handler) Progress(c echo.Context) error {
	var in struct {
		Step string `json:"step"`
	}
	msg := "Choose on the way, work started or drying started."
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, msg)
	}
	valid := false
	for _, s := range db.ProgressSteps {
		valid = valid || s == in.Step
	}
	if !valid {
		return httperr.New(http.StatusBadRequest, msg)
	}
	e, err := h.Store.RecordProgress(c.Request().Context(), c.Param("id"), in.Step, actor(c), h.now(), h.Tell)
	if errors.Is(err, db.ErrNotFound) {
		return errNoLead
	}
	if err != nil {
		return httperr.Unavailable("The step could not be saved. Try again.", err)
	}
	return c.JSON(http.StatusCreated, ProgressAnswer{Step: e.To, At: e.At})
}

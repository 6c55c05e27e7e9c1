// Package portal (web/portal) is the HTTP side of a lead's private
// links (ADR 065): the homeowner's job page (/my/{token}, with its
// opt-out), an insurer's read-only view (/claim/{token}), and the
// owner's side on the lead's screen (the links and their opens, issuing
// and revoking, the steps of the work). The rules are package portal's
// and the store's; the routes and their guards are in server/install.go.
package portal

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/portal"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Store is what the room reads and writes (db.Store).
type Store interface {
	LeadLinkByHash(ctx context.Context, hash string, now time.Time) (db.LeadLink, error)
	CountLeadLinkOpen(ctx context.Context, id string, now time.Time) error
	LeadForPortal(ctx context.Context, leadID string) (db.LeadPortal, error)
	OptOut(ctx context.Context, contacts []string, now time.Time) error
	LeadLinks(ctx context.Context, leadID string) ([]db.LeadLink, error)
	IssueLeadLink(ctx context.Context, leadID, kind, hash string, expires *time.Time, by db.Actor, now time.Time) (db.LeadLink, error)
	RevokeLeadLink(ctx context.Context, leadID, linkID string, by db.Actor, now time.Time) (db.LeadLink, error)
	RevokeHomeLinks(ctx context.Context, leadID string, by db.Actor, now time.Time) (int, error)
	RecordProgress(ctx context.Context, leadID, step string, by db.Actor, now time.Time, tell func(ctx context.Context, tx *sqlx.Tx, e db.LeadEvent) error) (db.LeadEvent, error)
}

// Handler serves the private pages and the owner's side of the links.
type Handler struct {
	Store Store
	// Render renders the job page (never cached).
	Render func(ctx context.Context, d site.JobPageData) ([]byte, error)
	// Lookups limits token lookups per client (every /my/ and /claim/
	// request, the opt-out's posts among them): a guesser is stopped
	// long before 128 bits matter, and a page load costs one.
	Lookups *guard.Limiter
	// Tell tells the homeowner of a recorded step, in its transaction
	// (notify.Notifier.ProgressRecorded; nil: nobody is told).
	Tell func(ctx context.Context, tx *sqlx.Tx, e db.LeadEvent) error
	// BaseURL is the site's address, for the adjuster links the owner
	// copies.
	BaseURL string
	// Loc is the company's time zone for the times the pages show (nil:
	// America/New_York).
	Loc *time.Location
	Log *slog.Logger
	// Files builds the files section of lead leadID's page at base (the
	// homeowner's view may send; notice is the last post's result), and
	// Booking the inspection visit's section of the homeowner's view at
	// base (web/leadfiles, web/booking; nil: no such section).
	Files   func(ctx context.Context, leadID, base string, homeowner bool, notice string) (site.FilesView, error)
	Booking func(ctx context.Context, leadID, base string) (*site.BookingView, error)
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now().UTC()
	}
	return time.Now().UTC()
}

func (h *Handler) loc() *time.Location {
	if h.Loc != nil {
		return h.Loc
	}
	if l, err := time.LoadLocation("America/New_York"); err == nil {
		return l
	}
	return time.UTC
}

const msgBusy = "This page could not be loaded. Please try again later."

// Resolve finds the live link of kind named by the request's :token,
// after counting the lookup against the client's limit (429): the 404
// screen (site.ErrNotFound) for a malformed, unknown, revoked or expired
// token, or one of the other kind (an adjuster's token opens no
// homeowner page). Every route under /my/{token} and /claim/{token}
// resolves through it.
func (h *Handler) Resolve(c echo.Context, kind string) (db.LeadLink, error) {
	if ok, retry := h.Lookups.Allow(guard.ClientKey(c.RealIP()), h.now()); !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(1, int(retry.Round(time.Second)/time.Second))))
		return db.LeadLink{}, httperr.New(http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.")
	}
	hash := portal.Hash(c.Param("token"))
	if hash == "" {
		return db.LeadLink{}, site.ErrNotFound
	}
	l, err := h.Store.LeadLinkByHash(c.Request().Context(), hash, h.now())
	if errors.Is(err, db.ErrNotFound) || (err == nil && l.Kind != kind) {
		return db.LeadLink{}, site.ErrNotFound
	}
	if err != nil {
		return l, httperr.Unavailable(msgBusy, err)
	}
	return l, nil
}

// page writes a private page: never stored, never indexed, and never
// sending its address, which holds the token, to another site.
func (h *Handler) page(c echo.Context, status int, d site.JobPageData) error {
	body, err := h.Render(c.Request().Context(), d)
	if err != nil {
		return err
	}
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Robots-Tag", "noindex, nofollow")
	hd.Set("Referrer-Policy", "no-referrer")
	return c.HTMLBlob(status, body)
}

// data builds the page of link l's lead (an open is counted when count).
func (h *Handler) data(c echo.Context, l db.LeadLink, count bool) (db.LeadPortal, site.JobPageData, error) {
	ctx := c.Request().Context()
	p, err := h.Store.LeadForPortal(ctx, l.LeadID)
	if err != nil {
		return p, site.JobPageData{}, httperr.Unavailable(msgBusy, err)
	}
	if count {
		if err := h.Store.CountLeadLinkOpen(ctx, l.ID, h.now()); err != nil {
			h.Log.Warn("job page: open not counted", "err", err)
		}
	}
	return p, PageData(p, l.Kind, h.now(), h.loc()), nil
}

// Home is GET /my/{token}: the homeowner's job page.
func (h *Handler) Home(c echo.Context) error {
	l, err := h.Resolve(c, db.LinkHomeowner)
	if err != nil {
		return err
	}
	_, d, err := h.data(c, l, true)
	if err != nil {
		return err
	}
	base := portal.HomePath + c.Param("token")
	d.StopHref = base + "/stop"
	if err := h.sections(c, l, base, true, &d); err != nil {
		return err
	}
	return h.page(c, http.StatusOK, d)
}

// sections adds the files and, on the homeowner's view, the booking to
// page d of link l's lead.
func (h *Handler) sections(c echo.Context, l db.LeadLink, base string, homeowner bool, d *site.JobPageData) error {
	ctx := c.Request().Context()
	d.Files = site.FilesView{Documents: []site.FileView{}, Photos: []site.FileView{}, Yours: []site.FileView{}}
	if h.Files != nil {
		f, err := h.Files(ctx, l.LeadID, base, homeowner, c.QueryParam("files"))
		if err != nil {
			return httperr.Unavailable(msgBusy, err)
		}
		d.Files = f
	}
	if homeowner && h.Booking != nil {
		b, err := h.Booking(ctx, l.LeadID, base+"/booking")
		if err != nil {
			return httperr.Unavailable(msgBusy, err)
		}
		d.Booking = b
	}
	return nil
}

// Claim is GET /claim/{token}: the insurer's read-only view.
func (h *Handler) Claim(c echo.Context) error {
	l, err := h.Resolve(c, db.LinkAdjuster)
	if err != nil {
		return err
	}
	_, d, err := h.data(c, l, true)
	if err != nil {
		return err
	}
	if err := h.sections(c, l, portal.ClaimPath+c.Param("token"), false, &d); err != nil {
		return err
	}
	return h.page(c, http.StatusOK, d)
}

// StopPage is GET /my/{token}/stop: the opt-out's one button.
func (h *Handler) StopPage(c echo.Context) error {
	l, err := h.Resolve(c, db.LinkHomeowner)
	if err != nil {
		return err
	}
	_, d, err := h.data(c, l, false)
	if err != nil {
		return err
	}
	d.State, d.StopHref = "stop", portal.HomePath+c.Param("token")+"/stop"
	return h.page(c, http.StatusOK, d)
}

// Stop is POST /my/{token}/stop, the button and the mail app's
// one-click unsubscribe (RFC 8058): the lead's email and phone get no
// more updates or review requests, on any lead. The page keeps working.
func (h *Handler) Stop(c echo.Context) error {
	l, err := h.Resolve(c, db.LinkHomeowner)
	if err != nil {
		return err
	}
	p, d, err := h.data(c, l, false)
	if err != nil {
		return err
	}
	if err := h.Store.OptOut(c.Request().Context(), []string{p.Lead.Email, p.Lead.Phone}, h.now()); err != nil {
		return httperr.Unavailable("This could not be saved right now. Please try again later.", err)
	}
	d.State, d.StopHref = "stopped", portal.HomePath+c.Param("token")+"/stop"
	return h.page(c, http.StatusOK, d)
}

// doNow is the words key of what to do now for a damage type.
func doNow(damage string) string {
	d := strings.ToLower(damage)
	switch {
	case strings.Contains(d, "water"):
		return "doWater"
	case strings.Contains(d, "fire"), strings.Contains(d, "smoke"):
		return "doFire"
	case strings.Contains(d, "storm"):
		return "doStorm"
	case strings.Contains(d, "mold"):
		return "doMold"
	case strings.Contains(d, "roof"):
		return "doRoof"
	}
	return "doOther"
}

// FirstName is the first word of a name, at most 30 characters.
func FirstName(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	r := []rune(f[0])
	if len(r) > 30 {
		r = r[:30]
	}
	return string(r)
}

var statusStep = map[string]string{"contacted": "contacted", "scheduled": "scheduled", "completed": "completed", "cancelled": "cancelled"}
var progressStep = map[string]string{db.ProgressOnTheWay: "onTheWay", db.ProgressWorkStarted: "workStarted", db.ProgressDryingStarted: "drying"}

// PageData is what a link of kind shows of a lead at now: the timeline
// as steps in plain words (notes, notifications, assignments and links
// are the team's, never shown), and, for the homeowner, who is coming
// and what to do now; for an insurer, the property and the claim.
// Drying counts its days (in loc) until the job is completed.
func PageData(p db.LeadPortal, kind string, now time.Time, loc *time.Location) site.JobPageData {
	when := func(t time.Time) string { return t.In(loc).Format("Mon, Jan 2, 3:04 PM") }
	d := site.JobPageData{View: kind, State: "page", DamageType: p.Lead.DamageType, Steps: []site.JobStep{}}
	drying := -1 // the index of the drying step under way, if any
	var dryingAt time.Time
	for _, e := range p.Timeline {
		var key, visit string
		switch e.Kind {
		case db.EventCreated:
			key = "received"
		case db.EventStatus:
			key = statusStep[e.To]
		case db.EventProgress:
			key = progressStep[e.To]
		case db.EventBooking:
			key, visit = BookingStep(e, loc)
		}
		if key == "" {
			continue
		}
		if drying >= 0 && (key == "completed" || key == "cancelled") {
			// Drying ends when the job is completed or closed.
			d.Steps[drying].Day = days(dryingAt, e.At, loc)
			drying = -1
		}
		d.Steps = append(d.Steps, site.JobStep{Key: key, When: when(e.At), At: e.At.UTC().Format(time.RFC3339), Visit: visit})
		if key == "drying" {
			drying, dryingAt = len(d.Steps)-1, e.At
			d.Steps[drying].Day = 1
		}
	}
	if drying >= 0 {
		d.Steps[drying].Day = days(dryingAt, now, loc)
	}
	if kind == db.LinkAdjuster {
		l := p.Lead
		d.Claim = &site.ClaimFacts{Street: l.StreetAddress, City: l.City, Zip: l.ZipCode, Carrier: l.InsuranceCarrier, ClaimNumber: l.ClaimNumber, Received: when(l.CreatedAt)}
		return d
	}
	d.FirstName, d.Who, d.DoNow = FirstName(p.Lead.FirstName), FirstName(p.WhoIsComing), doNow(p.Lead.DamageType)
	return d
}

// days is the drying's day at t: 1 on the day it started (in loc).
func days(from, to time.Time, loc *time.Location) int {
	a, b := from.In(loc), to.In(loc)
	da := time.Date(a.Year(), a.Month(), a.Day(), 12, 0, 0, 0, time.UTC)
	dz := time.Date(b.Year(), b.Month(), b.Day(), 12, 0, 0, 0, time.UTC)
	n := int(dz.Sub(da).Hours()/24) + 1
	return max(n, 1)
}

// BookingStep reads an inspection booking's event (EventBooking, To
// "booked", "moved" or "cancelled"; Body the visit's start and end,
// RFC 3339, joined by "/"): the "scheduled" step with the visit's date
// and window, or nothing for a cancellation or an unreadable event.
func BookingStep(e db.LeadEvent, loc *time.Location) (key, visit string) {
	if e.To != "booked" && e.To != "moved" {
		return "", ""
	}
	a, b, ok := strings.Cut(e.Body, "/")
	start, err1 := time.Parse(time.RFC3339, a)
	end, err2 := time.Parse(time.RFC3339, b)
	if !ok || err1 != nil || err2 != nil {
		return "scheduled", ""
	}
	s, t := start.In(loc), end.In(loc)
	return "scheduled", s.Format("Monday, January 2") + ", " + s.Format("3:04 PM") + " to " + t.Format("3:04 PM")
}

// Package booking (web/booking) is the HTTP side of inspection booking
// (ADR 066): the homeowner's booking at /my/{token}/booking (pick a
// window, move it, cancel it, download it as an .ics file), every action
// a plain form post answered by a redirect, so it works without
// JavaScript; and the owner's side: the availability in Settings and
// today's and tomorrow's visits on the dashboard, which the owner can
// move. The rules are package booking's (slots, the calendar file) and
// the store's (a window never over its capacity); the routes and their
// guards are in server/install.go.
package booking

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	rules "github.com/atlanta-restoration/site/booking"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Store is what the room reads and writes (db.Store).
type Store interface {
	GetLead(ctx context.Context, id string) (db.Lead, error)
	GetSetting(ctx context.Context, key string) (string, error)
	SetSettings(ctx context.Context, kv map[string]string, now time.Time) error
	LiveBookings(ctx context.Context, from, to time.Time) ([]db.Booking, error)
	LeadBooking(ctx context.Context, leadID string) (db.Booking, error)
	VisitByID(ctx context.Context, id string) (db.Booking, error)
	Visits(ctx context.Context, from, to time.Time) ([]db.Visit, error)
	BookVisit(ctx context.Context, leadID string, start, end time.Time, capacity int, by db.Actor, now time.Time, then db.BookingChange) (db.Booking, error)
	MoveVisit(ctx context.Context, id string, start, end time.Time, capacity int, by db.Actor, now time.Time, then db.BookingChange) (db.Booking, error)
	CancelVisit(ctx context.Context, id string, by db.Actor, now time.Time, then db.BookingChange) (db.Booking, error)
}

// Handler serves the booking page and the owner's booking screens.
type Handler struct {
	Store Store
	Links Links
	// Render renders the booking page (never cached).
	Render func(ctx context.Context, d site.BookingData) ([]byte, error)
	// Phone is the company's phone number; Business its name (the
	// calendar file's title).
	Phone    func(ctx context.Context) string
	Business func(ctx context.Context) string
	// Lookups limits the token lookups per client, as the feedback
	// page's posts are.
	Lookups *guard.Limiter
	// Tell tells the homeowner of a change, inside the change's
	// transaction (notify.TellHomeowner once wired; nil: nobody is told
	// but the timeline).
	Tell db.BookingChange
	Log  *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now().UTC()
	}
	return time.Now().UTC()
}

// closed says the request is finished (completed or cancelled): nothing
// new is booked for it.
func closed(l db.Lead) bool { return l.Status == "completed" || l.Status == "cancelled" }

// homeowner is the server's actor for a homeowner's own change.
var homeowner = db.Actor{Name: "homeowner"}

// MyPath is where a homeowner's page lives; the booking hangs under it.
const MyPath = "/my/"

// availability is the owner's availability (the default until saved).
func (h *Handler) availability(ctx context.Context) (rules.Availability, error) {
	v, err := h.Store.GetSetting(ctx, rules.SettingKey)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return rules.Availability{}, err
	}
	return rules.Parse(v), nil
}

// open lists the open windows of the next rules.Days days, and the
// availability they come from.
func (h *Handler) open(ctx context.Context, now time.Time) ([]rules.Slot, rules.Availability, error) {
	av, err := h.availability(ctx)
	if err != nil {
		return nil, av, err
	}
	slots, err := h.openWith(ctx, av, now)
	return slots, av, err
}

// openWith lists the open windows of av against the live bookings.
func (h *Handler) openWith(ctx context.Context, av rules.Availability, now time.Time) ([]rules.Slot, error) {
	live, err := h.Store.LiveBookings(ctx, now.Add(-24*time.Hour), now.Add((rules.Days+1)*24*time.Hour))
	if err != nil {
		return nil, err
	}
	taken := make([]rules.Taken, len(live))
	for i, b := range live {
		taken[i] = rules.Taken{Start: b.Start, End: b.End}
	}
	return rules.Slots(av, taken, now, rules.Days), nil
}

// lead finds the token's lead: the 404 page for a malformed, unknown,
// revoked or expired link, or one that is not the homeowner's, and 429
// for a client over the lookups limit.
func (h *Handler) lead(c echo.Context) (db.Lead, error) {
	if ok, retry := h.Lookups.Allow(guard.ClientKey(c.RealIP()), h.now()); !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(1, int(retry.Round(time.Second)/time.Second))))
		return db.Lead{}, httperr.New(http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.")
	}
	hash := HashToken(c.Param("token"))
	if hash == "" {
		return db.Lead{}, site.ErrNotFound
	}
	ctx := c.Request().Context()
	link, err := h.Links.LeadLinkByHash(ctx, hash, h.now())
	if errors.Is(err, db.ErrNotFound) || (err == nil && link.Kind != db.LinkHomeowner) {
		return db.Lead{}, site.ErrNotFound
	}
	if err != nil {
		return db.Lead{}, httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	l, err := h.Store.GetLead(ctx, link.LeadID)
	if errors.Is(err, db.ErrNotFound) {
		return l, site.ErrNotFound
	}
	if err != nil {
		return l, httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	return l, nil
}

func (h *Handler) base(c echo.Context) string { return MyPath + c.Param("token") + "/booking" }

// slotOf is a window as the page shows it.
func slotOf(start, end time.Time) site.BookingSlot {
	s, e := start.In(rules.Zone), end.In(rules.Zone)
	return site.BookingSlot{Value: start.UTC().Format(time.RFC3339), Day: s.Format("Monday, January 2"),
		Time: s.Format("3:04 PM") + " to " + e.Format("3:04 PM")}
}

// View is the booking section of the lead's page, for the page at base
// (the job page shows it too): what the homeowner can do now.
func (h *Handler) View(ctx context.Context, l db.Lead, base string, moving bool) (site.BookingView, error) {
	v := site.BookingView{Action: base, CancelAction: base + "/cancel", ICSHref: base + ".ics", Phone: h.Phone(ctx), Slots: []site.BookingSlot{}}
	if l.IsEmergency {
		v.State = "emergency"
		return v, nil
	}
	b, err := h.Store.LeadBooking(ctx, l.ID)
	switch {
	case err == nil:
		bs := slotOf(b.Start, b.End)
		v.State, v.Booked, v.Moving = "booked", &bs, moving
	case !errors.Is(err, db.ErrNotFound):
		return v, err
	}
	if v.State == "booked" && (!moving || closed(l)) {
		v.Moving = false
		return v, nil
	}
	if v.State == "" && closed(l) {
		v.State = "closed"
		return v, nil
	}
	slots, _, err := h.open(ctx, h.now())
	if err != nil {
		return v, err
	}
	for _, s := range slots {
		v.Slots = append(v.Slots, slotOf(s.Start, s.End))
	}
	if v.State == "" {
		v.State = "pick"
		if len(v.Slots) == 0 {
			v.State = "full"
		}
	}
	if v.State == "booked" && len(v.Slots) == 0 {
		v.Moving, v.Error = false, "No other time is free online in the next two weeks. Call us and we will find one with you."
	}
	return v, nil
}

// page writes the booking page: private (no-store, noindex) and never
// sending its address, which holds the token, to another site.
func (h *Handler) page(c echo.Context, status int, l db.Lead, v site.BookingView) error {
	body, err := h.Render(c.Request().Context(), site.BookingData{FirstName: l.FirstName, Booking: v})
	if err != nil {
		return err
	}
	private(c)
	return c.HTMLBlob(status, body)
}

func private(c echo.Context) {
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Robots-Tag", "noindex, nofollow")
	hd.Set("Referrer-Policy", "no-referrer")
}

var doneStates = map[string]bool{"booked": true, "moved": true, "cancelled": true}

// Show is GET /my/{token}/booking: the open windows, or the booked
// visit (?move=1: with the windows to move it to).
func (h *Handler) Show(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	v, err := h.View(c.Request().Context(), l, h.base(c), c.QueryParam("move") == "1")
	if err != nil {
		return httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	if d := c.QueryParam("done"); doneStates[d] {
		v.Done = d
	}
	return h.page(c, http.StatusOK, l, v)
}

// refuse shows the page again with a message.
func (h *Handler) refuse(c echo.Context, status int, l db.Lead, msg string) error {
	v, err := h.View(c.Request().Context(), l, h.base(c), true)
	if err != nil {
		return httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	v.Error = msg
	return h.page(c, status, l, v)
}

// Book is POST /my/{token}/booking (field start: a window's start, RFC
// 3339): books the window, or moves the booked visit to it; then
// redirects to the page (303). An emergency is refused: its homeowner
// is called, not booked.
func (h *Handler) Book(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	if l.IsEmergency {
		return h.refuse(c, http.StatusForbidden, l, "An emergency is not booked online: we call you back as soon as possible. Call us now if you need us sooner.")
	}
	if closed(l) {
		return h.refuse(c, http.StatusConflict, l, "This request is closed, so no visit can be booked online. Please call us.")
	}
	ctx, now := c.Request().Context(), h.now()
	start, err := time.Parse(time.RFC3339, c.FormValue("start"))
	if err != nil {
		return h.refuse(c, http.StatusUnprocessableEntity, l, "Please pick one of the times below.")
	}
	slots, av, err := h.open(ctx, now)
	if err != nil {
		return httperr.Unavailable("Your visit could not be booked right now. Please try again later, or call us.", err)
	}
	slot, ok := rules.Find(slots, start.UTC())
	prev, err := h.Store.LeadBooking(ctx, l.ID)
	moving := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("Your visit could not be booked right now. Please try again later, or call us.", err)
	}
	if !ok && moving && prev.Start.Equal(start) {
		return c.Redirect(http.StatusSeeOther, h.base(c)+"?done=moved")
	}
	if !ok {
		return h.refuse(c, http.StatusConflict, l, "That time is no longer free. Please pick another one.")
	}
	done := "booked"
	if moving {
		_, err = h.Store.MoveVisit(ctx, prev.ID, slot.Start, slot.End, av.PerSlot, homeowner, now, h.Tell)
		done = "moved"
	} else {
		_, err = h.Store.BookVisit(ctx, l.ID, slot.Start, slot.End, av.PerSlot, homeowner, now, h.Tell)
	}
	switch {
	case errors.Is(err, db.ErrSlotFull):
		return h.refuse(c, http.StatusConflict, l, "That time was just taken. Please pick another one.")
	case errors.Is(err, db.ErrAlreadyBooked):
		return c.Redirect(http.StatusSeeOther, h.base(c))
	case err != nil:
		return httperr.Unavailable("Your visit could not be booked right now. Please try again later, or call us.", err)
	}
	h.Log.Info("visit "+done, "lead", l.ID)
	return c.Redirect(http.StatusSeeOther, h.base(c)+"?done="+done+"#booking-title")
}

// Cancel is POST /my/{token}/booking/cancel: cancels the booked visit
// (nothing booked: back to the page) and redirects to the page.
func (h *Handler) Cancel(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	b, err := h.Store.LeadBooking(ctx, l.ID)
	if errors.Is(err, db.ErrNotFound) {
		return c.Redirect(http.StatusSeeOther, h.base(c))
	}
	if err == nil {
		_, err = h.Store.CancelVisit(ctx, b.ID, homeowner, h.now(), h.Tell)
	}
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("Your visit could not be cancelled right now. Please try again later, or call us.", err)
	}
	h.Log.Info("visit cancelled", "lead", l.ID)
	return c.Redirect(http.StatusSeeOther, h.base(c)+"?done=cancelled#booking-title")
}

// ICSFile is GET /my/{token}/booking.ics: the booked visit as a
// calendar file (404 when nothing is booked).
func (h *Handler) ICSFile(c echo.Context) error {
	l, err := h.lead(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	b, err := h.Store.LeadBooking(ctx, l.ID)
	if errors.Is(err, db.ErrNotFound) {
		return site.ErrNotFound
	}
	if err != nil {
		return httperr.Unavailable("This file could not be made right now. Please try again later.", err)
	}
	private(c)
	c.Response().Header().Set("Content-Disposition", `attachment; filename="inspection.ics"`)
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", rules.ICS(EventOf(b, l, h.Business(ctx), h.Phone(ctx), h.now())))
}

// EventOf is a booking as its calendar file describes it (the
// confirmation email can attach the same file).
func EventOf(b db.Booking, l db.Lead, business, phone string, now time.Time) rules.Event {
	where := l.StreetAddress
	if l.City != "" {
		if where != "" {
			where += ", "
		}
		where += l.City
	}
	return rules.Event{UID: "inspection-" + b.ID + "@" + "booking", Sequence: b.Sequence, Start: b.Start, End: b.End, Stamp: now,
		Summary: "Inspection visit: " + business, Location: where,
		Description: "Free inspection visit. To reach us: " + phone + ".", Cancelled: b.CancelledAt != nil}
}

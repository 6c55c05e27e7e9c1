package booking

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	rules "github.com/atlanta-restoration/site/booking"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// AvailabilityAnswer is the Settings screen's booking section: the
// owner's availability and the time zone its hours are in.
type AvailabilityAnswer struct {
	Availability rules.Availability `json:"availability"`
	TimeZone     string             `json:"timeZone"`
}

// VisitItem is one booked visit on the dashboard.
type VisitItem struct {
	ID         string `json:"id"`
	LeadID     string `json:"leadId"`
	FirstName  string `json:"firstName"`
	City       string `json:"city"`
	DamageType string `json:"damageType"`
	// Start and End are the window (UTC); When is how it reads
	// ("9:00 AM to 11:00 AM").
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	When  string    `json:"when"`
}

// VisitDay is a day's visits ("Today", "Tomorrow").
type VisitDay struct {
	Label  string      `json:"label"`
	Date   string      `json:"date"`
	Visits []VisitItem `json:"visits"`
}

// SlotChoice is an open window a visit can be moved to.
type SlotChoice struct {
	Start time.Time `json:"start"`
	Label string    `json:"label"`
	Left  int       `json:"left"`
}

// VisitsAnswer is the dashboard's visits: today's and tomorrow's, and
// the open windows of the next two weeks to move one to.
type VisitsAnswer struct {
	Days  []VisitDay   `json:"days"`
	Slots []SlotChoice `json:"slots"`
}

// MoveRequest moves a visit to the window starting at Start.
type MoveRequest struct {
	Start time.Time `json:"start"`
}

// Availability is GET /api/admin/booking: the availability.
func (h *Handler) Availability(c echo.Context) error {
	av, err := h.availability(c.Request().Context())
	if err != nil {
		return httperr.Unavailable("The booking settings could not be loaded.", err)
	}
	return c.JSON(http.StatusOK, AvailabilityAnswer{Availability: av, TimeZone: rules.Zone.String()})
}

// SaveAvailability is PUT /api/admin/booking: checks and saves the
// availability (400 with the sentence to fix). Visits already booked
// stay booked.
func (h *Handler) SaveAvailability(c echo.Context) error {
	var in AvailabilityAnswer
	dec := json.NewDecoder(http.MaxBytesReader(c.Response(), c.Request().Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the booking settings as JSON: weekly hours, visit length, visits at once, blocked days and notice.", Err: err}
	}
	av, err := in.Availability.Validate()
	if err != nil {
		return httperr.New(http.StatusBadRequest, err.Error())
	}
	if err := h.Store.SetSettings(c.Request().Context(), map[string]string{rules.SettingKey: av.Encode()}, h.now()); err != nil {
		return httperr.Unavailable("The booking settings could not be saved.", err)
	}
	h.Log.Info("booking settings saved")
	return c.JSON(http.StatusOK, AvailabilityAnswer{Availability: av, TimeZone: rules.Zone.String()})
}

// Visits is GET /api/admin/visits: today's and tomorrow's visits (the
// business's days) and the windows to move one to.
func (h *Handler) Visits(c echo.Context) error {
	ctx, now := c.Request().Context(), h.now()
	local := now.In(rules.Zone)
	y, m, d := local.Date()
	ans := VisitsAnswer{Days: []VisitDay{}, Slots: []SlotChoice{}}
	for i, label := range []string{"Today", "Tomorrow"} {
		from := time.Date(y, m, d+i, 0, 0, 0, 0, rules.Zone)
		to := time.Date(y, m, d+i+1, 0, 0, 0, 0, rules.Zone)
		vs, err := h.Store.Visits(ctx, from, to)
		if err != nil {
			return httperr.Unavailable("The visits could not be loaded.", err)
		}
		day := VisitDay{Label: label, Date: from.Format("Monday, January 2"), Visits: []VisitItem{}}
		for _, v := range vs {
			day.Visits = append(day.Visits, VisitItem{ID: v.ID, LeadID: v.LeadID, FirstName: v.FirstName, City: v.City, DamageType: v.DamageType,
				Start: v.Start, End: v.End, When: slotOf(v.Start, v.End).Time})
		}
		ans.Days = append(ans.Days, day)
	}
	av, err := h.availability(ctx)
	if err != nil {
		return httperr.Unavailable("The visits could not be loaded.", err)
	}
	// The owner moves a visit past the homeowners' notice: the windows
	// from now on.
	av.NoticeHours = 0
	slots, err := h.openWith(ctx, av, now)
	if err != nil {
		return httperr.Unavailable("The visits could not be loaded.", err)
	}
	for _, s := range slots {
		ans.Slots = append(ans.Slots, SlotChoice{Start: s.Start, Label: rules.Label(s.Start, s.End), Left: s.Left})
	}
	return c.JSON(http.StatusOK, ans)
}

// actor is the caller as the lead's timeline names them.
func actor(c echo.Context) db.Actor {
	p := auth.From(c)
	if p.IsPIN() {
		return db.Actor{Name: "admin PIN"}
	}
	u := p.Account()
	name := u.Name
	if name == "" {
		name = u.Email
	}
	return db.Actor{UserID: u.ID, Name: name}
}

// MoveVisit is PATCH /api/admin/visits/{id}: moves a visit to an open
// window (409 when it is not open, 404 for no such live visit). The
// homeowner is told as for their own move.
func (h *Handler) MoveVisit(c echo.Context) error {
	var in MoveRequest
	if err := c.Bind(&in); err != nil || in.Start.IsZero() {
		return httperr.New(http.StatusBadRequest, "Choose the new time of the visit.")
	}
	ctx, now := c.Request().Context(), h.now()
	b, err := h.Store.VisitByID(ctx, c.Param("id"))
	if errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusNotFound, "This visit is no longer booked.")
	}
	if err != nil {
		return httperr.Unavailable("The visit could not be moved.", err)
	}
	av, err := h.availability(ctx)
	if err != nil {
		return httperr.Unavailable("The visit could not be moved.", err)
	}
	av.NoticeHours = 0
	slots, err := h.openWith(ctx, av, now)
	if err != nil {
		return httperr.Unavailable("The visit could not be moved.", err)
	}
	slot, ok := rules.Find(slots, in.Start.UTC())
	if !ok {
		return httperr.New(http.StatusConflict, "That time is not open: it is full, past, blocked or outside the visiting hours.")
	}
	moved, err := h.Store.MoveVisit(ctx, b.ID, slot.Start, slot.End, av.PerSlot, actor(c), now, h.Tell)
	switch {
	case errors.Is(err, db.ErrSlotFull):
		return httperr.New(http.StatusConflict, "That time was just taken. Choose another one.")
	case errors.Is(err, db.ErrNotFound):
		return httperr.New(http.StatusNotFound, "This visit is no longer booked.")
	case err != nil:
		return httperr.Unavailable("The visit could not be moved.", err)
	}
	l, err := h.Store.GetLead(ctx, moved.LeadID)
	if err != nil {
		return httperr.Unavailable("The visit was moved, but could not be shown.", err)
	}
	return c.JSON(http.StatusOK, VisitItem{ID: moved.ID, LeadID: moved.LeadID, FirstName: l.FirstName, City: l.City, DamageType: l.DamageType,
		Start: moved.Start, End: moved.End, When: rules.Label(moved.Start, moved.End)})
}

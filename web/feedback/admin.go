package feedback

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/web/httperr"
)

// TestimonialItem is one testimonial on the Testimonials screen.
type TestimonialItem struct {
	ID string `json:"id"`
	// LeadID is the lead it came from (the leads screen opens it).
	LeadID    string `json:"leadId"`
	FirstName string `json:"firstName"`
	City      string `json:"city"`
	Text      string `json:"text"`
	// Consent: the homeowner agreed to its publication under first name
	// and city. Without it, approving keeps it off the site.
	Consent bool   `json:"consent"`
	State   string `json:"state" tstype:"'pending' | 'approved' | 'hidden'"`
	// Shown: on the city page now (approved, with consent).
	Shown     bool      `json:"shown"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// TestimonialList is the screen's list and its counts by state.
type TestimonialList struct {
	Items    []TestimonialItem `json:"items"`
	Pending  int               `json:"pending"`
	Approved int               `json:"approved"`
	Hidden   int               `json:"hidden"`
}

func itemOf(t db.Testimonial) TestimonialItem {
	return TestimonialItem{ID: t.ID, LeadID: t.LeadID, FirstName: t.FirstName, City: t.City, Text: t.Body, Consent: t.Consent, State: t.State,
		Shown: t.State == db.TestimonialApproved && t.Consent, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

// List is GET /api/admin/testimonials?state=pending|approved|hidden|all.
func (h *Handler) List(c echo.Context) error {
	state := c.QueryParam("state")
	switch state {
	case "", "all":
		state = "all"
	case db.TestimonialPending, db.TestimonialApproved, db.TestimonialHidden:
	default:
		return httperr.New(http.StatusBadRequest, "Show pending, approved, hidden or all testimonials.")
	}
	all, err := h.Store.Testimonials(c.Request().Context(), "")
	if err != nil {
		return httperr.Unavailable("Testimonials could not be loaded.", err)
	}
	out := TestimonialList{Items: []TestimonialItem{}}
	for _, t := range all {
		switch t.State {
		case db.TestimonialPending:
			out.Pending++
		case db.TestimonialApproved:
			out.Approved++
		case db.TestimonialHidden:
			out.Hidden++
		}
		if state == "all" || t.State == state {
			out.Items = append(out.Items, itemOf(t))
		}
	}
	return c.JSON(http.StatusOK, out)
}

// Moderate is PATCH /api/admin/testimonials/{id}: approve, hide or send
// back to pending, and fix its words. Pages that show testimonials are
// rendered again.
func (h *Handler) Moderate(c echo.Context) error {
	var in struct {
		State string  `json:"state"`
		Text  *string `json:"text"`
	}
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, "Choose approve or hide.")
	}
	switch in.State {
	case db.TestimonialPending, db.TestimonialApproved, db.TestimonialHidden:
	default:
		return httperr.New(http.StatusBadRequest, "Choose approve or hide.")
	}
	if in.Text != nil {
		clean, msg := notify.CleanTestimonial(*in.Text)
		if msg != "" {
			return httperr.New(http.StatusBadRequest, msg)
		}
		in.Text = &clean
	}
	t, err := h.Store.ModerateTestimonial(c.Request().Context(), c.Param("id"), in.State, in.Text, h.now())
	if errors.Is(err, db.ErrNotFound) {
		return httperr.New(http.StatusNotFound, "This testimonial no longer exists.")
	}
	if err != nil {
		return httperr.Unavailable("The testimonial could not be saved.", err)
	}
	if h.Changed != nil {
		h.Changed("testimonial " + t.State)
	}
	return c.JSON(http.StatusOK, itemOf(t))
}

// ReviewSettings are the review request's settings as the screen shows
// them.
type ReviewSettings struct {
	// DelayMinutes is how long after a job is marked completed the
	// customer is asked.
	DelayMinutes int `json:"delayMinutes"`
	// ReviewLink is the review page address the owner pasted ("").
	ReviewLink string `json:"reviewLink"`
	// GoogleConfigured: the Google place id is set, so its review page is
	// the one every request links to (ReviewLink is then unused).
	GoogleConfigured bool `json:"googleConfigured"`
	// LinkInUse is the review link requests carry now ("": none).
	LinkInUse string `json:"linkInUse"`
	// Email and SMS: requests can go by email, by text.
	Email bool `json:"email"`
	SMS   bool `json:"sms"`
}

func (h *Handler) settings(c echo.Context) (ReviewSettings, error) {
	ctx := c.Request().Context()
	m, err := h.Store.Settings(ctx)
	if err != nil {
		return ReviewSettings{}, httperr.Unavailable("Review request settings could not be loaded.", err)
	}
	st := ReviewSettings{DelayMinutes: int(db.ReviewDelay(m[db.ReviewDelaySetting]) / time.Minute), ReviewLink: m[db.ReviewLinkSetting],
		GoogleConfigured: strings.TrimSpace(h.PlaceID) != "", LinkInUse: h.reviewLink(ctx)}
	if h.Channels != nil {
		st.Email, st.SMS = h.Channels()
	}
	return st, nil
}

// Settings is GET /api/admin/review-requests.
func (h *Handler) Settings(c echo.Context) error {
	st, err := h.settings(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// SaveSettings is PUT /api/admin/review-requests: the delay (minutes,
// 0 to two weeks) and the pasted review link (https, or empty). A
// request already scheduled keeps its time.
func (h *Handler) SaveSettings(c echo.Context) error {
	var in struct {
		DelayMinutes settings.FormValue `json:"delayMinutes"`
		ReviewLink   string             `json:"reviewLink"`
	}
	if err := c.Bind(&in); err != nil {
		return httperr.New(http.StatusBadRequest, notify.ReviewDelayMessage)
	}
	n, err := strconv.Atoi(strings.TrimSpace(in.DelayMinutes.Text))
	if err != nil || n < 0 || n > db.MaxReviewDelayMinutes {
		return httperr.New(http.StatusBadRequest, notify.ReviewDelayMessage)
	}
	link := strings.TrimSpace(in.ReviewLink)
	if link != "" && !notify.ValidReviewLink(link) {
		return httperr.New(http.StatusBadRequest, notify.ReviewLinkMessage)
	}
	if err := h.Store.SetSettings(c.Request().Context(), map[string]string{db.ReviewDelaySetting: strconv.Itoa(n), db.ReviewLinkSetting: link}, h.now()); err != nil {
		return httperr.Unavailable("Review request settings could not be saved.", err)
	}
	st, err := h.settings(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

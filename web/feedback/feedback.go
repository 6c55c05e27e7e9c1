// Package feedback (web/feedback) is the HTTP side of review requests
// (issue 33, ADR 063): the private feedback page a request links to
// (/feedback/{token}: a testimonial and its consent, and the opt-out),
// and the owner's Testimonials screen (moderation and the request's
// settings). The rules are notify's (review.go) and the store's; the
// routes and their guards are in server/install.go.
package feedback

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/notify"
	"github.com/atlanta-restoration/site/site"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Store is what the room reads and writes (db.Store).
type Store interface {
	ReviewByToken(ctx context.Context, tokenHash string, since time.Time) (db.ReviewTokenLead, error)
	TestimonialOfRequest(ctx context.Context, requestID string) (db.Testimonial, error)
	SaveTestimonial(ctx context.Context, t db.Testimonial, now time.Time) (db.Testimonial, error)
	OptOut(ctx context.Context, contacts []string, now time.Time) error
	Testimonials(ctx context.Context, state string) ([]db.Testimonial, error)
	ModerateTestimonial(ctx context.Context, id, state string, body *string, now time.Time) (db.Testimonial, error)
	Settings(ctx context.Context) (map[string]string, error)
	SetSettings(ctx context.Context, kv map[string]string, now time.Time) error
}

// Handler serves the feedback page and the Testimonials screen.
type Handler struct {
	Store Store
	// Render renders the feedback page with its state (never cached).
	Render func(ctx context.Context, d site.FeedbackData) ([]byte, error)
	// PlaceID is GOOGLE_PLACE_ID ("" when not set).
	PlaceID string
	// Posts limits the feedback page's posts per client, as the
	// estimate form's flood guard does.
	Posts *guard.Limiter
	// Channels says whether review requests can go by email and by text.
	Channels func() (email, sms bool)
	// Changed re-renders the pages a testimonial shows on.
	Changed func(reason string)
	Log     *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now().UTC()
	}
	return time.Now().UTC()
}

// reviewLink is where to review the company now.
func (h *Handler) reviewLink(ctx context.Context) string {
	return notify.ReviewLink(ctx, h.PlaceID, func(ctx context.Context) string {
		m, err := h.Store.Settings(ctx)
		if err != nil {
			return ""
		}
		return m[db.ReviewLinkSetting]
	})
}

// request finds the token's request: site.ErrNotFound (the 404 screen)
// for an unknown or expired one.
func (h *Handler) request(c echo.Context) (db.ReviewTokenLead, error) {
	token := c.Param("token")
	if len(token) != 43 {
		return db.ReviewTokenLead{}, site.ErrNotFound
	}
	r, err := h.Store.ReviewByToken(c.Request().Context(), notify.ReviewTokenHash(token), h.now().Add(-notify.ReviewTokenTTL))
	if errors.Is(err, db.ErrNotFound) {
		return r, site.ErrNotFound
	}
	if err != nil {
		return r, httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	return r, nil
}

// page writes the feedback page: private (no-store, noindex) and never
// sending its address, which holds the token, to another site.
func (h *Handler) page(c echo.Context, status int, r db.ReviewTokenLead, d site.FeedbackData) error {
	ctx := c.Request().Context()
	base := notify.FeedbackPath + c.Param("token")
	d.Action, d.StopHref = base, base+notify.OptOutSuffix
	d.FirstName, d.City = notify.PublicFirstName(r.FirstName), r.City
	d.ReviewLink, d.MaxLen = h.reviewLink(ctx), notify.MaxTestimonial
	body, err := h.Render(ctx, d)
	if err != nil {
		return err
	}
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Robots-Tag", "noindex, nofollow")
	hd.Set("Referrer-Policy", "no-referrer")
	return c.HTMLBlob(status, body)
}

// Show is GET /feedback/{token}: the form, with what was sent before.
func (h *Handler) Show(c echo.Context) error {
	r, err := h.request(c)
	if err != nil {
		return err
	}
	d := site.FeedbackData{State: "form"}
	t, err := h.Store.TestimonialOfRequest(c.Request().Context(), r.RequestID)
	if err == nil {
		d.Text, d.Consent = t.Body, t.Consent
	} else if !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("This page could not be loaded. Please try again later.", err)
	}
	return h.page(c, http.StatusOK, r, d)
}

// tooMany answers a client over the posts limit.
func (h *Handler) tooMany(c echo.Context, retry time.Duration) error {
	c.Response().Header().Set("Retry-After", retryAfter(retry))
	return httperr.New(http.StatusTooManyRequests, "Too many attempts. Please wait a few minutes and try again.")
}

func retryAfter(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 1 {
		s = 1
	}
	return strconv.Itoa(s)
}

// Save is POST /feedback/{token}: the testimonial and its consent. A
// second post updates the first (one per request) and waits for the
// owner again.
func (h *Handler) Save(c echo.Context) error {
	if ok, retry := h.Posts.Allow(guard.ClientKey(c.RealIP()), h.now()); !ok {
		return h.tooMany(c, retry)
	}
	r, err := h.request(c)
	if err != nil {
		return err
	}
	consent := c.FormValue("consent") == "yes"
	text, msg := notify.CleanTestimonial(c.FormValue("text"))
	if msg != "" {
		return h.page(c, http.StatusUnprocessableEntity, r, site.FeedbackData{State: "form", Text: text, Consent: consent, Error: msg})
	}
	ctx := c.Request().Context()
	prev, err := h.Store.TestimonialOfRequest(ctx, r.RequestID)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return httperr.Unavailable("Your words could not be saved right now. Please try again later.", err)
	}
	wasShown := err == nil && prev.State == db.TestimonialApproved && prev.Consent
	t, err := h.Store.SaveTestimonial(ctx, db.Testimonial{RequestID: r.RequestID, LeadID: r.LeadID,
		FirstName: notify.PublicFirstName(r.FirstName), City: r.City, Body: text, Consent: consent}, h.now())
	if err != nil {
		return httperr.Unavailable("Your words could not be saved right now. Please try again later.", err)
	}
	if wasShown && h.Changed != nil {
		// A saved change takes an approved testimonial off the site until
		// the owner approves it again; any other save changes no page.
		h.Changed("testimonial sent again")
	}
	return h.page(c, http.StatusOK, r, site.FeedbackData{State: "thanks", Text: t.Body, Consent: t.Consent})
}

// StopPage is GET /feedback/{token}/stop: the opt-out's one button (a
// link scanner that opens every link stops nothing).
func (h *Handler) StopPage(c echo.Context) error {
	r, err := h.request(c)
	if err != nil {
		return err
	}
	return h.page(c, http.StatusOK, r, site.FeedbackData{State: "stop"})
}

// Stop is POST /feedback/{token}/stop, the button and the mail
// provider's one-click unsubscribe (RFC 8058): the lead's email and
// phone are never asked again, on any lead.
func (h *Handler) Stop(c echo.Context) error {
	if ok, retry := h.Posts.Allow(guard.ClientKey(c.RealIP()), h.now()); !ok {
		return h.tooMany(c, retry)
	}
	r, err := h.request(c)
	if err != nil {
		return err
	}
	if err := h.Store.OptOut(c.Request().Context(), []string{r.Email, r.Phone}, h.now()); err != nil {
		return httperr.Unavailable("This could not be saved right now. Please try again later.", err)
	}
	return h.page(c, http.StatusOK, r, site.FeedbackData{State: "stopped"})
}

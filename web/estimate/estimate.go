// Package estimate is the HTTP side of the native estimate form (ADR 025):
// the POST of /estimate (no JavaScript) and /api/estimate (inline). It
// validates on the server (the form's rules are package leads',
// leads/estimate.go), counts only stored leads toward the per-IP limit
// (with a flood guard on posts), and hands the lead to the intake, which
// stores it or spools it. The routes are in server/install.go; the page
// itself is a route of the public site.
package estimate

import (
	"context"
	"fmt"
	"html"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/guard"
	"github.com/atlanta-restoration/site/leads"
	"github.com/atlanta-restoration/site/spool"
	"github.com/atlanta-restoration/site/ssr"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Intake stores a lead, or spools it when the database cannot take it
// (spool.Intake).
type Intake interface {
	Submit(ctx context.Context, l db.Lead) (spool.Outcome, error)
}

// Handler serves the estimate form's posts.
type Handler struct {
	Leads Intake
	// Limit counts stored leads per client IP (LeadsPerWindow per Window,
	// across instances on PostgreSQL); Posts counts every post, in this
	// process (PostsPerWindow per Window), the flood guard.
	Limit guard.Attempts
	Posts *guard.Limiter
	// Phone is the phone number the messages give.
	Phone func(ctx context.Context) string
	// Recorded counts a stored lead in the site's analytics.
	Recorded func(c echo.Context)
	// Render renders the estimate page with st (the no-JavaScript answer).
	Render func(ctx context.Context, st *leads.EstimateState) ([]byte, error)
	// SiteHost is BASE_URL's host: a landing page or a Referer is this
	// site's only on it (leads.ParseAttribution).
	SiteHost string
	// BookingLink is where the homeowner of a stored lead books an
	// inspection ("" for none: an emergency, which is called instead,
	// or a link that could not be issued); nil: booking is not offered
	// (ADR 066). The thank-you screen links to it.
	BookingLink func(ctx context.Context, l db.Lead) string
	Log         *slog.Logger
}

func parseEstimate(c echo.Context) (leads.EstimateValues, string) {
	f := func(k string) string { return strings.TrimSpace(c.FormValue(k)) }
	return leads.EstimateValues{
		Name: f("name"), Phone: f("phone"), Email: f("email"), City: f("city"), Street: f("street"),
		Zip: f("zip"), DamageType: f("damageType"), Emergency: f("emergency"),
		InsuranceCarrier: f("insuranceCarrier"), Notes: f("notes"),
	}, c.FormValue("website")
}

// Post takes an estimate request from the native form. With
// JavaScript it answers JSON; without, it redirects to the thank-you page
// or re-renders the form with the messages and everything typed kept.
// The lead goes to the database with its notifications, or, when the
// database cannot take it, to the spool on disk: either way the visitor
// is told it was received (spool.Intake).
func (h *Handler) Post(c echo.Context) error {
	ctx := c.Request().Context()
	v, honeypot := parseEstimate(c)
	ip := c.RealIP()
	client := guard.ClientKey(ip) // what the limits count (an IPv6 /64)
	now := time.Now().UTC()
	if ok, retry := h.Posts.Allow(client, now); !ok {
		return h.tooMany(c, v, retry)
	}
	// Where the visit came from: the hidden fields, else the Referer of
	// the form's page; every value checked and bounded here.
	attribution := leads.ParseAttribution(c.Request().Form, c.Request().Referer(), h.SiteHost)
	if errs := leads.ValidateEstimate(v); len(errs) > 0 {
		return h.reply(c, http.StatusUnprocessableEntity, leads.EstimateState{Values: v.Printable(), Errors: errs, Attribution: leads.AttributionFields(attribution)})
	}
	if honeypot != "" {
		// A bot filled the hidden field: answer exactly as a saved request
		// is answered (validation above included), store nothing, notify
		// no one.
		h.Log.Info("estimate honeypot triggered", "ip", ip)
		return h.reply(c, http.StatusCreated, leads.EstimateState{Success: true})
	}
	// The limit counts stored leads. The slot is reserved before the
	// lead is stored, so parallel posts cannot store more than the limit,
	// and given back when the lead was not stored. Counted across
	// instances on PostgreSQL, and in this process while the database is
	// down (guard.Fallback): the limit never fails open, and the spool
	// takes what it lets through.
	slot, ok, retry, err := h.Limit.ReserveAttempt(ctx, client, now)
	if err != nil || !ok {
		return h.tooMany(c, v, retry)
	}
	lead := v.Lead(now)
	lead.Attribution = attribution
	outcome, err := h.Leads.Submit(ctx, lead)
	if err != nil {
		if slot != nil {
			slot.Cancel()
		}
		h.Log.Error("estimate not saved", "lead", lead.ID, "err", err)
		msg := fmt.Sprintf("We could not save your request right now. Please call us at %s: we answer 24/7.", h.Phone(ctx))
		return h.reply(c, http.StatusServiceUnavailable, leads.EstimateState{Values: v, Errors: map[string]string{"form": msg}, Attribution: leads.AttributionFields(attribution)})
	}
	h.Log.Info("estimate saved", "lead", lead.ID, "emergency", lead.IsEmergency, "spooled", outcome == spool.Spooled)
	h.Recorded(c)
	done := leads.EstimateState{Success: true}
	if outcome == spool.Stored && h.BookingLink != nil && !lead.IsEmergency {
		// Only a stored lead has a page to book from; a spooled one is
		// called back.
		done.Booking = h.BookingLink(ctx, lead)
	}
	return h.reply(c, http.StatusCreated, done)
}

// tooMany answers a submission over the rate limit. The no-JS
// form gets a small fixed page rather than a React render, so a flood of
// posts costs next to nothing; both say when to try again and give the
// phone number.
func (h *Handler) tooMany(c echo.Context, v leads.EstimateValues, retry time.Duration) error {
	phone := h.Phone(c.Request().Context())
	c.Response().Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
	if httperr.WantsJSON(c) {
		msg := fmt.Sprintf("Too many requests from your network. Please try again in %s, or call us at %s.", auth.RoundUp(retry), phone)
		return c.JSON(http.StatusTooManyRequests, leads.EstimateState{Values: v, Errors: map[string]string{"form": msg}})
	}
	return c.HTML(http.StatusTooManyRequests, fmt.Sprintf(tooManyPage, auth.RoundUp(retry), html.EscapeString(config.TelHref(phone)), html.EscapeString(phone)))
}

const tooManyPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Too many requests</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5">
<div id="estimate-result" role="alert" tabindex="-1">
<h1>Too many requests</h1>
<p>We received several requests from your network in a short time. Please try again in %s.</p>
<p>Need help now? Call us 24/7 at <a href="%s">%s</a>.</p>
</div>
<p><a href="/estimate">Back to the estimate form</a></p>
</body></html>
`

func (h *Handler) reply(c echo.Context, status int, st leads.EstimateState) error {
	if st.Errors == nil {
		st.Errors = map[string]string{}
	}
	if httperr.WantsJSON(c) {
		return c.JSON(status, st)
	}
	if st.Success {
		return c.Redirect(http.StatusSeeOther, "/estimate/thanks")
	}
	body, err := h.Render(c.Request().Context(), &st)
	if err != nil {
		return err
	}
	ssr.Serve(c.Response(), c.Request(), &ssr.Page{Status: status, Body: body}, "text/html; charset=utf-8", "no-store")
	return nil
}

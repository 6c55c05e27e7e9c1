// Package estimate is the HTTP side of the native estimate form (ADR 025):
// the POST of /estimate (no JavaScript) and /api/estimate (inline). It
// validates on the server, counts only stored leads toward the per-IP
// limit (with a flood guard on posts), and hands the lead to the intake,
// which stores it or spools it. The routes are in server/install.go; the
// page itself is a route of the public site.
package estimate

import (
	"context"
	"fmt"
	"html"
	"log/slog"
	"math"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
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
	Render func(ctx context.Context, st *State) ([]byte, error)
	// SiteHost is BASE_URL's host: a landing page or a Referer is this
	// site's only on it (leads.ParseAttribution).
	SiteHost string
	Log      *slog.Logger
}

// Values are the native estimate form's fields, as typed.
type Values struct {
	Name             string `json:"name"`
	Phone            string `json:"phone"`
	Email            string `json:"email"`
	City             string `json:"city"`
	Street           string `json:"street"`
	Zip              string `json:"zip"`
	DamageType       string `json:"damageType"`
	Emergency        string `json:"emergency"`
	InsuranceCarrier string `json:"insuranceCarrier"`
	Notes            string `json:"notes"`
}

// State is handed back to the form: values, a message per field,
// and whether the request was saved.
type State struct {
	Values  Values            `json:"values"`
	Errors  map[string]string `json:"errors"`
	Success bool              `json:"success"`
	// Attribution is where the visit came from, as the server admitted
	// it (hidden field name → value): a form rendered again without
	// JavaScript carries it on, since its next post's Referer is the
	// form's own address.
	Attribution map[string]string `json:"attribution,omitempty"`
}

// AttributionFields are a's values under the estimate form's hidden
// field names (leads.Field*, leads.AttributionParams), empty ones left out.
func AttributionFields(a leads.Attribution) map[string]string {
	out := map[string]string{}
	for k, v := range map[string]string{
		leads.FieldLanding: a.LandingPage, leads.FieldReferrer: a.ReferrerHost, leads.FieldDevice: a.DeviceClass, leads.FieldVisit: a.VisitID,
		"utm_source": a.UTMSource, "utm_medium": a.UTMMedium, "utm_campaign": a.UTMCampaign, "utm_term": a.UTMTerm, "utm_content": a.UTMContent,
		"gclid": a.GCLID, "gbraid": a.GBRAID, "wbraid": a.WBRAID, "fbclid": a.FBCLID, "msclkid": a.MSCLKID,
	} {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// DamageTypes are the form's choices; components/estimate-form.tsx shows
// the same list.
var DamageTypes = []string{"Water Damage", "Fire & Smoke Damage", "Storm Damage", "Mold", "Roof Damage", "Remodeling / Construction", "Other"}

// Field limits, in characters.
const (
	maxName    = 120
	maxEmail   = 254
	maxCity    = 80
	maxStreet  = 200
	maxCarrier = 120
	maxNotes   = 2000
)

func parseEstimate(c echo.Context) (Values, string) {
	f := func(k string) string { return strings.TrimSpace(c.FormValue(k)) }
	return Values{
		Name: f("name"), Phone: f("phone"), Email: f("email"), City: f("city"), Street: f("street"),
		Zip: f("zip"), DamageType: f("damageType"), Emergency: f("emergency"),
		InsuranceCarrier: f("insuranceCarrier"), Notes: f("notes"),
	}, c.FormValue("website")
}

// MsgBadField is the estimate form's message for a field holding text
// the site cannot store.
const MsgBadField = "Please remove the special characters from this field (a NUL character or invalid text)."

// printable is v as it can be shown back in the form: invalid UTF-8
// becomes U+FFFD and NULs go, so the visitor sees where the text was.
func (v Values) printable() Values {
	p := func(s string) string { return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "") }
	return Values{Name: p(v.Name), Phone: p(v.Phone), Email: p(v.Email), City: p(v.City), Street: p(v.Street), Zip: p(v.Zip),
		DamageType: p(v.DamageType), Emergency: p(v.Emergency), InsuranceCarrier: p(v.InsuranceCarrier), Notes: p(v.Notes)}
}

// Validate checks every field and returns a message per bad field.
func Validate(v Values) map[string]string {
	errs := map[string]string{}
	// subject carries its verb: "Name is", "Notes are".
	tooLong := func(field, subject string, val string, max int) bool {
		if utf8.RuneCountInString(val) > max {
			errs[field] = fmt.Sprintf("%s too long (%d characters at most).", subject, max)
			return true
		}
		return false
	}
	// Text the databases cannot store (a NUL, invalid UTF-8) is refused
	// here, per field, rather than "received" and never stored.
	for field, val := range map[string]string{"name": v.Name, "phone": v.Phone, "email": v.Email, "city": v.City, "street": v.Street, "zip": v.Zip,
		"damageType": v.DamageType, "emergency": v.Emergency, "insuranceCarrier": v.InsuranceCarrier, "notes": v.Notes} {
		if !guard.ValidText(val) {
			errs[field] = MsgBadField
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if !tooLong("name", "Name is", v.Name, maxName) && v.Name == "" {
		errs["name"] = "Please enter your name."
	}
	if d := config.PhoneDigits(v.Phone); len(v.Phone) > 30 || len(d) != 10 {
		errs["phone"] = "Please enter a 10-digit phone number, e.g. (770) 555-0134."
	}
	if !tooLong("email", "Email is", v.Email, maxEmail) && v.Email != "" {
		if a, err := mail.ParseAddress(v.Email); err != nil || a.Address != v.Email || !strings.Contains(v.Email[strings.LastIndex(v.Email, "@"):], ".") {
			errs["email"] = "Please enter a valid email address, e.g. name@example.com."
		}
	}
	if !tooLong("city", "City is", v.City, maxCity) && v.City == "" {
		errs["city"] = "Please enter the city where the property is."
	}
	tooLong("street", "Street address is", v.Street, maxStreet)
	if v.Zip != "" && !zipOK(v.Zip) {
		errs["zip"] = "Please enter a 5-digit ZIP code."
	}
	valid := false
	for _, d := range DamageTypes {
		valid = valid || d == v.DamageType
	}
	if !valid {
		errs["damageType"] = "Please choose the type of damage."
	}
	if v.Emergency != "yes" && v.Emergency != "no" {
		errs["emergency"] = "Please tell us whether this is an emergency."
	}
	tooLong("insuranceCarrier", "Insurance carrier is", v.InsuranceCarrier, maxCarrier)
	tooLong("notes", "Notes are", v.Notes, maxNotes)
	return errs
}

func zipOK(z string) bool {
	digits := func(s string) bool { return strings.Trim(s, "0123456789") == "" }
	if len(z) == 5 {
		return digits(z)
	}
	return len(z) == 10 && z[5] == '-' && digits(z[:5]) && digits(z[6:])
}

// postEstimate takes an estimate request from the native form. With
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
	if errs := Validate(v); len(errs) > 0 {
		return h.reply(c, http.StatusUnprocessableEntity, State{Values: v.printable(), Errors: errs, Attribution: AttributionFields(attribution)})
	}
	if honeypot != "" {
		// A bot filled the hidden field: answer exactly as a saved request
		// is answered (validation above included), store nothing, notify
		// no one.
		h.Log.Info("estimate honeypot triggered", "ip", ip)
		return h.reply(c, http.StatusCreated, State{Success: true})
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
	lead := newLead(v, now)
	lead.Attribution = attribution
	outcome, err := h.Leads.Submit(ctx, lead)
	if err != nil {
		if slot != nil {
			slot.Cancel()
		}
		h.Log.Error("estimate not saved", "lead", lead.ID, "err", err)
		msg := fmt.Sprintf("We could not save your request right now. Please call us at %s: we answer 24/7.", h.Phone(ctx))
		return h.reply(c, http.StatusServiceUnavailable, State{Values: v, Errors: map[string]string{"form": msg}, Attribution: AttributionFields(attribution)})
	}
	h.Log.Info("estimate saved", "lead", lead.ID, "emergency", lead.IsEmergency, "spooled", outcome == spool.Spooled)
	h.Recorded(c)
	return h.reply(c, http.StatusCreated, State{Success: true})
}

// newLead is a new lead from the form, with a fresh id: the id is also
// the idempotency key that makes a spool replay store it once.
func newLead(v Values, now time.Time) db.Lead {
	first, last, _ := strings.Cut(v.Name, " ")
	return db.Lead{
		ID: uuid.NewString(), CreatedAt: now, UpdatedAt: now, FirstName: first, LastName: strings.TrimSpace(last),
		Phone: v.Phone, Email: v.Email, City: v.City, StreetAddress: v.Street, ZipCode: v.Zip, DamageType: v.DamageType,
		Status: "new", IsEmergency: v.Emergency == "yes", Source: "website", InsuranceCarrier: v.InsuranceCarrier, Notes: v.Notes,
	}
}

// estimateTooMany answers a submission over the rate limit. The no-JS
// form gets a small fixed page rather than a React render, so a flood of
// posts costs next to nothing; both say when to try again and give the
// phone number.
func (h *Handler) tooMany(c echo.Context, v Values, retry time.Duration) error {
	phone := h.Phone(c.Request().Context())
	c.Response().Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
	if httperr.WantsJSON(c) {
		msg := fmt.Sprintf("Too many requests from your network. Please try again in %s, or call us at %s.", auth.RoundUp(retry), phone)
		return c.JSON(http.StatusTooManyRequests, State{Values: v, Errors: map[string]string{"form": msg}})
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

func (h *Handler) reply(c echo.Context, status int, st State) error {
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

// Package settings is the HTTP side of System Settings (spec 2.4): the
// business facts, the 24/7 emergency mode and its phone, the business
// hours, the feature switches and the owner's review figures. The rules
// are package settings'; a save re-renders every public page. The PIN
// reads them; only an admin account with its second factor changes them
// (ADR 039). The routes and their guards are in server/install.go.
package settings

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/accounts"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
	"github.com/atlanta-restoration/site/web/auth"
	"github.com/atlanta-restoration/site/web/httperr"
)

// Service loads and saves the settings (settings.Service).
type Service interface {
	Load(ctx context.Context) (settings.Settings, error)
	Save(ctx context.Context, st settings.Settings, now time.Time) (settings.Settings, error)
}

// Figures are the review figures the site shows now (reviews.Service).
type Figures interface {
	Figures(ctx context.Context) reviews.Figures
	Configured() bool
}

// Pages are the public pages as the site serves them now (the render
// cache), for counting where the numbers appear.
type Pages func(ctx context.Context) ([]settings.RenderedPage, error)

// Audit writes the audit log (db.Store).
type Audit interface {
	AddAudit(ctx context.Context, e db.AuditEntry) error
}

// Handler answers the System Settings screen.
type Handler struct {
	Settings Service
	Reviews  Figures
	Pages    Pages
	Audit    Audit
	// Changed re-renders every public page after a save.
	Changed func(reason string)
	Log     *slog.Logger
}

// Answer is GET and PUT /api/admin/settings: the settings, and whether
// this session may change them (with the reason when not).
type Answer struct {
	settings.Settings
	CanChange bool `json:"canChange"`
	// ReadOnly says in plain words why the session cannot save ("" when
	// it can).
	ReadOnly string `json:"readOnly"`
}

// Messages of the settings API.
const (
	// MsgAdminAccount is the answer to a save by a session that may read
	// the settings but not change them (the PIN).
	MsgAdminAccount = "Sign in with an admin account to change these settings."
	// MsgSecondFactor answers an admin account without a second factor.
	MsgSecondFactor = "Set up two-factor sign-in on your account (Sessions and Sign-in) to change these settings."
)

// mayChange reports whether the session may change the settings: an
// admin account that has its second factor (ADR 039), with the reason
// when it may not.
func mayChange(p auth.Principal) (bool, string) {
	switch {
	case p.IsPIN() || !p.Can(accounts.SettingsWrite):
		return false, MsgAdminAccount
	case p.User.TOTPSecret == "" || p.User.TOTPEnabledAt == nil:
		return false, MsgSecondFactor
	}
	return true, ""
}

// Invalid is a refused save's answer: a message per bad field.
type Invalid struct {
	Error  string            `json:"error"`
	Errors map[string]string `json:"errors"`
}

// Get answers the saved settings over the configured defaults, with the
// review figures in use.
func (h *Handler) Get(c echo.Context) error {
	st, err := h.Settings.Load(c.Request().Context())
	if err != nil {
		return httperr.Unavailable("Settings could not be loaded.", err)
	}
	st.ReviewFigures = h.figures(c.Request().Context())
	ok, why := mayChange(auth.From(c))
	return c.JSON(http.StatusOK, Answer{Settings: st, CanChange: ok, ReadOnly: why})
}

// Uses answers where the 24/7 line and the office number appear now,
// counted in every public page as the site serves it.
func (h *Handler) Uses(c echo.Context) error {
	ctx := c.Request().Context()
	st, err := h.Settings.Load(ctx)
	if err != nil {
		return httperr.Unavailable("Settings could not be loaded.", err)
	}
	pages, err := h.Pages(ctx)
	if err != nil {
		return httperr.Unavailable("The pages could not be read. Try again in a minute.", err)
	}
	return c.JSON(http.StatusOK, settings.CountPhoneUses(pages, st.PhoneFor(settings.PlaceCall), st.PhoneFor(settings.PlaceOffice)))
}

// Put saves the settings and re-renders every public page with them.
// Nothing is saved when a field is invalid.
// Only an admin account with its second factor may save (mayChange); the
// save is audited with the names of what changed.
func (h *Handler) Put(c echo.Context) error {
	p := auth.From(c)
	if ok, why := mayChange(p); !ok {
		return httperr.New(http.StatusForbidden, why)
	}
	var in settings.Settings
	if err := c.Bind(&in); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the settings as JSON.", Err: err}
	}
	ctx := c.Request().Context()
	before, err := h.Settings.Load(ctx)
	if err != nil {
		return httperr.Unavailable("Settings could not be loaded.", err)
	}
	st, err := h.Settings.Save(ctx, in, time.Now().UTC())
	var invalid settings.Invalid
	switch {
	case errors.As(err, &invalid):
		return c.JSON(http.StatusUnprocessableEntity, Invalid{Error: "Some settings need fixing.", Errors: invalid})
	case err != nil:
		return httperr.Unavailable("Settings could not be saved.", err)
	}
	h.Log.Info("settings saved")
	h.audit(c, p.Account(), strings.Join(settings.Changes(before, st), ", "))
	h.Changed("settings saved")
	st.ReviewFigures = h.figures(ctx)
	return c.JSON(http.StatusOK, Answer{Settings: st, CanChange: true})
}

// audit records a save: who, from where, and the names of the settings
// it changed ("" for none). A failure is logged: the save has happened.
func (h *Handler) audit(c echo.Context, u db.User, changed string) {
	e := db.AuditEntry{At: time.Now().UTC(), UserID: u.ID, Actor: u.Email, Action: db.AuditSettingsSaved, Detail: changed, IP: c.RealIP()}
	if err := h.Audit.AddAudit(context.WithoutCancel(c.Request().Context()), e); err != nil {
		h.Log.Error("audit log not written", "action", e.Action, "err", err)
	}
}

func (h *Handler) figures(ctx context.Context) *settings.ReviewFiguresInfo {
	f := h.Reviews.Figures(ctx)
	return &settings.ReviewFiguresInfo{PlacesConfigured: h.Reviews.Configured(), InUse: f, InStructuredData: f.AggregateRating() != nil}
}

// Package settings is the HTTP side of System Settings (spec 2.4): the
// business facts, the 24/7 emergency mode and its phone, the business
// hours, the feature switches and the owner's review figures. The rules
// are package settings'; a save re-renders every public page. The routes
// and their guards are in server/install.go.
package settings

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/settings"
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

// Handler answers the System Settings screen.
type Handler struct {
	Settings Service
	Reviews  Figures
	// Changed re-renders every public page after a save.
	Changed func(reason string)
	Log     *slog.Logger
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
	return c.JSON(http.StatusOK, st)
}

// Put saves the settings and re-renders every public page with them.
// Nothing is saved when a field is invalid.
func (h *Handler) Put(c echo.Context) error {
	var in settings.Settings
	if err := c.Bind(&in); err != nil {
		return &httperr.Error{Status: http.StatusBadRequest, Message: "Send the settings as JSON.", Err: err}
	}
	st, err := h.Settings.Save(c.Request().Context(), in, time.Now().UTC())
	var invalid settings.Invalid
	switch {
	case errors.As(err, &invalid):
		return c.JSON(http.StatusUnprocessableEntity, Invalid{Error: "Some settings need fixing.", Errors: invalid})
	case err != nil:
		return httperr.Unavailable("Settings could not be saved.", err)
	}
	h.Log.Info("settings saved")
	h.Changed("settings saved")
	st.ReviewFigures = h.figures(c.Request().Context())
	return c.JSON(http.StatusOK, st)
}

func (h *Handler) figures(ctx context.Context) *settings.ReviewFiguresInfo {
	f := h.Reviews.Figures(ctx)
	return &settings.ReviewFiguresInfo{PlacesConfigured: h.Reviews.Configured(), InUse: f, InStructuredData: f.AggregateRating() != nil}
}

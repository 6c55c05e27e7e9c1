package pages

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/reviews"
	"github.com/atlanta-restoration/site/web/httperr"
	"github.com/atlanta-restoration/site/words"
)

// Reviews are the trust section's reviews and their refresh
// (reviews.Service).
type Reviews interface {
	Top(ctx context.Context) []reviews.Review
	Refresh(ctx context.Context) (int, error)
}

// RefreshAnswer is POST /api/reviews/refresh's answer when nothing failed.
// Status is RefreshFetched, RefreshRecent or RefreshNotConfigured; the
// reviews block says each in words.
type RefreshAnswer struct {
	Status  string `json:"status"`
	Fetched int    `json:"fetched"`
	Message string `json:"message"`
}

// The statuses of RefreshAnswer.
const (
	RefreshFetched       = "fetched"
	RefreshRecent        = "recent"
	RefreshNotConfigured = "not-configured"
)

// ReviewList re-reads the reviews the trust section shows.
func (h *Handler) ReviewList(c echo.Context) error {
	return c.JSON(http.StatusOK, h.reviews.Top(c.Request().Context()))
}

// RefreshReviews fetches fresh reviews from Google, stores them, and
// re-renders the pages that show them. Not configured is an answer, not a
// failure: pages rendered while it was configured may still ask.
func (h *Handler) RefreshReviews(c echo.Context) error {
	n, err := h.reviews.Refresh(c.Request().Context())
	switch {
	case errors.Is(err, reviews.ErrNotConfigured):
		h.reviewsUnconfigured.Do(func() {
			h.log.Info("reviews: refresh asked for, but GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID are not set; reviews are not fetched")
		})
		return c.JSON(http.StatusOK, RefreshAnswer{Status: RefreshNotConfigured, Message: "Review fetching is not configured."})
	case errors.Is(err, reviews.ErrTooSoon):
		return c.JSON(http.StatusOK, RefreshAnswer{Status: RefreshRecent, Message: "Reviews were refreshed recently."})
	case errors.Is(err, reviews.ErrNotSaved):
		return httperr.Unavailable("Could not save reviews.", err)
	case err != nil:
		return &httperr.Error{Status: http.StatusBadGateway, Message: "Could not fetch reviews.", Err: err}
	}
	return c.JSON(http.StatusOK, RefreshAnswer{Status: RefreshFetched, Fetched: n, Message: fmt.Sprintf("Fetched %s.", words.Count(n, "review", "reviews"))})
}

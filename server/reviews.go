package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/reviews"
)

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

// apiReviews re-reads the reviews the trust section shows.
func (s *Server) apiReviews(c echo.Context) error {
	return c.JSON(http.StatusOK, s.reviews(c.Request().Context()))
}

// apiRefreshReviews fetches fresh reviews from Google, stores them, and
// re-renders the pages that show them. Not configured is an answer, not a
// failure: pages rendered while it was configured may still ask.
func (s *Server) apiRefreshReviews(c echo.Context) error {
	n, err := s.refreshReviews(c.Request().Context())
	switch {
	case errors.Is(err, reviews.ErrNotConfigured):
		s.reviewsUnconfigured.Do(func() {
			s.log.Info("reviews: refresh asked for, but GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID are not set; reviews are not fetched")
		})
		return c.JSON(http.StatusOK, RefreshAnswer{Status: RefreshNotConfigured, Message: "Review fetching is not configured."})
	case errors.Is(err, reviews.ErrTooSoon):
		return c.JSON(http.StatusOK, RefreshAnswer{Status: RefreshRecent, Message: "Reviews were refreshed recently."})
	case errors.Is(err, errReviewsNotSaved):
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not save reviews.", Err: err}
	case err != nil:
		return &StatusError{Status: http.StatusBadGateway, Message: "Could not fetch reviews.", Err: err}
	}
	return c.JSON(http.StatusOK, RefreshAnswer{Status: RefreshFetched, Fetched: n, Message: fmt.Sprintf("Fetched %s.", plural(n, "review", "reviews"))})
}

// errReviewsNotSaved wraps a failure to store fetched reviews.
var errReviewsNotSaved = errors.New("reviews: not saved")

// refreshReviews fetches reviews with the place's rating (within the
// client's minimum interval), stores them and re-renders the pages. The
// public button and the daily job both call it.
func (s *Server) refreshReviews(ctx context.Context) (int, error) {
	f, err := s.reviewsClient.Fetch(ctx)
	if err != nil {
		return 0, err
	}
	if s.store == nil {
		return 0, fmt.Errorf("%w: database unavailable", errReviewsNotSaved)
	}
	if err := s.store.SavePlacesFetch(context.WithoutCancel(ctx), f.Rating, f.Reviews); err != nil {
		return 0, fmt.Errorf("%w: %w", errReviewsNotSaved, err)
	}
	s.Invalidate("reviews refreshed")
	return len(f.Reviews), nil
}

// reviewFigures are the rating and review count the trust section shows
// and, from Places only, the structured data carries: Places' figures when
// it is configured and has answered once, else the owner's values from
// System Settings (their defaults are the spec's 4.9 and 79).
func (s *Server) reviewFigures(ctx context.Context) reviews.Figures {
	if s.store == nil {
		return reviews.FromOwner(reviews.DefaultOwner())
	}
	if s.reviewsClient.Configured() {
		pr, err := s.store.PlacesRatingOf(ctx, s.reviewsClient.PlaceID())
		if err == nil {
			return reviews.FromPlaces(pr)
		}
		if !errors.Is(err, db.ErrNotFound) {
			s.log.Error("places rating unavailable, showing the settings' figures", "err", err)
		}
	}
	st, err := s.loadSettings(ctx)
	if err != nil {
		s.log.Error("settings unavailable, showing the default review figures", "err", err)
		return reviews.FromOwner(reviews.DefaultOwner())
	}
	return reviews.FromOwner(st.owner())
}

// TrustData is what the trust section shows besides the reviews.
type TrustData struct {
	Rating reviews.Figures `json:"rating"`
	// CanFetch is set when Google Places is configured: the empty reviews
	// block offers 'Click here to fetch reviews'. Otherwise it says that
	// reviews are not fetched here and links to them on Google.
	CanFetch bool `json:"canFetch"`
}

func (s *Server) trustData(ctx context.Context) TrustData {
	return TrustData{Rating: s.reviewFigures(ctx), CanFetch: s.reviewsClient.Configured()}
}

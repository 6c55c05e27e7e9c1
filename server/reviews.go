package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
)

// ReviewsClient fetches the business's reviews from the Google Places
// Details API (the spec's fetch-google-reviews function).
type ReviewsClient struct {
	cfg  config.Reviews
	http *http.Client

	mu   sync.Mutex
	last time.Time
}

// ErrReviewsNotConfigured is returned when no Places key or place id is set.
var ErrReviewsNotConfigured = errors.New("reviews: GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID are not set")

// errTooSoon is returned when a refresh comes within the minimum interval.
var errTooSoon = errors.New("reviews: refreshed recently")

// NewReviewsClient returns a client for cfg.
func NewReviewsClient(cfg config.Reviews) *ReviewsClient {
	return &ReviewsClient{cfg: cfg, http: &http.Client{Timeout: 10 * time.Second}}
}

type placesResponse struct {
	Status       string `json:"status"`
	ErrorMessage string `json:"error_message"`
	Result       struct {
		Reviews []struct {
			AuthorName string `json:"author_name"`
			Rating     int    `json:"rating"`
			Text       string `json:"text"`
			Time       int64  `json:"time"`
		} `json:"reviews"`
	} `json:"result"`
}

// Fetch calls the Places API. The refresh endpoint is public, so calls are
// spaced by the configured minimum interval to bound cost and abuse.
func (c *ReviewsClient) Fetch(ctx context.Context) ([]db.Review, error) {
	if c.cfg.APIKey == "" || c.cfg.PlaceID == "" {
		return nil, ErrReviewsNotConfigured
	}
	c.mu.Lock()
	if !c.last.IsZero() && time.Since(c.last) < c.cfg.MinInterval {
		c.mu.Unlock()
		return nil, errTooSoon
	}
	c.last = time.Now()
	c.mu.Unlock()

	q := url.Values{"place_id": {c.cfg.PlaceID}, "fields": {"reviews"}, "reviews_sort": {"newest"}, "key": {c.cfg.APIKey}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.Endpoint+"?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	res, err := c.http.Do(req)
	if err != nil {
		// The URL carries the API key; the error quotes the URL.
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = c.cfg.Endpoint + "?place_id=…&key=[REDACTED]"
		}
		return nil, fmt.Errorf("reviews: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("reviews: HTTP %d", res.StatusCode)
	}
	var pr placesResponse
	if err := json.NewDecoder(http.MaxBytesReader(nil, res.Body, 1<<20)).Decode(&pr); err != nil {
		return nil, fmt.Errorf("reviews: decode: %w", err)
	}
	if pr.Status != "OK" {
		return nil, fmt.Errorf("reviews: places status %s: %s", pr.Status, pr.ErrorMessage)
	}
	out := make([]db.Review, 0, len(pr.Result.Reviews))
	for _, r := range pr.Result.Reviews {
		sum := sha256.Sum256([]byte(r.AuthorName + "\x00" + strconv.FormatInt(r.Time, 10)))
		out = append(out, db.Review{
			ID: "g_" + hex.EncodeToString(sum[:10]), AuthorName: r.AuthorName, ReviewText: r.Text,
			Rating: r.Rating, CreatedTime: time.Unix(r.Time, 0).UTC(), IsActive: true,
		})
	}
	return out, nil
}

// apiReviews re-reads the reviews the trust section shows.
func (s *Server) apiReviews(c echo.Context) error {
	return c.JSON(http.StatusOK, s.reviews(c.Request().Context()))
}

// apiRefreshReviews fetches fresh reviews from Google, stores them, and
// re-renders the pages that show them.
func (s *Server) apiRefreshReviews(c echo.Context) error {
	n, err := s.refreshReviews(c.Request().Context())
	switch {
	case errors.Is(err, ErrReviewsNotConfigured):
		s.reviewsUnconfigured.Do(func() {
			s.log.Warn("reviews: refresh asked for, but GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID are not set; reviews are not fetched")
		})
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Review fetching is not configured.", Quiet: true}
	case errors.Is(err, errTooSoon):
		return c.JSON(http.StatusOK, map[string]any{"fetched": 0, "note": "reviews were refreshed recently"})
	case errors.Is(err, errReviewsNotSaved):
		return &StatusError{Status: http.StatusServiceUnavailable, Message: "Could not save reviews.", Err: err}
	case err != nil:
		return &StatusError{Status: http.StatusBadGateway, Message: "Could not fetch reviews.", Err: err}
	}
	return c.JSON(http.StatusOK, map[string]any{"fetched": n})
}

// errReviewsNotSaved wraps a failure to store fetched reviews.
var errReviewsNotSaved = errors.New("reviews: not saved")

// refreshReviews fetches reviews (within the client's minimum interval),
// stores them and re-renders the pages. The public button and the daily
// job both call it.
func (s *Server) refreshReviews(ctx context.Context) (int, error) {
	rs, err := s.reviewsClient.Fetch(ctx)
	if err != nil {
		return 0, err
	}
	if s.store == nil {
		return 0, fmt.Errorf("%w: database unavailable", errReviewsNotSaved)
	}
	if err := s.store.UpsertReviews(ctx, rs); err != nil {
		return 0, fmt.Errorf("%w: %w", errReviewsNotSaved, err)
	}
	s.Invalidate("reviews refreshed")
	return len(rs), nil
}

// Package reviews holds the trust section's review rules: the
// Google Places Details client that fetches reviews with the business's
// rating and review count, which rating figures the site shows (Places
// when configured, else the owner's values from System Settings), and the
// only case in which they go into structured data. Storage is db's; the
// HTTP handlers are server's.
package reviews

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

	"github.com/atlanta-restoration/site/config"
	"github.com/atlanta-restoration/site/db"
	"github.com/atlanta-restoration/site/failure"
)

// Client fetches the business's reviews, rating and review count from the
// Google Places Details API (legacy), the spec's fetch-google-reviews.
type Client struct {
	cfg  config.Reviews
	http *http.Client

	mu   sync.Mutex
	last time.Time
	busy bool
}

// ErrNotConfigured is returned when no Places key or place id is set.
var ErrNotConfigured = errors.New("reviews: GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID are not set")

// ErrTooSoon is returned when a fetch comes within the minimum interval of
// the last one, or while another is under way.
var ErrTooSoon = errors.New("reviews: refreshed recently")

// FetchTimeout bounds one call to Places.
const FetchTimeout = 10 * time.Second

// MaxPlacesCount bounds the review count accepted from Places; a larger
// one is a broken answer, not a business.
const MaxPlacesCount = 10_000_000

// NewClient returns a client for cfg.
func NewClient(cfg config.Reviews) *Client {
	return &Client{cfg: cfg, http: &http.Client{Timeout: FetchTimeout}}
}

// Configured reports whether a Places key and place id are set.
func (c *Client) Configured() bool { return c.cfg.APIKey != "" && c.cfg.PlaceID != "" }

// PlaceID is the configured place id.
func (c *Client) PlaceID() string { return c.cfg.PlaceID }

// Fetched is one answer of Places: the reviews it returned and the place's
// rating and review count.
type Fetched struct {
	Reviews []db.Review
	Rating  db.PlacesRating
}

type placesResponse struct {
	Status       string `json:"status"`
	ErrorMessage string `json:"error_message"`
	Result       struct {
		// Rating and UserRatingsTotal are absent when the place has no
		// rating yet.
		Rating           *float64 `json:"rating"`
		UserRatingsTotal *int     `json:"user_ratings_total"`
		Reviews          []struct {
			AuthorName string `json:"author_name"`
			Rating     int    `json:"rating"`
			Text       string `json:"text"`
			Time       int64  `json:"time"`
		} `json:"reviews"`
	} `json:"result"`
}

// Fetch calls Places. The public refresh button reaches it, so calls are
// spaced by the configured minimum interval and never run two at once: a
// burst of requests costs one call. A failed call counts too, so a broken
// Places is not hammered. The call is detached from ctx's cancellation (a
// visitor who leaves does not waste the attempt) but bounded by
// FetchTimeout.
func (c *Client) Fetch(ctx context.Context) (Fetched, error) {
	if !c.Configured() {
		return Fetched{}, ErrNotConfigured
	}
	c.mu.Lock()
	if c.busy || (!c.last.IsZero() && time.Since(c.last) < c.cfg.MinInterval) {
		c.mu.Unlock()
		return Fetched{}, ErrTooSoon
	}
	c.busy, c.last = true, time.Now()
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.busy = false
		c.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FetchTimeout)
	defer cancel()
	return c.fetch(ctx)
}

func (c *Client) fetch(ctx context.Context) (Fetched, error) {
	q := url.Values{"place_id": {c.cfg.PlaceID}, "fields": {"reviews,rating,user_ratings_total"}, "reviews_sort": {"newest"}, "key": {c.cfg.APIKey}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.Endpoint+"?"+q.Encode(), nil)
	if err != nil {
		return Fetched{}, err
	}
	res, err := c.http.Do(req)
	if err != nil {
		// The URL carries the API key; the error quotes the URL.
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = c.cfg.Endpoint + "?place_id=…&key=[REDACTED]"
		}
		return Fetched{}, failure.At(failure.Places, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return Fetched{}, failure.At(failure.Places, &failure.StatusError{Code: res.StatusCode})
	}
	var pr placesResponse
	if err := json.NewDecoder(http.MaxBytesReader(nil, res.Body, 1<<20)).Decode(&pr); err != nil {
		return Fetched{}, failure.At(failure.Places, fmt.Errorf("decode: %w", err))
	}
	if pr.Status != "OK" {
		// Places' own words go to the log only; the dashboard gets the
		// status word.
		return Fetched{}, failure.At(failure.Places, &failure.APIError{Status: pr.Status, Detail: pr.ErrorMessage})
	}
	out := Fetched{Reviews: make([]db.Review, 0, len(pr.Result.Reviews)), Rating: db.PlacesRating{PlaceID: c.cfg.PlaceID, FetchedAt: time.Now().UTC()}}
	if r := pr.Result.Rating; r != nil {
		if *r < 1 || *r > 5 {
			return Fetched{}, failure.At(failure.Places, fmt.Errorf("rating %v is not between 1 and 5", *r))
		}
		out.Rating.Rating = *r
	}
	if n := pr.Result.UserRatingsTotal; n != nil {
		if *n < 0 || *n > MaxPlacesCount {
			return Fetched{}, failure.At(failure.Places, fmt.Errorf("review count %d is out of range", *n))
		}
		out.Rating.Count = *n
	}
	for _, r := range pr.Result.Reviews {
		sum := sha256.Sum256([]byte(r.AuthorName + "\x00" + strconv.FormatInt(r.Time, 10)))
		out.Reviews = append(out.Reviews, db.Review{
			ID: "g_" + hex.EncodeToString(sum[:10]), AuthorName: r.AuthorName, ReviewText: r.Text,
			Rating: r.Rating, CreatedTime: time.Unix(r.Time, 0).UTC(), IsActive: true,
		})
	}
	return out, nil
}

package reviews

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/atlanta-restoration/site/db"
)

// Store is where fetched reviews and the place's figures are kept
// (db.Store).
type Store interface {
	TopReviews(ctx context.Context) ([]db.Review, error)
	SavePlacesFetch(ctx context.Context, rating db.PlacesRating, rs []db.Review) error
	PlacesRatingOf(ctx context.Context, placeID string) (db.PlacesRating, error)
}

// Service is the trust section's reviews: what it shows, the figures it
// states, and the refresh from Google Places that the public button and
// the daily job share.
type Service struct {
	Client *Client
	Store  Store
	// Owner are the owner's figures from System Settings.
	Owner func(context.Context) (Owner, error)
	// Changed re-renders the pages that show reviews.
	Changed func(reason string)
	Log     *slog.Logger
}

// ErrNotSaved wraps a failure to store fetched reviews.
var ErrNotSaved = errors.New("reviews: not saved")

// Top reads the trust section's reviews; a failure is logged and the
// block shows its empty prompt (spec 8: silent).
func (s *Service) Top(ctx context.Context) []Review {
	rs, err := s.Store.TopReviews(ctx)
	if err != nil {
		s.Log.Error("reviews load failed", "err", err)
		return []Review{}
	}
	out := make([]Review, len(rs))
	for i, r := range rs {
		out[i] = ReviewOf(r)
	}
	return out
}

// Refresh fetches reviews with the place's rating (within the client's
// minimum interval), stores them and re-renders the pages.
func (s *Service) Refresh(ctx context.Context) (int, error) {
	f, err := s.Client.Fetch(ctx)
	if err != nil {
		return 0, err
	}
	if err := s.Store.SavePlacesFetch(context.WithoutCancel(ctx), f.Rating, f.Reviews); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotSaved, err)
	}
	s.Changed("reviews refreshed")
	return len(f.Reviews), nil
}

// Figures are the rating and review count the trust section shows and,
// from Places only, the structured data carries: Places' figures when it
// is configured and has answered once, else the owner's values from
// System Settings (their defaults are the spec's 4.9 and 79).
func (s *Service) Figures(ctx context.Context) Figures {
	if s.Client.Configured() {
		pr, err := s.Store.PlacesRatingOf(ctx, s.Client.PlaceID())
		if err == nil {
			return FromPlaces(pr)
		}
		if !errors.Is(err, db.ErrNotFound) {
			s.Log.Error("places rating unavailable, showing the settings' figures", "err", err)
		}
	}
	o, err := s.Owner(ctx)
	if err != nil {
		s.Log.Error("settings unavailable, showing the default review figures", "err", err)
		return FromOwner(DefaultOwner())
	}
	return FromOwner(o)
}

// Configured reports whether Google Places is set up.
func (s *Service) Configured() bool { return s.Client.Configured() }

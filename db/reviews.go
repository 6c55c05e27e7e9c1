package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Review is a row of google_reviews (spec 3).
type Review struct {
	ID          string    `db:"id"`
	AuthorName  string    `db:"author_name"`
	ReviewText  string    `db:"review_text"`
	Rating      int       `db:"rating"`
	CreatedTime time.Time `db:"created_time"`
	IsActive    bool      `db:"is_active"`
}

// ReviewQueryLimit and ReviewsShown are spec 9's "query limit 10, shown 3".
const (
	ReviewQueryLimit = 10
	ReviewsShown     = 3
)

// TopReviews returns the reviews the trust section shows: active, rating 5
// or more, newest first, at most 10 read, duplicates removed, first 3 kept.
func (s *Store) TopReviews(ctx context.Context) ([]Review, error) {
	var rows []Review
	err := s.db.SelectContext(ctx, &rows, s.q(`SELECT id, author_name, review_text, rating, created_time, is_active
		FROM google_reviews WHERE is_active = ? AND rating >= 5 ORDER BY created_time DESC LIMIT ?`), true, ReviewQueryLimit)
	if err != nil {
		return nil, fmt.Errorf("top reviews: %w", err)
	}
	return UniqueReviews(rows, ReviewsShown), nil
}

// UniqueReviews drops duplicates by author, timestamp to the second and the
// first 60 characters of the text, compared case-insensitively (spec 5), and
// keeps at most n.
func UniqueReviews(rows []Review, n int) []Review {
	seen := map[string]bool{}
	out := []Review{}
	for _, r := range rows {
		text := []rune(strings.ToLower(r.ReviewText))
		if len(text) > 60 {
			text = text[:60]
		}
		key := strings.ToLower(r.AuthorName) + "\x00" + r.CreatedTime.UTC().Truncate(time.Second).Format(time.RFC3339) + "\x00" + string(text)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, r)
		if len(out) == n {
			break
		}
	}
	return out
}

// UpsertReviews inserts or replaces reviews by id in one transaction.
func (s *Store) UpsertReviews(ctx context.Context, rs []Review) error {
	return s.Transact(ctx, func(tx *sqlx.Tx) error { return upsertReviews(ctx, tx, rs) })
}

func upsertReviews(ctx context.Context, tx *sqlx.Tx, rs []Review) error {
	// An upsert in id order: two instances refreshing at once neither
	// collide on the primary key (as DELETE then INSERT did) nor
	// deadlock.
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Review) int { return strings.Compare(a.ID, b.ID) })
	for _, r := range rs {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO google_reviews (id, author_name, review_text, rating, created_time, is_active)
			VALUES (:id, :author_name, :review_text, :rating, :created_time, :is_active)
			ON CONFLICT (id) DO UPDATE SET author_name = excluded.author_name, review_text = excluded.review_text,
				rating = excluded.rating, created_time = excluded.created_time, is_active = excluded.is_active`, r); err != nil {
			return fmt.Errorf("review %s: %w", r.ID, err)
		}
	}
	return nil
}

// PlacesRating is a row of places_ratings: what Google Places reported for
// a place's rating and number of reviews, and when. Rating and Count are 0
// when Places has no rating for the place yet.
type PlacesRating struct {
	PlaceID   string    `db:"place_id"`
	Rating    float64   `db:"rating"`
	Count     int       `db:"rating_count"`
	FetchedAt time.Time `db:"fetched_at"`
}

// SavePlacesFetch stores one fetch from Places, its reviews and its rating,
// in one transaction: either both are saved or neither. A rating older
// than the one stored (two instances whose fetches finish out of order)
// does not replace it.
func (s *Store) SavePlacesFetch(ctx context.Context, pr PlacesRating, rs []Review) error {
	pr.FetchedAt = pr.FetchedAt.UTC()
	return s.Transact(ctx, func(tx *sqlx.Tx) error {
		if err := upsertReviews(ctx, tx, rs); err != nil {
			return err
		}
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO places_ratings (place_id, rating, rating_count, fetched_at)
			VALUES (:place_id, :rating, :rating_count, :fetched_at)
			ON CONFLICT (place_id) DO UPDATE SET rating = excluded.rating, rating_count = excluded.rating_count, fetched_at = excluded.fetched_at
			WHERE places_ratings.fetched_at <= excluded.fetched_at`, pr); err != nil {
			return fmt.Errorf("places rating %s: %w", pr.PlaceID, err)
		}
		return nil
	})
}

// PlacesRatingOf returns the latest rating stored for a place, or
// ErrNotFound when none has been fetched.
func (s *Store) PlacesRatingOf(ctx context.Context, placeID string) (PlacesRating, error) {
	var pr PlacesRating
	err := s.db.GetContext(ctx, &pr, s.q(`SELECT place_id, rating, rating_count, fetched_at FROM places_ratings WHERE place_id = ?`), placeID)
	if errors.Is(err, sql.ErrNoRows) {
		return pr, ErrNotFound
	}
	if err != nil {
		return pr, fmt.Errorf("places rating %s: %w", placeID, err)
	}
	pr.FetchedAt = pr.FetchedAt.UTC()
	return pr, nil
}

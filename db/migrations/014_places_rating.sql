-- 014: the rating and review count Google Places reports for the business
-- (Places Details `rating` and `user_ratings_total`) with the time they
-- were fetched (issue 19). The trust section and the LocalBusiness
-- structured data show these figures when Places is configured; they are
-- stored, not kept in memory, so a restart and every other instance show
-- the same figures. Keyed by place id: after GOOGLE_PLACE_ID changes, the
-- old place's rating is never shown as this one's. rating is 0 and
-- rating_count 0 when Places has no rating for the place yet.
CREATE TABLE places_ratings (
    place_id     TEXT PRIMARY KEY,
    rating       DOUBLE PRECISION NOT NULL,
    rating_count INTEGER NOT NULL,
    fetched_at   TIMESTAMP NOT NULL
);

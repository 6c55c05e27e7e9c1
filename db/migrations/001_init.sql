-- 001: the tables the public site reads from its first version on:
-- portfolio media (the gallery), Google reviews (the trust section),
-- estimate-form leads (spec 3, avatar_leads) and owner-editable settings.
-- Types are the portable subset both SQLite and PostgreSQL accept.
CREATE TABLE media (
    id          TEXT PRIMARY KEY,
    project     TEXT NOT NULL,
    path        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('image', 'video')),
    mime        TEXT NOT NULL,
    size        BIGINT NOT NULL,
    width       INTEGER NOT NULL DEFAULT 0,
    height      INTEGER NOT NULL DEFAULT 0,
    variants    TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX media_created ON media (created_at);

CREATE TABLE google_reviews (
    id            TEXT PRIMARY KEY,
    author_name   TEXT NOT NULL,
    review_text   TEXT NOT NULL DEFAULT '',
    rating        INTEGER NOT NULL,
    created_time  TIMESTAMP NOT NULL,
    is_active     BOOLEAN NOT NULL DEFAULT TRUE
);
CREATE INDEX google_reviews_created ON google_reviews (created_time);

CREATE TABLE avatar_leads (
    id                TEXT PRIMARY KEY,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL,
    first_name        TEXT NOT NULL,
    last_name         TEXT NOT NULL DEFAULT '',
    phone             TEXT NOT NULL,
    email             TEXT NOT NULL DEFAULT '',
    city              TEXT NOT NULL DEFAULT '',
    street_address    TEXT NOT NULL DEFAULT '',
    zip_code          TEXT NOT NULL DEFAULT '',
    damage_type       TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL DEFAULT 'new',
    is_emergency      BOOLEAN NOT NULL DEFAULT FALSE,
    source            TEXT NOT NULL DEFAULT 'website',
    insurance_carrier TEXT NOT NULL DEFAULT '',
    claim_number      TEXT NOT NULL DEFAULT '',
    notes             TEXT NOT NULL DEFAULT ''
);
CREATE INDEX avatar_leads_created ON avatar_leads (created_at);

CREATE TABLE settings (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);

-- 040: the site's content becomes editable from the admin (issue 22), so
-- the database, not the embedded content/ files, is its source of truth
-- (the files seed an empty table at first boot). content_items holds one
-- row per editable record: the working copy (draft, slug) and the
-- published copy (live, live_slug) side by side, so an edit never changes
-- what the public site serves until it is published. id is a uuid that
-- survives slug changes; version is bumped by every write and every write
-- names the version it was based on, so two editors never overwrite each
-- other silently. live_slug is unique within a kind like slug, so two
-- items can never be served at one address. content_revisions keeps every
-- published copy, numbered per item; it has no foreign key on purpose: the
-- history of a deleted page stays readable.
CREATE TABLE content_items (
    id                  TEXT PRIMARY KEY,
    kind                TEXT NOT NULL,
    slug                TEXT NOT NULL,
    status              TEXT NOT NULL CHECK (status IN ('draft', 'scheduled', 'published', 'unpublished')),
    draft               TEXT NOT NULL,
    live                TEXT,
    live_slug           TEXT,
    version             INTEGER NOT NULL DEFAULT 1,
    position            INTEGER NOT NULL DEFAULT 0,
    publish_at          TIMESTAMP,
    published_at        TIMESTAMP,
    first_published_at  TIMESTAMP,
    updated_at          TIMESTAMP NOT NULL,
    updated_by          TEXT NOT NULL DEFAULT '',
    updated_by_id       TEXT NOT NULL DEFAULT '',
    UNIQUE (kind, slug),
    CHECK ((live IS NULL) = (live_slug IS NULL)),
    CHECK (status <> 'published' OR live IS NOT NULL),
    CHECK (status <> 'unpublished' OR live IS NULL),
    CHECK (status <> 'scheduled' OR publish_at IS NOT NULL)
);
CREATE UNIQUE INDEX content_items_live_slug ON content_items (kind, live_slug);
CREATE INDEX content_items_due ON content_items (publish_at) WHERE status = 'scheduled';

CREATE TABLE content_revisions (
    id               TEXT PRIMARY KEY,
    item_id          TEXT NOT NULL,
    number           INTEGER NOT NULL,
    kind             TEXT NOT NULL,
    slug             TEXT NOT NULL,
    data             TEXT NOT NULL,
    published_at     TIMESTAMP NOT NULL,
    published_by     TEXT NOT NULL DEFAULT '',
    published_by_id  TEXT NOT NULL DEFAULT '',
    UNIQUE (item_id, number)
);

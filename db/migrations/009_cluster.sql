-- 009: what several instances share (issue 11). rate_attempts holds the
-- attempts of the PIN, sign-in and estimate limits, one row each, so the
-- limits count across instances (PostgreSQL; SQLite runs one process and
-- keeps them in memory). content_version is bumped by every content change
-- so each instance can tell whether its render cache is current.
CREATE TABLE rate_attempts (
    id       TEXT PRIMARY KEY,
    scope    TEXT NOT NULL,
    key      TEXT NOT NULL,
    at       TIMESTAMP NOT NULL
);
CREATE INDEX rate_attempts_key ON rate_attempts (scope, key, at);

CREATE TABLE content_version (
    id          INTEGER PRIMARY KEY,
    version     BIGINT NOT NULL,
    changed_at  TIMESTAMP NOT NULL,
    reason      TEXT NOT NULL DEFAULT ''
);

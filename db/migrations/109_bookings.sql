-- 109: inspection booking (issue 34, ADR 066). A homeowner whose damage
-- can wait books an inspection window against the owner's availability
-- (a settings row, booking.availability). bookings holds each visit: its
-- window in UTC, its calendar sequence (the .ics file's SEQUENCE, which
-- grows with each move so a calendar replaces the visit) and when it was
-- cancelled. A lead has at most one live booking (the partial unique
-- index); a window's capacity is checked by the store inside one
-- serialized transaction (Store.Serialized: an advisory lock on
-- PostgreSQL, shared by every instance), since a count cannot be a
-- constraint.
CREATE TABLE bookings (
    id            TEXT PRIMARY KEY,
    lead_id       TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    starts_at     TIMESTAMP NOT NULL,
    ends_at       TIMESTAMP NOT NULL,
    sequence      INTEGER NOT NULL DEFAULT 0,
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL,
    cancelled_at  TIMESTAMP,
    CHECK (ends_at > starts_at)
);
CREATE UNIQUE INDEX bookings_live_lead ON bookings (lead_id) WHERE cancelled_at IS NULL;
CREATE INDEX bookings_live_start ON bookings (starts_at) WHERE cancelled_at IS NULL;

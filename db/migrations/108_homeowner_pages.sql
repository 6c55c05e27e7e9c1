-- 108: the homeowner's own page (issue 34, ADRs 065-067). lead_links
-- holds the hashes of the private links to a lead's pages: the
-- homeowner's (/my/{token}) and an insurer's read-only one
-- (/claim/{token}); a link is revocable, may expire, and counts its
-- opens. lead_events grows by the kinds the homeowner's timeline needs:
-- 'progress' (a step of the work the owner records: on the way, work
-- started, drying day N), 'booking' (an inspection booked, moved or
-- cancelled), 'homeowner' (a message or photos the homeowner sent),
-- 'document' (a file the owner attached or shared) and 'link' (a link
-- issued or revoked). The outbox grows by the homeowner's messages
-- ('portal' by email, 'portal_sms' by text; event 'portal'; target
-- holds the message's own key so a lead can have many). SQLite cannot
-- change a CHECK in place, so both tables are rebuilt as 107 did.
CREATE TABLE lead_links (
    id              TEXT PRIMARY KEY,
    lead_id         TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('homeowner', 'adjuster')),
    token_hash      TEXT NOT NULL UNIQUE,
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP,
    revoked_at      TIMESTAMP,
    opens           INTEGER NOT NULL DEFAULT 0,
    last_opened_at  TIMESTAMP
);
CREATE INDEX lead_links_lead ON lead_links (lead_id);

CREATE TABLE lead_events_new (
    id          TEXT PRIMARY KEY,
    lead_id     TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    at          TIMESTAMP NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('note', 'status', 'assigned', 'notified', 'escalated', 'progress', 'booking', 'homeowner', 'document', 'link')),
    user_id     TEXT REFERENCES users (id) ON DELETE SET NULL,
    actor       TEXT NOT NULL,
    channel     TEXT NOT NULL DEFAULT '',
    from_value  TEXT NOT NULL DEFAULT '',
    to_value    TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL DEFAULT ''
);
INSERT INTO lead_events_new (id, lead_id, at, kind, user_id, actor, channel, from_value, to_value, body)
    SELECT id, lead_id, at, kind, user_id, actor, channel, from_value, to_value, body FROM lead_events;
DROP TABLE lead_events;
ALTER TABLE lead_events_new RENAME TO lead_events;
CREATE INDEX lead_events_lead ON lead_events (lead_id, at);

CREATE TABLE outbox_new (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('email', 'webhook', 'push', 'sms', 'ack', 'review', 'review_sms', 'portal', 'portal_sms')),
    event            TEXT NOT NULL DEFAULT 'created' CHECK (event IN ('created', 'escalated', 'portal')),
    target           TEXT NOT NULL DEFAULT '',
    lead_id          TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    payload          TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TIMESTAMP NOT NULL,
    last_error       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL,
    delivered_at     TIMESTAMP,
    failed_at        TIMESTAMP
);
INSERT INTO outbox_new (id, kind, event, target, lead_id, payload, attempts, next_attempt_at, last_error, created_at, delivered_at, failed_at)
    SELECT id, kind, event, target, lead_id, payload, attempts, next_attempt_at, last_error, created_at, delivered_at, failed_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE UNIQUE INDEX outbox_lead_kind ON outbox (lead_id, kind, event, target);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_created ON outbox (created_at);

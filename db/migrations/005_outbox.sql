-- 005: the lead-notification outbox (issue 8). A lead and the rows that
-- announce it (one per configured channel: email, webhook) are written in
-- one transaction, so a stored lead is never left unannounced and a failed
-- write stores neither. The sender in the server process claims due rows
-- (moving next_attempt_at forward as a lease), delivers them and records
-- the outcome: delivered_at, or another attempt later with the error, or
-- failed_at after repeated refusals that retrying cannot fix. payload is
-- the JSON event, which is the webhook body byte for byte. One row per
-- lead and channel: replaying a lead can never announce it twice.
CREATE TABLE outbox (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('email', 'webhook')),
    lead_id          TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    payload          TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TIMESTAMP NOT NULL,
    last_error       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL,
    delivered_at     TIMESTAMP,
    failed_at        TIMESTAMP
);
CREATE UNIQUE INDEX outbox_lead_kind ON outbox (lead_id, kind);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_created ON outbox (created_at);

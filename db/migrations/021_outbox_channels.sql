-- 021: more lead-notification channels (issue 23). The outbox also
-- carries Web Push ('push', one row per subscribed device), SMS through
-- Twilio ('sms', one row per number) and the homeowner's acknowledgement
-- email ('ack'). target names the recipient within the channel (a push
-- subscription's id, a phone number, an email address; '' for the
-- channel's configured recipients), and event says what is announced:
-- the new lead ('created') or an emergency still new after
-- LEAD_ESCALATE_AFTER ('escalated'). A row per recipient keeps retries
-- and a push service's 410 to the one device they concern. The unique
-- key grows to (lead_id, kind, event, target): a replay still never
-- announces a lead twice to the same recipient. SQLite cannot change a
-- CHECK constraint in place, so the table is rebuilt, on both databases
-- alike; rows keep their ids and state.
CREATE TABLE outbox_new (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('email', 'webhook', 'push', 'sms', 'ack')),
    event            TEXT NOT NULL DEFAULT 'created' CHECK (event IN ('created', 'escalated')),
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
    SELECT id, kind, 'created', '', lead_id, payload, attempts, next_attempt_at, last_error, created_at, delivered_at, failed_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE UNIQUE INDEX outbox_lead_kind ON outbox (lead_id, kind, event, target);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_created ON outbox (created_at);

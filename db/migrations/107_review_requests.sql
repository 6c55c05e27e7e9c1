-- 107: every customer asked for a review (issue 33, ADR 063). A lead
-- that becomes completed gets one review_requests row (unique per lead:
-- completed -> scheduled -> completed asks once), due after the owner's
-- delay; the sender turns a due row into outbox rows ('review' by email,
-- 'review_sms' by text), so delivery, retries and the dashboard are the
-- outbox's. review_tokens keeps only the hashes of the feedback links the
-- messages carried. review_optouts remembers an email or phone that
-- asked not to be asked again, across leads (not a lead's data: kept
-- when a lead is deleted). testimonials are what homeowners leave on
-- the feedback page, one per request, moderated by the owner. The
-- outbox's kind CHECK grows by the two review kinds; SQLite cannot
-- change a CHECK in place, so the table is rebuilt as 021 did.
CREATE TABLE outbox_new (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('email', 'webhook', 'push', 'sms', 'ack', 'review', 'review_sms')),
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
    SELECT id, kind, event, target, lead_id, payload, attempts, next_attempt_at, last_error, created_at, delivered_at, failed_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE UNIQUE INDEX outbox_lead_kind ON outbox (lead_id, kind, event, target);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_created ON outbox (created_at);
CREATE TABLE review_requests (
    id          TEXT PRIMARY KEY,
    lead_id     TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    state       TEXT NOT NULL CHECK (state IN ('scheduled', 'queued', 'not_askable')),
    due_at      TIMESTAMP NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    queued_at   TIMESTAMP
);
CREATE UNIQUE INDEX review_requests_lead ON review_requests (lead_id);
CREATE INDEX review_requests_due ON review_requests (state, due_at);
CREATE TABLE review_tokens (
    token_hash  TEXT PRIMARY KEY,
    request_id  TEXT NOT NULL REFERENCES review_requests (id) ON DELETE CASCADE,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX review_tokens_request ON review_tokens (request_id);
CREATE TABLE review_optouts (
    contact     TEXT PRIMARY KEY,
    created_at  TIMESTAMP NOT NULL
);
CREATE TABLE testimonials (
    id          TEXT PRIMARY KEY,
    request_id  TEXT NOT NULL REFERENCES review_requests (id) ON DELETE CASCADE,
    lead_id     TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    first_name  TEXT NOT NULL,
    city        TEXT NOT NULL,
    body        TEXT NOT NULL,
    consent     BOOLEAN NOT NULL DEFAULT FALSE,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'hidden')),
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX testimonials_request ON testimonials (request_id);
CREATE INDEX testimonials_city ON testimonials (state, city);

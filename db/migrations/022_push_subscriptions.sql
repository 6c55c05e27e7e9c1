-- 022: Web Push subscriptions (issue 23). Each row is one browser on one
-- device that asked, for its signed-in account, to be told of new leads:
-- the push service's endpoint (unique: a browser re-subscribing, or
-- another account subscribing on the same browser, takes the row over)
-- and the keys RFC 8291 encrypts with. An account's devices go with the
-- account; a device the push service answers 404 or 410 for is deleted.
-- The VAPID keys that sign every push are one settings row
-- ('vapid_keys'), generated once and shared by every instance.
CREATE TABLE push_subscriptions (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint      TEXT NOT NULL,
    p256dh        TEXT NOT NULL,
    auth          TEXT NOT NULL,
    label         TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMP NOT NULL,
    last_sent_at  TIMESTAMP
);
CREATE UNIQUE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

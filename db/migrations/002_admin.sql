-- 002: admin sessions. The admin PIN unlocks a short-lived token; only its
-- SHA-256 is stored, so a database leak does not leak live tokens. Kept in
-- the database (not memory) so several instances share them.
CREATE TABLE admin_sessions (
    token_hash  TEXT PRIMARY KEY,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL
);
CREATE INDEX admin_sessions_expires ON admin_sessions (expires_at);

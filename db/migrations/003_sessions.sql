-- 003: sessions become revocable and visible. Account sign-in (user_id
-- set) shares this table with PIN sessions (user_id NULL). Each session has
-- a public id (for listing and revoking on the Security screen, never the
-- token), the client IP, when it was last used (expires_at slides with
-- activity) and a hard expiry it can never slide past.
ALTER TABLE admin_sessions ADD COLUMN id TEXT NOT NULL DEFAULT '';
ALTER TABLE admin_sessions ADD COLUMN user_id TEXT;
ALTER TABLE admin_sessions ADD COLUMN ip TEXT NOT NULL DEFAULT '';
ALTER TABLE admin_sessions ADD COLUMN last_seen_at TIMESTAMP;
ALTER TABLE admin_sessions ADD COLUMN hard_expires_at TIMESTAMP;
UPDATE admin_sessions SET id = token_hash, last_seen_at = created_at, hard_expires_at = expires_at;
CREATE INDEX admin_sessions_id ON admin_sessions (id);
CREATE INDEX admin_sessions_user ON admin_sessions (user_id);

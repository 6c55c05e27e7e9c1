-- 019: the second factor (issue 21, ASVS 6.3.2). totp_secret is the
-- enrolled authenticator's secret (empty: none), totp_pending the one
-- being enrolled until a first code confirms it; totp_last_step is the
-- last 30-second step a code was accepted for, so each code works once.
-- user_recovery_codes holds the ten single-use recovery codes, hashed.
ALTER TABLE users ADD COLUMN totp_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN totp_pending TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN totp_enabled_at TIMESTAMP;
ALTER TABLE users ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;

CREATE TABLE user_recovery_codes (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL,
    used_at    TIMESTAMP,
    PRIMARY KEY (user_id, code_hash)
);

-- 020: one session model for the whole admin (issue 21). An account's
-- session starts at its password and is not yet a full session while
-- its second factor is due ('totp') or must be enrolled ('enrol'); PIN
-- sessions and finished sign-ins are 'full'.
ALTER TABLE admin_sessions ADD COLUMN stage TEXT NOT NULL DEFAULT 'full';

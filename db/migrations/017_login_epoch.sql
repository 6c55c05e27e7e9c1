-- 017: sign-in counters that the owner can clear (issue 20). Failed
-- sign-ins are counted per account under a key that includes
-- login_epoch; a password reset or an admin's unlock bumps it, so the
-- old failures stop counting in every instance and in the server a
-- command-line reset cannot reach (SQLite keeps the counts in memory).
ALTER TABLE users ADD COLUMN login_epoch INTEGER NOT NULL DEFAULT 0;

-- 085: backups the owner starts (issue 29, ADR 042). backup_active has a
-- row while a backup runs, on whichever instance runs it: a second 'Back
-- up now' on any instance answers with it (who asked, when it started,
-- how far it got) instead of starting another. The row is written under
-- the backup lock and deleted when the backup ends; a row left by an
-- instance that died is cleared by the next backup that takes the lock.
-- backup_runs.requested_by is the account that pressed 'Back up now'
-- ('' for the schedule and `site backup`).
ALTER TABLE backup_runs ADD COLUMN requested_by TEXT NOT NULL DEFAULT '';
CREATE TABLE backup_active (
    id            TEXT PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    triggered_by  TEXT NOT NULL DEFAULT '',
    requested_by  TEXT NOT NULL DEFAULT '',
    progress      TEXT NOT NULL DEFAULT '',
    updated_at    TIMESTAMP NOT NULL
);

-- 050: backups (issue 24). backup_runs has one row per backup, scheduled
-- or made with `site backup`, good or failed: the dashboard's last good
-- backup, the alarm (older than BACKUP_MAX_AGE, or the last one failed),
-- /healthz and /metrics read it. name is the backup's folder under
-- BACKUP_TO; location is where that is (a folder or s3://bucket/prefix,
-- never a credential). A failed run's summary is the kind of failure.
CREATE TABLE backup_runs (
    id            TEXT PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP NOT NULL,
    outcome       TEXT NOT NULL CHECK (outcome IN ('ok', 'failed')),
    triggered_by  TEXT NOT NULL DEFAULT '',
    name          TEXT NOT NULL DEFAULT '',
    location      TEXT NOT NULL DEFAULT '',
    bytes         BIGINT NOT NULL DEFAULT 0,
    summary       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX backup_runs_started ON backup_runs (started_at);
CREATE INDEX backup_runs_outcome ON backup_runs (outcome, started_at);

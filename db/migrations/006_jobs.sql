-- 006: background jobs (issue 9). IndexNow submission, the SEO health
-- monitor and the review refresh moved from the browser to the server as
-- scheduled jobs; these tables are what they leave behind. job_runs has
-- one row per run (the dashboard's recent activity); indexnow_submissions
-- one per post to IndexNow with what it answered; indexnow_sent the ETag
-- each path had when it was last accepted, so only pages whose bytes
-- changed are submitted again; health_runs and health_results the status
-- of every sitemap URL at each check. Ids are random text, as elsewhere,
-- so the same SQL runs on SQLite and PostgreSQL.
CREATE TABLE job_runs (
    id           TEXT PRIMARY KEY,
    job          TEXT NOT NULL,
    started_at   TIMESTAMP NOT NULL,
    finished_at  TIMESTAMP NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('ok', 'failed', 'skipped')),
    summary      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX job_runs_started ON job_runs (started_at);
CREATE INDEX job_runs_job ON job_runs (job, started_at);

CREATE TABLE indexnow_submissions (
    id            TEXT PRIMARY KEY,
    created_at    TIMESTAMP NOT NULL,
    triggered_by  TEXT NOT NULL,
    urls          TEXT NOT NULL,
    url_count     INTEGER NOT NULL,
    status_code   INTEGER NOT NULL DEFAULT 0,
    response      TEXT NOT NULL DEFAULT '',
    outcome       TEXT NOT NULL CHECK (outcome IN ('ok', 'failed'))
);
CREATE INDEX indexnow_submissions_created ON indexnow_submissions (created_at);

CREATE TABLE indexnow_sent (
    path     TEXT PRIMARY KEY,
    etag     TEXT NOT NULL,
    sent_at  TIMESTAMP NOT NULL
);

CREATE TABLE health_runs (
    id            TEXT PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP NOT NULL,
    triggered_by  TEXT NOT NULL,
    checked       INTEGER NOT NULL,
    issues        INTEGER NOT NULL
);
CREATE INDEX health_runs_started ON health_runs (started_at);

CREATE TABLE health_results (
    run_id        TEXT NOT NULL REFERENCES health_runs (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    url           TEXT NOT NULL,
    status        TEXT NOT NULL,
    status_code   INTEGER NOT NULL,
    redirect_to   TEXT NOT NULL DEFAULT '',
    error         TEXT NOT NULL DEFAULT '',
    canonical_ok  BOOLEAN NOT NULL DEFAULT TRUE,
    checked_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- 010: server-side audits (issue 10). The SEO audit and the Security
-- Scanner used to show fixed samples in the browser; they now run on the
-- server and leave their results here. seo_audit_runs has one row per
-- audit of every public page with the site-wide score (the dashboard's SEO
-- Score) and seo_audit_pages each page's checks (JSON). security_scans has
-- one row per scan and security_results the latest result of each check.
-- security_vulnerabilities holds the failed checks with the status an
-- admin sets (open, acknowledged, fixed), keyed by check id so it survives
-- later scans; a check that stops failing is marked fixed by the scan.
CREATE TABLE seo_audit_runs (
    id            TEXT PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP NOT NULL,
    triggered_by  TEXT NOT NULL,
    base_url      TEXT NOT NULL,
    pages         INTEGER NOT NULL,
    errors        INTEGER NOT NULL,
    passed        INTEGER NOT NULL,
    warnings      INTEGER NOT NULL,
    failed        INTEGER NOT NULL,
    score         INTEGER NOT NULL
);
CREATE INDEX seo_audit_runs_started ON seo_audit_runs (started_at);

CREATE TABLE seo_audit_pages (
    run_id       TEXT NOT NULL REFERENCES seo_audit_runs (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    path         TEXT NOT NULL,
    status_code  INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    passed       INTEGER NOT NULL,
    warnings     INTEGER NOT NULL,
    failed       INTEGER NOT NULL,
    checks       TEXT NOT NULL,
    error        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE security_scans (
    id            TEXT PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP NOT NULL,
    triggered_by  TEXT NOT NULL,
    passed        INTEGER NOT NULL,
    warnings      INTEGER NOT NULL,
    failed        INTEGER NOT NULL,
    not_checked   INTEGER NOT NULL
);
CREATE INDEX security_scans_started ON security_scans (started_at);

CREATE TABLE security_results (
    check_id        TEXT PRIMARY KEY,
    scan_id         TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    category        TEXT NOT NULL,
    name            TEXT NOT NULL,
    severity        TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pass', 'warning', 'fail', 'not-checked')),
    description     TEXT NOT NULL,
    recommendation  TEXT NOT NULL DEFAULT '',
    checked_at      TIMESTAMP NOT NULL
);

CREATE TABLE security_vulnerabilities (
    check_id           TEXT PRIMARY KEY,
    title              TEXT NOT NULL,
    severity           TEXT NOT NULL,
    description        TEXT NOT NULL,
    cve                TEXT NOT NULL DEFAULT '',
    fixed_in           TEXT NOT NULL DEFAULT '',
    status             TEXT NOT NULL CHECK (status IN ('open', 'acknowledged', 'fixed')),
    first_seen_at      TIMESTAMP NOT NULL,
    last_seen_at       TIMESTAMP NOT NULL,
    status_changed_at  TIMESTAMP NOT NULL
);

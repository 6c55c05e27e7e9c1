-- 016: the schema check (issue 19). Schema Management showed fixed samples
-- (138 pages, review counts, an Article error) that were false for this
-- site; the server now validates the JSON-LD every indexable page serves
-- and leaves the result here. schema_check_runs has one row per check of
-- every page with the site-wide figures (Pages Covered, Validation
-- Score); schema_check_pages each page's types, the types its page kind
-- must carry and its findings (JSON). The latest 10 runs are kept.
CREATE TABLE schema_check_runs (
    id            TEXT PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP NOT NULL,
    triggered_by  TEXT NOT NULL,
    base_url      TEXT NOT NULL,
    pages         INTEGER NOT NULL,
    covered       INTEGER NOT NULL,
    unreadable    INTEGER NOT NULL,
    items         INTEGER NOT NULL,
    valid         INTEGER NOT NULL,
    errors        INTEGER NOT NULL,
    warnings      INTEGER NOT NULL,
    score         INTEGER NOT NULL
);
CREATE INDEX schema_check_runs_started ON schema_check_runs (started_at);

CREATE TABLE schema_check_pages (
    run_id       TEXT NOT NULL REFERENCES schema_check_runs (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    path         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    status_code  INTEGER NOT NULL,
    result       TEXT NOT NULL,
    error        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, seq)
);

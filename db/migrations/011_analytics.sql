-- 011: first-party analytics (issue 10). analytics_events holds raw
-- events for 30 days: page views, tap-to-call clicks, CRM form views,
-- estimate leads (recorded by the server) and Core Web Vitals. visitor is
-- hash(daily salt, IP, user agent, day): the salt is deleted once its day
-- is over, so a visitor cannot be followed across days and no IP or
-- persistent identifier is ever stored. analytics_daily keeps per-day
-- aggregates forever (dim: total, source or path); analytics_rollups
-- names the days already aggregated.
CREATE TABLE analytics_events (
    id          TEXT PRIMARY KEY,
    at          TIMESTAMP NOT NULL,
    day         TEXT NOT NULL,
    kind        TEXT NOT NULL,
    path        TEXT NOT NULL DEFAULT '',
    page_kind   TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    referrer    TEXT NOT NULL DEFAULT '',
    utm_source  TEXT NOT NULL DEFAULT '',
    utm_medium  TEXT NOT NULL DEFAULT '',
    utm_campaign TEXT NOT NULL DEFAULT '',
    width       TEXT NOT NULL DEFAULT '',
    visitor     TEXT NOT NULL DEFAULT '',
    metric      TEXT NOT NULL DEFAULT '',
    value       DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE INDEX analytics_events_day ON analytics_events (day, kind);
CREATE INDEX analytics_events_visitor ON analytics_events (visitor, day);

CREATE TABLE analytics_daily (
    day       TEXT NOT NULL,
    kind      TEXT NOT NULL,
    dim       TEXT NOT NULL,
    key       TEXT NOT NULL,
    events    BIGINT NOT NULL,
    visitors  BIGINT NOT NULL,
    PRIMARY KEY (day, kind, dim, key)
);

CREATE TABLE analytics_rollups (
    day        TEXT PRIMARY KEY,
    rolled_at  TIMESTAMP NOT NULL
);

CREATE TABLE analytics_salts (
    day   TEXT PRIMARY KEY,
    salt  TEXT NOT NULL
);

-- 111: Core Web Vitals rolled up per day (issue 35, ADR 071). The
-- Performance Monitor and the Page Speed tile read the 75th percentile
-- of 28 days of vitals; reading every raw measurement took seconds at a
-- busy site's traffic. analytics_vitals_daily holds, per day, page kind
-- and metric, how many measurements fell in each step of the metric's
-- scale (units: 100 ms for LCP, FCP and TTFB, 10 ms for INP, 0.01 for
-- CLS; a value counts in the step it ends, so rounded up). The 75th
-- percentile of the counts is the 75th percentile of the measurements
-- at that resolution, and the thresholds of good and poor are whole
-- steps, so a status is never changed by it.
CREATE TABLE analytics_vitals_daily (
    day        TEXT NOT NULL,
    page_kind  TEXT NOT NULL,
    metric     TEXT NOT NULL,
    units      BIGINT NOT NULL,
    samples    BIGINT NOT NULL,
    PRIMARY KEY (day, page_kind, metric, units)
);

-- The days whose raw events are still kept are rolled up again by the
-- next run of the roll-up job, vitals included (and read from the raw
-- events until then), as migration 015 did.
DELETE FROM analytics_daily WHERE day IN (SELECT DISTINCT day FROM analytics_events);
DELETE FROM analytics_rollups WHERE day IN (SELECT DISTINCT day FROM analytics_events);

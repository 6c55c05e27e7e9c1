-- 015: analytics figures that agree with each other (issue 19, ADR 023).
-- A visit (one visitor on one day) now counts under one source, its first
-- page view's, and leads and calls are linked to the visit of the same
-- visitor and day when the figures are computed, not when the event is
-- written. analytics_events.area names the place of an area page view or
-- of the city typed in an estimate request ("county/slug", "other" for a
-- city outside the service area, '' when not an area page or not
-- recorded), so the Geography table adds up like the others. The
-- roll-up now keeps, per day: visits, their page views and converted
-- visits per source; leads, calls and form views per source of their
-- visit ('' for none); visits per first area page; leads per area.
ALTER TABLE analytics_events ADD COLUMN area TEXT NOT NULL DEFAULT '';

-- The area pages viewed in the raw events still kept (30 days): the path
-- says which ("/areas/{county}/{slug}", a trailing slash allowed).
UPDATE analytics_events SET area = RTRIM(SUBSTR(path, 8), '/')
    WHERE kind = 'pageview' AND path LIKE '/areas/%/%' AND path NOT LIKE '/areas/%/%/_%';

-- Days whose raw events are still kept are rolled up again, with the new
-- figures, by the next run of the roll-up job (and read from the raw
-- events until then). The job prunes whole days, so a day with raw
-- events has all of them.
DELETE FROM analytics_daily WHERE day IN (SELECT DISTINCT day FROM analytics_events);
DELETE FROM analytics_rollups WHERE day IN (SELECT DISTINCT day FROM analytics_events);

-- Older days exist only as aggregates. Their visitors, page views, leads
-- and calls are kept as they are. Their per-source visitors counted a
-- visitor under every source of the day: where that still adds up to the
-- day's visitors (nobody came twice from different sources) it is exact
-- and kept, else the day's visitors count under 'Not recorded'.
INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
    SELECT t.day, 'pageview', 'source', 'Not recorded', t.events, t.visitors FROM analytics_daily t
    WHERE t.kind = 'pageview' AND t.dim = 'total'
        AND t.visitors <> (SELECT COALESCE(SUM(s.visitors), 0) FROM analytics_daily s WHERE s.day = t.day AND s.kind = 'pageview' AND s.dim = 'source');
DELETE FROM analytics_daily WHERE kind = 'pageview' AND dim = 'source' AND key <> 'Not recorded'
    AND day IN (SELECT day FROM analytics_daily WHERE kind = 'pageview' AND dim = 'source' AND key = 'Not recorded');

-- Their leads, calls and form views cannot be linked to a visit any
-- more: they count as not from a counted visit (key ''), and the leads'
-- areas as not recorded.
INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
    SELECT day, kind, 'source', '', SUM(events), SUM(visitors) FROM analytics_daily
    WHERE dim = 'source' AND kind IN ('lead', 'tel_click', 'form_view') GROUP BY day, kind;
DELETE FROM analytics_daily WHERE dim = 'source' AND kind IN ('lead', 'tel_click', 'form_view') AND key <> '';
INSERT INTO analytics_daily (day, kind, dim, key, events, visitors)
    SELECT day, 'lead', 'area', '', events, visitors FROM analytics_daily WHERE kind = 'lead' AND dim = 'total';

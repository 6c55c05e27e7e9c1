-- 117: what the dashboard's tool cards and tiles and the yearly Analytics
-- report read, read from indexes in the order they are counted in (issue
-- 35, ADR 071). At 100,000 leads on SQLite most of their time went to
-- sorting rows read one by one from the table.
--
-- Today's raw Core Web Vitals (the Page Speed tile and card, the
-- Performance Monitor) are read from this index in the order the cap of
-- three measurements per visitor, page and metric is applied in: no
-- window over the table, no sort.
CREATE INDEX analytics_events_vitals ON analytics_events (day, visitor, metric, path, at, id, page_kind, value) WHERE kind = 'vital';
-- Today's other raw events (the visits, sources, pages and areas of
-- Counts) are read from this index alone, in visit order.
CREATE INDEX analytics_events_visits ON analytics_events (day, visitor, at, id, kind, path, source, area) WHERE kind <> 'vital';
-- source_key is the lead's attribution as 'Leads by source / campaign'
-- groups it (db.LeadSourceKey: UTM source, medium, campaign, referring
-- host, ad platform of a click id), one column instead of five columns
-- and an expression over five more, so a year of leads is grouped on one
-- short value. The store writes it with every lead and fills it at start
-- for the leads stored before (db: fillLeadSourceKey); '' is never a key.
ALTER TABLE avatar_leads ADD COLUMN source_key TEXT NOT NULL DEFAULT '';
CREATE INDEX avatar_leads_source_key ON avatar_leads (created_at, source_key, is_emergency);
DROP INDEX avatar_leads_sources;

-- 118: the daily analytics totals in the order the Analytics report adds
-- them up (issue 35, ADR 071). Counts sums the rolled-up days of a window
-- by kind, dimension and key one month at a time (substr(day, 1, 7) is
-- the month of a YYYY-MM-DD day): each month's rows are read from this
-- index already grouped, so a year of daily rows is added up without
-- sorting it (on SQLite at 100,000 leads that sort was most of the
-- 365-day report's remaining time). The totals are unchanged.
CREATE INDEX analytics_daily_months ON analytics_daily ((substr(day, 1, 7)), kind, dim, key, day, events, visitors);

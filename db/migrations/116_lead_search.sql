-- 116: the leads search reads one narrow column per kind of search
-- (issue 35, ADR 071). search_name is the lead's first and last name and
-- city, search_contact its email and the phone's digits, all in lower
-- case; the server fills them when a lead is stored (Lead.Normalized) and
-- for the leads stored before (db: fillLeadSearch, at start). A search
-- matched six LOWER() and a chain of REPLACE() on every lead; it now
-- matches one column, read from an index that also holds the order of
-- the list, so a search and a deep page read the index, not the leads.
-- avatar_leads_sources holds what Analytics' 'Leads by source' counts,
-- so a year of leads is counted from the index, not from the rows.
ALTER TABLE avatar_leads ADD COLUMN search_name TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN search_contact TEXT NOT NULL DEFAULT '';
CREATE INDEX avatar_leads_list ON avatar_leads (created_at DESC, id, search_name, search_contact);
CREATE INDEX avatar_leads_status_list ON avatar_leads (status, created_at DESC, id);
CREATE INDEX avatar_leads_sources ON avatar_leads (created_at, utm_source, utm_medium, utm_campaign, referrer_host, is_emergency, gclid, gbraid, wbraid, fbclid, msclkid);

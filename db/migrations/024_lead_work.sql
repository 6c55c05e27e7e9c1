-- 024: working a lead (issue 23). assigned_to is the account the lead is
-- given to (an admin assigns; NULL: nobody). first_response_at is when a
-- person first changed its status or added a note, set once, so the
-- dashboard's first response time (median and 90th percentile over 7 and
-- 30 days) reads one row per lead. escalated_at is when an emergency
-- still 'new' after LEAD_ESCALATE_AFTER was escalated: set by one
-- conditional update, so two instances racing escalate it once.
-- lead_events is each lead's timeline: notes, status changes,
-- assignments, notifications delivered (per channel) and escalations,
-- each with who (user_id NULL and actor 'system' for the server) and
-- when. The 'created' entry is the lead row itself.
ALTER TABLE avatar_leads ADD COLUMN assigned_to TEXT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE avatar_leads ADD COLUMN first_response_at TIMESTAMP;
ALTER TABLE avatar_leads ADD COLUMN escalated_at TIMESTAMP;
CREATE INDEX avatar_leads_escalation ON avatar_leads (is_emergency, status, created_at) WHERE escalated_at IS NULL;

CREATE TABLE lead_events (
    id          TEXT PRIMARY KEY,
    lead_id     TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    at          TIMESTAMP NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('note', 'status', 'assigned', 'notified', 'escalated')),
    user_id     TEXT REFERENCES users (id) ON DELETE SET NULL,
    actor       TEXT NOT NULL,
    channel     TEXT NOT NULL DEFAULT '',
    from_value  TEXT NOT NULL DEFAULT '',
    to_value    TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX lead_events_lead ON lead_events (lead_id, at);

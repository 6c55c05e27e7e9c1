-- 060: the dashboard's "needs someone" block and today's figures. The
-- leads nobody has answered are read with status = 'new' and no first
-- response, emergencies first and then the longest waiting; and "answered
-- today" counts the leads whose first response fell in today's window.
-- Both read an index rather than every lead.
CREATE INDEX avatar_leads_unanswered ON avatar_leads (is_emergency, created_at) WHERE status = 'new' AND first_response_at IS NULL;
CREATE INDEX avatar_leads_first_response ON avatar_leads (first_response_at);

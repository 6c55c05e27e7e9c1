-- 012: phone numbers in one form (issue 19). avatar_leads.phone now holds
-- the number normalised to E.164 ("+16785550199") when it is a possible
-- North American number, and as typed otherwise; phone_typed keeps what
-- the visitor typed, for display. Rows stored before this migration (and
-- any an older instance writes during a rolling deploy) have phone_typed
-- '': Store.normalizeLeadPhones, run after the migrations at every open,
-- copies their phone to phone_typed and normalises phone, in Go, because
-- the rule (package phone) has no portable SQL form.
ALTER TABLE avatar_leads ADD COLUMN phone_typed TEXT NOT NULL DEFAULT '';

-- 023: where each lead came from (issue 23): the landing page of the
-- visit, the referrer's host, the five UTM parameters, the ad click ids
-- (Google gclid, gbraid, wbraid; Meta fbclid; Microsoft msclkid), the
-- device class and the first-party visit id. package leads validates and
-- bounds every value on the server (ParseAttribution) before it is
-- stored. '' means not recorded, as for the other optional lead columns:
-- leads stored before this migration, and those whose visit said nothing.
ALTER TABLE avatar_leads ADD COLUMN landing_page TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN referrer_host TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN utm_source TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN utm_medium TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN utm_campaign TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN utm_term TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN utm_content TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN gclid TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN gbraid TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN wbraid TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN fbclid TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN msclkid TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN device_class TEXT NOT NULL DEFAULT '';
ALTER TABLE avatar_leads ADD COLUMN visit_id TEXT NOT NULL DEFAULT '';

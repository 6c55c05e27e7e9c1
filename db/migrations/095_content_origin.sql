-- 095: references by identity (issue 30, ADR 046). Records now name the
-- records they refer to by item id, which no rename changes (the ids are
-- written into the JSON by a boot step, editor.Service.MigrateRefs, as the
-- conversion needs the content rules, not SQL). The code also names a few
-- records of its own (the water landing page's areas served), by the key
-- they were seeded with from the embedded files: origin keeps that key,
-- so a renamed city is still found. Items seeded before this migration
-- get it from their first revision, the seed's; items the owner added
-- have none.
ALTER TABLE content_items ADD COLUMN origin TEXT;
UPDATE content_items SET origin = (
    SELECT r.slug FROM content_revisions r
    WHERE r.item_id = content_items.id AND r.number = 1 AND r.published_by_id = 'seed'
);

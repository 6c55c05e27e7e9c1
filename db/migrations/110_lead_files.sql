-- 110: the files of a lead's private pages (issue 34, ADR 067). A row is
-- one file the homeowner's and the adjuster's pages list: a document the
-- owner attached (an estimate, a work authorization, a moisture log, a
-- certificate of completion: a PDF or a photo), a photo the homeowner
-- sent, or one of the crew's job photos the owner shared. An attached
-- document or a homeowner's photo is stored under path (a storage key no
-- media row lists, so /media/ never serves it) with the type sniffed at
-- upload; a shared crew photo has no file of its own: media_id names the
-- job photo, which stays shared only while it is in a job of this lead
-- (no foreign key, as media.job_id has none: a restore loads tables in any
-- order; the reads join). name is the name the pages show, never a path.
CREATE TABLE lead_files (
    id          TEXT PRIMARY KEY,
    lead_id     TEXT NOT NULL REFERENCES avatar_leads (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('estimate', 'authorization', 'moisture_log', 'completion', 'homeowner_photo', 'crew_photo')),
    media_id    TEXT,
    path        TEXT NOT NULL DEFAULT '',
    mime        TEXT NOT NULL DEFAULT '',
    size        BIGINT NOT NULL DEFAULT 0,
    name        TEXT NOT NULL DEFAULT '',
    actor       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL,
    CHECK ((kind = 'crew_photo') = (media_id IS NOT NULL)),
    CHECK (kind = 'crew_photo' OR path <> '')
);
CREATE INDEX lead_files_lead ON lead_files (lead_id, created_at);
CREATE UNIQUE INDEX lead_files_shared ON lead_files (lead_id, media_id);

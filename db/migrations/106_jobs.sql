-- 106: jobs (issue 33, ADR 061). A job is one finished piece of work the
-- crews did: a title, a place (a city record by its content item id, ''
-- until placed, and privately the photos' position rounded to 0.01
-- degree, about 1 km, NULL when unknown; never sent to a browser), a
-- month ('YYYY-MM'), a damage type (the service record's content item
-- id), a short story, optionally the lead it came from, and a homeowner's
-- name shown only with name_consent. It is private (draft) until
-- published. version is bumped by every edit, which names the version it
-- was based on (as content_items).
CREATE TABLE jobs (
    id             TEXT PRIMARY KEY,
    slug           TEXT NOT NULL UNIQUE,
    title          TEXT NOT NULL,
    city_id        TEXT NOT NULL DEFAULT '',
    lat            DOUBLE PRECISION,
    lng            DOUBLE PRECISION,
    month          TEXT NOT NULL DEFAULT '',
    service        TEXT NOT NULL DEFAULT '',
    story          TEXT NOT NULL DEFAULT '',
    lead_id        TEXT NOT NULL DEFAULT '',
    customer_name  TEXT NOT NULL DEFAULT '',
    name_consent   BOOLEAN NOT NULL DEFAULT FALSE,
    status         TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
    published_at   TIMESTAMP,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    version        INTEGER NOT NULL DEFAULT 1,
    CHECK (status <> 'published' OR published_at IS NOT NULL),
    CHECK ((lat IS NULL) = (lng IS NULL))
);
CREATE INDEX jobs_published ON jobs (status, published_at);
-- A photo or video of a job: its job (NULL for none; no foreign key, so a
-- restore may load the tables in any order; DeleteJob detaches), its
-- phase, and what the photo's EXIF said before it was stripped: the
-- position rounded to 0.01 degree and the month it was taken.
ALTER TABLE media ADD COLUMN job_id TEXT;
ALTER TABLE media ADD COLUMN phase TEXT NOT NULL DEFAULT '' CHECK (phase IN ('', 'before', 'during', 'after'));
ALTER TABLE media ADD COLUMN geo_lat DOUBLE PRECISION;
ALTER TABLE media ADD COLUMN geo_lng DOUBLE PRECISION;
ALTER TABLE media ADD COLUMN taken_month TEXT NOT NULL DEFAULT '';
CREATE INDEX media_job ON media (job_id);
-- Today's portfolio projects become jobs, one per project name, published
-- (the public portfolio keeps showing them), with no city, month or story
-- yet; every file stays where it is and is attached to its project's job.
-- A project's folder is already a slug (media.FolderSlug: lower case
-- letters, digits and hyphens, one per project name), so it is the job's
-- slug, and its title is the folder in sentence case ('kitchen-flood' is
-- 'Kitchen flood'), which the owner can change.
INSERT INTO jobs (id, slug, title, status, published_at, created_at, updated_at)
SELECT 'portfolio-' || MIN(id), project, UPPER(SUBSTR(project, 1, 1)) || REPLACE(SUBSTR(project, 2), '-', ' '),
    'published', MIN(created_at), MIN(created_at), MIN(created_at)
FROM media WHERE portfolio = TRUE AND project <> '' GROUP BY project;
UPDATE media SET job_id = (SELECT j.id FROM jobs j WHERE j.id LIKE 'portfolio-%' AND j.slug = media.project)
WHERE portfolio = TRUE AND project <> '';

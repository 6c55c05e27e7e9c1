-- 041: redirects the owner manages (issue 22). Changing a published slug
-- records a 301 from the old address (source 'auto'); the Redirects
-- screen adds and deletes others ('manual'). The rules (no loops, no
-- off-site targets, chains collapsed) are the content service's, applied
-- under one lock on the current set; the table only refuses a redirect to
-- itself.
CREATE TABLE redirects (
    from_path   TEXT PRIMARY KEY,
    to_path     TEXT NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('auto', 'manual')),
    created_at  TIMESTAMP NOT NULL,
    created_by  TEXT NOT NULL DEFAULT '',
    CHECK (from_path <> '' AND to_path <> '' AND from_path <> to_path)
);

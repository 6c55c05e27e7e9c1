-- 042: the 404 monitor (issue 22) lists the paths that answered 404 most
-- over the last 30 days, so the owner can redirect them. One row per day
-- and path with a counter; a day holds a bounded number of paths (the
-- writer stops adding new ones past the cap) and old days are pruned, so
-- whatever bots request, the table stays small.
CREATE TABLE not_found_hits (
    day        TEXT NOT NULL,
    path       TEXT NOT NULL,
    hits       BIGINT NOT NULL,
    last_seen  TIMESTAMP NOT NULL,
    PRIMARY KEY (day, path)
);
CREATE INDEX not_found_hits_path ON not_found_hits (path);

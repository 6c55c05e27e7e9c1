-- 112: the indexes the admin's paged lists read in order (issue 35, ADR
-- 069). Each list is ordered by these columns with a unique last one, so
-- a page is a stable slice read straight off the index, newest (or first)
-- first, with no sort of the whole table:
--   content by kind: kind, then position, slug and id;
--   the audit log: newest first by at, then id;
--   the photo library: newest first by created_at, then id;
--   the accounts: oldest first by created_at, then email;
--   the sessions: newest first by created_at, then id.
-- The redirects are read on their primary key (from_path) and the 404
-- monitor on its (day, path) key: both need nothing new.
CREATE INDEX content_items_list ON content_items (kind, position, slug, id);
CREATE INDEX audit_log_at_id ON audit_log (at, id);
CREATE INDEX media_created_id ON media (created_at, id);
CREATE INDEX users_created ON users (created_at, email);
CREATE INDEX admin_sessions_created ON admin_sessions (created_at, id);

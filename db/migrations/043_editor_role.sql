-- 043: the editor role (issue 22): an account that edits and publishes
-- the site's content and photos and sees no lead. user_roles' check
-- allowed admin and staff only; SQLite cannot alter a check, so the table
-- is rebuilt the same way on both databases, its rows kept.
CREATE TABLE user_roles_next (
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role     TEXT NOT NULL CHECK (role IN ('admin', 'staff', 'editor')),
    PRIMARY KEY (user_id, role)
);
INSERT INTO user_roles_next (user_id, role) SELECT user_id, role FROM user_roles;
DROP TABLE user_roles;
ALTER TABLE user_roles_next RENAME TO user_roles;

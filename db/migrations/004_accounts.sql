-- 004: accounts for the Secure Leads Manager (issue 8, spec 6). users
-- holds one row per person, the email unique whatever its case, the
-- password as an argon2id hash; user_roles names each account's roles
-- (admin, staff) as spec 6 reads them. audit_log records who saw,
-- exported or changed lead data, and every sign-in, successful or not.
CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL,
    name           TEXT NOT NULL DEFAULT '',
    password_hash  TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    last_login_at  TIMESTAMP,
    disabled_at    TIMESTAMP
);
CREATE UNIQUE INDEX users_email ON users (LOWER(email));

CREATE TABLE user_roles (
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role     TEXT NOT NULL CHECK (role IN ('admin', 'staff')),
    PRIMARY KEY (user_id, role)
);

CREATE TABLE audit_log (
    id        TEXT PRIMARY KEY,
    at        TIMESTAMP NOT NULL,
    user_id   TEXT,
    actor     TEXT NOT NULL,
    action    TEXT NOT NULL,
    lead_id   TEXT NOT NULL DEFAULT '',
    detail    TEXT NOT NULL DEFAULT '',
    ip        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX avatar_leads_status ON avatar_leads (status, created_at);

// The session as the server sends it (GET /api/admin/session and
// /api/admin/sessions, docs/admin-auth-api.md). What a session may open is
// in capabilities.ts; the signed-in session's context in use-session.ts.

/** Session is the server's Session answer. */
export interface Session {
  kind: "pin" | "account";
  /** "" is an account without a role: it opens only its own screens. */
  role: "pin" | "admin" | "staff" | "editor" | "";
  stage: "full" | "totp" | "enrol";
  name: string;
  email: string;
  capabilities: string[];
  twoFactor: boolean;
  expiresAt: string;
}

/** SessionRow is a row of GET /api/admin/sessions. */
export interface SessionRow {
  id: string; kind: "pin" | "account"; name: string; email: string;
  createdAt: string; lastSeenAt: string; ip: string; current: boolean;
}

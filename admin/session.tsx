// The session as the server sends it (GET /api/admin/session and
// /api/admin/sessions, docs/admin-auth-api.md). What a session may open is
// in capabilities.ts; the signed-in session's context in use-session.ts.
import type * as wire from "./api.gen";

/** Session is the server's Session answer. */
export type Session = wire.Session;

/** SessionRow is a row of GET /api/admin/sessions. */
export type SessionRow = wire.SessionRow;

// The signed-in session as the browser knows it (GET /api/admin/session,
// docs/admin-auth-api.md). The server decides every capability on every
// request; the browser only uses them to show what the session can open.
import { createContext, useContext } from "react";
import type { Screen } from "./screens";

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

/** can says whether the session has capability ("" always; "a|b" either
 * of them, as the manifest writes a screen two roles may open). */
export function can(s: Session | null | undefined, capability: string): boolean {
  if (!s || s.stage !== "full") return false;
  if (capability === "") return true;
  return Array.isArray(s.capabilities) && capability.split("|").some((c) => s.capabilities.includes(c));
}

export const canOpen = (s: Session | null | undefined, screen: Screen) => can(s, screen.capability);

/** ACCOUNT_ONLY are the capabilities only an account (staff, editor or
 * admin) has: a PIN session asking for them is pointed to the account
 * sign-in. */
export const ACCOUNT_ONLY = new Set(["leads.read", "leads.status", "leads.full", "users.manage", "content.edit", "backups.manage"]);

/** howToGet says, for a screen the session cannot open, which sign-in
 * opens it. It is guidance only: the server decides. */
export function howToGet(capability: string): string {
  switch (capability) {
    case "leads.read":
    case "leads.status":
      return "a staff or admin account";
    case "leads.full":
    case "users.manage":
    case "backups.manage":
      return "an admin account";
    case "media.write":
      return "the admin PIN or an account";
    case "content.edit":
      return "an admin or editor account";
    default:
      return "an admin account or the admin PIN";
  }
}

/** SessionControls are what screens may ask of the app. */
export interface SessionControls {
  session: Session;
  /** update replaces the session (after a second factor is set up). */
  update: (s: Session) => void;
  /** signOut ends the session on the server and shows the gate. */
  signOut: () => void;
  /** toAccountSignIn leaves a PIN session for the gate's account form,
   * keeping the screen (and its ?lead= link) to return to. */
  toAccountSignIn: () => void;
}

const SessionContext = createContext<SessionControls | null>(null);
export const SessionProvider = SessionContext.Provider;

/** useSession returns the signed-in session and its controls. Screens are
 * only rendered once a session is in. */
export function useSession(): SessionControls {
  const c = useContext(SessionContext);
  if (!c) throw new Error("useSession outside the signed-in admin");
  return c;
}

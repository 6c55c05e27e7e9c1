// What a session may open, as the browser shows it. The server decides
// every capability on every request; the browser only uses them to show
// what the session can open.
import type { Screen } from "./screens";
import type { Session } from "./session";

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
export const ACCOUNT_ONLY = new Set(["leads.read", "leads.status", "leads.share", "leads.full", "leads.files", "users.manage", "content.edit", "backups.manage"]);

/** howToGet says, for a screen the session cannot open, which sign-in
 * opens it. It is guidance only: the server decides. */
export function howToGet(capability: string): string {
  switch (capability) {
    case "leads.read":
    case "leads.status":
    case "leads.files":
      return "a staff or admin account";
    case "leads.full":
    case "users.manage":
    case "backups.manage":
      return "an admin account";
    case "media.write":
    case "jobs.write":
      return "the admin PIN or an account";
    case "content.edit":
      return "an admin or editor account";
    default:
      return "an admin account or the admin PIN";
  }
}

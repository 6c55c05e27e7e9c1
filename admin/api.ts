// The one token client of the admin app (docs/admin-auth-api.md).
//
// Both ways in are one session model on the server; the browser only
// differs in how it proves the session:
// - a PIN session is a bearer token kept in this module's memory only, so
//   a reload locks the area again (spec 4);
// - an account session is an HttpOnly cookie the browser sends by itself
//   (credentials: "same-origin"), so it survives a reload and a new tab.
// Every request carries X-Requested-With: fetch, the server's CSRF check
// for the cookie (a cross-site form or image cannot set that header).

let token: string | null = null;
/** live says a signed-in session is believed to be running: only then does
 * a 401 mean "it expired" (during the gate a 401 is just a wrong answer). */
let live = false;
let onExpired: ((wasPin: boolean) => void) | null = null;

/** ApiError carries the server's message (and its title, when it has one)
 * for toasts and inline errors. */
export class ApiError extends Error {
  constructor(public status: number, message: string, public body: any = null) { super(message); }
}

/** NOT_EXPIRY are the endpoints whose 401 means a wrong PIN, password or
 * code rather than a dead session. */
const NOT_EXPIRY = new Set(["/api/admin/unlock", "/api/admin/login", "/api/admin/login/totp", "/api/admin/2fa/confirm",
  // A wrong password or current code (a first or a new authenticator, new recovery codes).
  "/api/admin/2fa/start", "/api/admin/2fa/recovery-codes"]);

/** beginSession records a signed-in session: pinToken for the PIN (kept in
 * memory), null for an account (the cookie does the work). */
export function beginSession(pinToken: string | null) {
  token = pinToken;
  live = true;
}

/** endSession signs out: the server ends the session (bearer or cookie)
 * and clears the cookie; the token is forgotten here at once. The promise
 * settles with whether the server confirmed it. */
export function endSession(): Promise<boolean> {
  const headers = authHeaders();
  token = null;
  live = false;
  return fetch("/api/admin/logout", { method: "POST", headers, credentials: "same-origin", keepalive: true })
    .then((r) => r.ok || r.status === 401, () => false);
}

/** onSessionExpired registers what the app does when a live session gets a
 * 401: back to the gate (wasPin picks the toast). */
export function onSessionExpired(f: (wasPin: boolean) => void) { onExpired = f; }

/** expired is called for a 401 on a live session (also by requests made
 * outside apiFetch, such as the upload's XMLHttpRequest). */
export function expired() {
  if (!live) return;
  const wasPin = token !== null;
  token = null;
  live = false;
  onExpired?.(wasPin);
}

/** authHeaders are the headers every admin request carries; exported for
 * XMLHttpRequest (upload progress), which apiFetch cannot replace. */
export function authHeaders(): Record<string, string> {
  const h: Record<string, string> = { "X-Requested-With": "fetch" };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** apiFetch is the raw request (blobs, uploads): the session's
 * credentials and headers, a network failure as ApiError(0), and a 401 on
 * a live session sends the app back to the gate. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(authHeaders())) headers.set(k, v);
  if (typeof init.body === "string") headers.set("Content-Type", "application/json");
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers, credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "The server could not be reached. Check your connection.");
  }
  if (res.status === 401 && !NOT_EXPIRY.has(path.split("?")[0])) expired();
  return res;
}

/** api calls an admin JSON endpoint; an error status throws ApiError with
 * the server's message. */
export async function api<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await apiFetch(path, init);
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
  return body as T;
}

/** titledError returns the server's titled error ('Access Restricted',
 * 'Export Restricted', 'Authentication Required') as a toast's title and
 * description, or null. */
export function titledError(err: unknown): { title: string; description: string } | null {
  if (err instanceof ApiError && err.body?.title && err.body?.error) return { title: String(err.body.title), description: String(err.body.error) };
  return null;
}

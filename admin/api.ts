// The admin token lives in this module's memory only: a full reload drops
// it and the area locks again (spec 4). The server checks it on every call.
let token: string | null = null;
let onExpired: (() => void) | null = null;

export function setToken(t: string | null) {
  token = t;
  // Locking the PIN area (Lock button) also ends the account session.
  if (t === null) signOutAccount();
}
/** lock ends the PIN session on the server (so the token is dead even if
 * it leaked) and forgets it here; the account session goes with it. */
export function lock() {
  const t = token;
  setToken(null);
  if (t !== null) fetch("/api/admin/logout", { method: "POST", headers: { Authorization: `Bearer ${t}` }, keepalive: true }).catch(() => {});
}
export function hasToken() { return token !== null; }
/** getToken is for requests api() cannot make (upload progress). */
export function getToken() { return token; }
export function onSessionExpired(f: () => void) { onExpired = f; }

/** ApiError carries the server's message for toasts. */
export class ApiError extends Error {
  constructor(public status: number, message: string, public body: any = null) { super(message); }
}

async function send(path: string, init: RequestInit, bearer: string | null): Promise<Response> {
  const headers = new Headers(init.headers);
  if (bearer) headers.set("Authorization", `Bearer ${bearer}`);
  if (init.body && typeof init.body === "string") headers.set("Content-Type", "application/json");
  try {
    return await fetch(path, { ...init, headers });
  } catch {
    throw new ApiError(0, "The server could not be reached. Check your connection.");
  }
}

/** api calls an admin endpoint with the token; a 401 locks the area. */
export async function api<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await send(path, init, token);
  const body = await res.json().catch(() => null);
  if (res.status === 401 && path !== "/api/admin/unlock") {
    token = null;
    signOutAccount();
    onExpired?.();
  }
  if (!res.ok) throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
  return body as T;
}

// The account session (Secure Leads Manager, Users, Audit Log) has its own
// bearer token, separate from the PIN token and, like it, kept in memory
// only: never in localStorage, sessionStorage or a cookie.
let accountToken: string | null = null;
const accountListeners = new Set<() => void>();

export function hasAccountToken() { return accountToken !== null; }

/** onAccountSignedOut calls f whenever the account token is dropped (sign
 * out, Lock, or a 401 from an account endpoint); it returns the unsubscribe. */
export function onAccountSignedOut(f: () => void): () => void {
  accountListeners.add(f);
  return () => { accountListeners.delete(f); };
}

function dropAccount() {
  if (accountToken === null) return;
  accountToken = null;
  accountListeners.forEach((f) => f());
}

/** SignInResult is POST /api/admin/login's answer (docs/leads-api.md). */
export interface SignInResult { token: string; role: "admin" | "staff"; name: string; email: string; expiresAt: string }

/** signIn exchanges an email and password for an account token. Errors
 * carry the server's message ('Invalid email or password', lockout). */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  const res = await send("/api/admin/login", { method: "POST", body: JSON.stringify({ email, password }) }, null);
  const body = await res.json().catch(() => null);
  if (!res.ok || !body?.token) throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
  accountToken = body.token;
  return body as SignInResult;
}

/** signOutAccount ends the account session: the server revokes the token
 * (fire-and-forget) and the screens return to the sign-in form. The PIN
 * area stays unlocked. */
export function signOutAccount() {
  const t = accountToken;
  if (t === null) return;
  dropAccount();
  fetch("/api/admin/logout", { method: "POST", headers: { Authorization: `Bearer ${t}` }, keepalive: true }).catch(() => {});
}

/** accountFetch makes a raw request with the account token (CSV export
 * reads a blob). A 401 drops the token and returns to the sign-in form. */
export async function accountFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await send(path, init, accountToken);
  if (res.status === 401) dropAccount();
  return res;
}

/** accountApi calls an account endpoint (JSON) with the account token. A
 * 401 signs the account out without locking the PIN area. */
export async function accountApi<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await accountFetch(path, init);
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
  return body as T;
}

/** titledError returns the server's titled error ('Access Restricted',
 * 'Export Restricted') as a toast's title and description, or null. */
export function titledError(err: unknown): { title: string; description: string } | null {
  if (err instanceof ApiError && err.body?.title && err.body?.error) return { title: String(err.body.title), description: String(err.body.error) };
  return null;
}

// The admin token lives in this module's memory only: a full reload drops
// it and the area locks again (spec 4). The server checks it on every call.
let token: string | null = null;
let onExpired: (() => void) | null = null;

export function setToken(t: string | null) { token = t; }
export function hasToken() { return token !== null; }
/** getToken is for requests api() cannot make (upload progress). */
export function getToken() { return token; }
export function onSessionExpired(f: () => void) { onExpired = f; }

/** ApiError carries the server's message for toasts. */
export class ApiError extends Error {
  constructor(public status: number, message: string, public body: any = null) { super(message); }
}

/** api calls an admin endpoint with the token; a 401 locks the area. */
export async function api<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (init.body && typeof init.body === "string") headers.set("Content-Type", "application/json");
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers });
  } catch {
    throw new ApiError(0, "The server could not be reached. Check your connection.");
  }
  const body = await res.json().catch(() => null);
  if (res.status === 401 && path !== "/api/admin/unlock") {
    token = null;
    onExpired?.();
  }
  if (!res.ok) throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
  return body as T;
}

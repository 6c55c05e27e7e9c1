// An admin account with its second factor, for browser tests that change
// System Settings: the PIN may read the settings but not save them
// (ADR 039). One account per test run, made with the CLI.
import { BASE } from "./lib.mjs";
import { addUser, factors, nextCode, password, tag } from "./account.mjs";

let made;

/** settingsAdmin is the run's admin account (made once). */
export function settingsAdmin() {
  if (!made) {
    const [t, T] = tag();
    made = { email: `owner.${t}@example.com`, name: `Owner ${T}`, password: password() };
    addUser(made, "admin");
  }
  return made;
}

/** adminApi signs the run's admin in without a browser, setting up its
 * authenticator the first time, and returns a fetch for the admin API
 * with the session cookie and the CSRF header. */
export async function adminApi(base = BASE) {
  const u = settingsAdmin();
  const post = (path, body, cookie) => fetch(base + path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch", ...(cookie ? { Cookie: cookie } : {}) }, body: JSON.stringify(body),
  });
  const r = await post("/api/admin/login", { email: u.email, password: u.password });
  if (!r.ok) throw new Error("login: " + r.status + " " + (await r.text()));
  const cookie = (r.headers.getSetCookie?.() || [r.headers.get("set-cookie") || ""]).map((c) => c.split(";")[0]).filter(Boolean).join("; ");
  const { stage } = await r.json();
  if (stage === "enrol") {
    const s = await post("/api/admin/2fa/start", { password: u.password }, cookie);
    if (!s.ok) throw new Error("2fa/start: " + s.status + " " + (await s.text()));
    factors.set(u.email, { secret: (await s.json()).secret, lastStep: 0, recovery: [] });
    const c = await post("/api/admin/2fa/confirm", { code: await nextCode(u.email), password: u.password }, cookie);
    if (!c.ok) throw new Error("2fa/confirm: " + c.status + " " + (await c.text()));
  } else if (stage === "totp") {
    const c = await post("/api/admin/login/totp", { code: await nextCode(u.email) }, cookie);
    if (!c.ok) throw new Error("login/totp: " + c.status + " " + (await c.text()));
  }
  return (path, init = {}) => fetch(base + path, { ...init, headers: { "Content-Type": "application/json", ...(init.headers || {}), Cookie: cookie, "X-Requested-With": "fetch" } });
}

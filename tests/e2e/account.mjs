// Account sign-in helpers for browser tests: accounts made with
// the CLI, the gate's account form, the code from an authenticator app
// (RFC 6238, computed here from the secret the enrolment shows) and the
// server's cookie session for direct API calls.
import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { BASE, PIN, open, hydrated } from "./lib.mjs";

const SITE = fileURLToPath(new URL("../../bin/site", import.meta.url));

/** tag is a run's random lowercase tag; Tag the same capitalised. */
export function tag() {
  const t = Array.from(randomBytes(6), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");
  return [t, t[0].toUpperCase() + t.slice(1)];
}

export const password = () => randomBytes(12).toString("base64url") + "-Aa1";

/** addUser runs `site user add` against dataDir (the test server's). */
export function addUser(u, role, dataDir = process.env.DATA_DIR) {
  if (!dataDir) throw new Error("DATA_DIR must name the test server's data folder (scripts/e2e.sh exports it)");
  const r = spawnSync(SITE, ["user", "add", "--email", u.email, "--role", role, "--name", u.name], {
    input: u.password + "\n", encoding: "utf8", timeout: 60_000, env: { ...process.env, DATA_DIR: dataDir, ADMIN_PIN: PIN },
  });
  if (r.status !== 0) throw new Error(`bin/site user add ${role} failed (${r.status ?? r.signal}): ${r.stderr || ""}${r.stdout || ""}${r.error || ""}`);
}

/** second factors the tests have set up, by email: the secret, the last
 * step used (the server takes each step once) and the recovery codes. */
export const factors = new Map();

function base32(s) {
  const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0, val = 0;
  const out = [];
  for (const c of s.replace(/[\s=]/g, "").toUpperCase()) {
    const i = A.indexOf(c);
    if (i < 0) throw new Error("not base32: " + c);
    val = ((val << 5) | i) & 0xffff;
    bits += 5;
    if (bits >= 8) { out.push((val >>> (bits - 8)) & 255); bits -= 8; }
  }
  return Buffer.from(out);
}

/** totp is the RFC 6238 code (SHA-1, 6 digits, 30 s) of secret at step. */
export function totp(secret, step) {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const h = createHmac("sha1", base32(secret)).update(msg).digest();
  const o = h[h.length - 1] & 15;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

const stepNow = () => Math.floor(Date.now() / 30_000);

/** nextCode is a code for a step the server has not taken yet for email:
 * this step or the next (it accepts one step either side), else it waits
 * for the next step to begin. */
export async function nextCode(email) {
  const f = factors.get(email);
  if (!f) throw new Error("no authenticator set up for " + email);
  for (;;) {
    const now = stepNow();
    const step = [now, now + 1].find((s) => s > f.lastStep);
    if (step !== undefined) {
      f.lastStep = step;
      return totp(f.secret, step);
    }
    await new Promise((r) => setTimeout(r, (now + 1) * 30_000 - Date.now() + 300));
  }
}

/** fillAccount fills the gate's account form and submits it; it resolves
 * with the login response. */
export async function fillAccount(page, u) {
  await page.getByLabel("Email", { exact: true }).fill(u.email);
  await page.getByLabel("Password", { exact: true }).fill(u.password);
  const login = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/login" && r.request().method() === "POST");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  return login;
}

/** enrol works the gate's (or the Sessions screen's) set-up: the password
 * when the set-up asks for it (a first authenticator needs it; the gate
 * passes the one just typed), then reads the secret shown as text,
 * confirms a code, and keeps the recovery codes. prefix is the form's id
 * prefix ("gate-enrol" or "acct-enrol"). */
export async function enrol(page, u, { prefix = "gate-enrol", shots } = {}) {
  const secretEl = page.locator(`#${prefix}-secret`);
  const passwordEl = page.locator(`#${prefix}-password`);
  await secretEl.or(passwordEl).first().waitFor();
  if (await passwordEl.isVisible()) {
    if (shots) await shots("enrol-password");
    await passwordEl.fill(u.password);
    const start = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/2fa/start");
    await page.getByRole("form", { name: "Confirm your password" }).getByRole("button", { name: "Continue" }).click();
    const res = await start;
    if (res.status() !== 200) throw new Error("2fa/start: " + res.status() + " " + (await res.text()));
  }
  await secretEl.waitFor();
  factors.set(u.email, { secret: (await secretEl.innerText()).replace(/\s/g, ""), lastStep: 0, recovery: [] });
  if (shots) await shots("enrol");
  await page.locator(`#${prefix}-code`).fill(await nextCode(u.email));
  const confirm = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/2fa/confirm");
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  const res = await confirm;
  if (res.status() !== 200) throw new Error("2fa/confirm: " + res.status() + " " + (await res.text()));
  factors.get(u.email).recovery = (await res.json()).recoveryCodes;
  await page.getByRole("list", { name: "Recovery codes" }).waitFor();
  if (shots) await shots("codes");
  await page.getByLabel("I have saved these codes").check();
}

/** signIn signs u in at the gate the page shows: password, then the code
 * or, the first time for an admin, the enrolment. It resolves when the
 * admin layout is there, with the login's stage. */
export async function signIn(page, u, opts = {}) {
  return completeSignIn(page, u, await fillAccount(page, u), opts);
}

/** completeSignIn goes on from the login response res (fillAccount's):
 * the code, or the set-up, then the admin layout. */
export async function completeSignIn(page, u, res, opts = {}) {
  if (res.status() !== 200) throw new Error(`login ${u.email}: ${res.status()} ${await res.text()}`);
  const { stage } = await res.json();
  if (stage === "totp") {
    await page.getByLabel("6-digit code", { exact: true }).fill(await nextCode(u.email));
    await page.getByRole("button", { name: "Verify" }).click();
  } else if (stage === "enrol") {
    await enrol(page, u, opts);
    await page.getByRole("button", { name: "Continue to the admin" }).click();
  }
  await page.locator("#admin-main").waitFor();
  return stage;
}

/** apiSession signs u in without a browser (a staff account without a
 * second factor) and returns a fetch for the admin API with its cookie
 * and the CSRF header. */
export async function apiSession(u, base = BASE) {
  const r = await fetch(base + "/api/admin/login", {
    method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch" }, body: JSON.stringify({ email: u.email, password: u.password }),
  });
  if (!r.ok) throw new Error("login: " + r.status + " " + (await r.text()));
  const body = await r.json();
  if (body.stage !== "full") throw new Error("apiSession needs an account without a second factor; stage " + body.stage);
  const cookie = (r.headers.getSetCookie?.() || [r.headers.get("set-cookie") || ""]).map((c) => c.split(";")[0]).filter(Boolean).join("; ");
  return (path, init = {}) => fetch(base + path, { ...init, headers: { ...(init.headers || {}), Cookie: cookie, "X-Requested-With": "fetch" } });
}

/** newEditor adds an editor account (content and photos, no leads, no
 * second factor) to the test server. */
export function newEditor(dataDir = process.env.DATA_DIR) {
  const [t, T] = tag();
  const u = { email: `editor.${t}@example.com`, name: `Editor ${T}`, password: password() };
  addUser(u, "editor", dataDir);
  return u;
}

/** states are the saved browser sessions of the accounts openAs signed in. */
const states = new Map();

/** openAs opens an admin path signed in as u (an account without a second
 * factor): through the gate's account form the first time, then with the
 * session's cookie, as a new tab would. */
export async function openAs(browser, u, path, viewport) {
  const o = await open(browser, path, viewport, { storageState: states.get(u.email) });
  await hydrated(o.page);
  if (!states.has(u.email)) {
    const res = await fillAccount(o.page, u);
    const { stage } = await res.json();
    if (stage !== "full") throw new Error(`openAs ${u.email}: stage ${stage}`);
    states.set(u.email, await o.context.storageState());
  }
  await o.page.locator("#admin-main").waitFor();
  return o;
}

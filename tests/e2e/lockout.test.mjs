// Strangers guessing at the owner's email cannot lock the owner out
// (ADR 026): the browser the owner signed in with before still signs in,
// a new browser is told to wait, and the Users screen shows the lock and
// lifts it. The file runs its own site: it uses up sign-in limits.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { launch, hydrated, startSite, expectedNoSession, until, PIN, gotoSettled } from "./lib.mjs";
import { completeSignIn, fillAccount } from "./account.mjs";

const SITE = fileURLToPath(new URL("../../bin/site", import.meta.url));
const OWNER = { email: "lock-owner@example.com", password: "river stone lantern 42", name: "Lock Owner" };
const SHOTS = process.env.SHOT_DIR;

let browser, site;
before(async () => {
  site = await startSite();
  const r = spawnSync(SITE, ["user", "add", "--email", OWNER.email, "--role", "admin", "--name", OWNER.name], {
    input: OWNER.password + "\n", encoding: "utf8", timeout: 60_000, env: { ...process.env, DATA_DIR: site.data, ADMIN_PIN: PIN },
  });
  if (r.status !== 0) throw new Error(`user add: ${r.stderr}${r.stdout}`);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.stop();
});

/** signIn opens the leads manager in context and signs in at the gate
 * with password; a successful sign-in goes on to the code (or, the first
 * time, the authenticator's set-up). */
async function signIn(context, password, viewport = { width: 1280, height: 900 }) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error" && !expectedNoSession(m) && !/status of 429/.test(m.text())) problems.push(m.text()); });
  await gotoSettled(page, site.base + "/admin/leads");
  await hydrated(page);
  const res = await fillAccount(page, { email: OWNER.email, password });
  if (res.status() === 200) await completeSignIn(page, { ...OWNER, password }, res);
  return { page, problems };
}

/** signOut ends the owner's account session (its cookie would otherwise
 * open the next page without a sign-in); the browser's device cookie stays. */
async function signOut(page) {
  const status = await page.evaluate(() => fetch("/api/admin/logout", { method: "POST", headers: { "X-Requested-With": "fetch" } }).then((r) => r.status));
  assert.equal(status, 204);
  await page.close();
}

/** guess sends a wrong password from its own loopback address. */
function guess(i, from) {
  const body = JSON.stringify({ email: OWNER.email, password: `guess number ${i}` });
  const u = new URL(site.base + "/api/admin/login");
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", localAddress: from,
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); });
    req.on("error", reject);
    req.end(body);
  });
}

test("ten wrong passwords from two addresses: the owner's browser still signs in, and the Users screen unlocks the account", async () => {
  const owner = await browser.newContext();
  let o = await signIn(owner, OWNER.password);
  await o.page.getByText("Data Loaded").first().waitFor();
  await signOut(o.page);

  for (let i = 0; i < 10; i++) assert.equal(await guess(i, i % 2 ? "127.0.9.2" : "127.0.9.1"), 401, `guess ${i}`);
  assert.equal(await guess(10, "127.0.9.3"), 429, "the account is locked for unknown browsers");

  // A browser that never signed in waits.
  const stranger = await browser.newContext();
  const s = await signIn(stranger, OWNER.password);
  await s.page.getByText(/Too many incorrect sign-ins/).first().waitFor();

  // The owner's own browser signs in, and unlocks the account.
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    o = await signIn(owner, OWNER.password, viewport);
    await o.page.getByText("Data Loaded").first().waitFor();
    if (viewport.width < 768) await o.page.getByRole("button", { name: "Toggle sidebar" }).click();
    await o.page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link", { name: "Users" }).click();
    await o.page.getByText(/Too many failed sign-ins: new browsers wait until/).waitFor();
    if (SHOTS) await o.page.screenshot({ path: `${SHOTS}/users-locked-${viewport.width}.png`, fullPage: true });
    if (viewport.width === 1280) {
      await o.page.getByRole("button", { name: `Unlock sign-in for ${OWNER.name}` }).click();
      await o.page.getByText(`${OWNER.name} can sign in from any browser again.`).waitFor();
      // The toast comes with the PATCH's answer; the list reloads after it.
      assert.ok(await until(async () => (await o.page.getByText(/Too many failed sign-ins/).count()) === 0), "the lock is gone from the screen");
    }
    assert.deepEqual(o.problems, []);
    await signOut(o.page);
  }

  // Unlocked: the new browser signs in.
  const s2 = await signIn(stranger, OWNER.password);
  await s2.page.getByText("Data Loaded").first().waitFor();
  await owner.close();
  await stranger.close();
});

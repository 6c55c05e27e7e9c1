// Attacks from another site, in a real browser: what a page on
// another site can do to a signed-in admin. The site runs on
// http://127.0.0.1:PORT; the attacker's page on http://localhost:OTHER,
// which the browser treats as another site.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { launch, BASE, PIN, CEILING } from "./lib.mjs";

const SITE = fileURLToPath(new URL("../../bin/site", import.meta.url));
const TAG = Array.from(randomBytes(6), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");
const STAFF = { email: `csrf.${TAG}@example.com`, name: `Cross Site ${TAG}`, password: randomBytes(12).toString("base64url") + "-Aa1" };

function addUser(u, role) {
  if (!process.env.DATA_DIR) throw new Error("DATA_DIR must name the test server's data folder");
  const r = spawnSync(SITE, ["user", "add", "--email", u.email, "--role", role, "--name", u.name], {
    input: u.password + "\n", encoding: "utf8", timeout: 60_000, env: { ...process.env, ADMIN_PIN: PIN },
  });
  if (r.status !== 0) throw new Error(`user add failed: ${r.stderr}${r.stdout}`);
}

// The attacker's site: each page posts a form to the admin API as soon as
// it loads (a top-level navigation, the one cross-site request that can
// receive cookies back).
let evil, evilBase;
const pages = {
  "/logout": `<form id=f method=post action="${BASE}/api/admin/logout"><input name=x value=1></form><script>f.submit()</script>`,
  "/logout-plain": `<form id=f method=post enctype=text/plain action="${BASE}/api/admin/logout"><input name=x value=1></form><script>f.submit()</script>`,
  "/status": `<form id=f method=post action="${BASE}/api/admin/leads/none"><input name=status value=lost></form><script>f.submit()</script>`,
};

let browser;
before(async () => {
  addUser(STAFF, "staff");
  evil = http.createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(pages[req.url] || "nothing");
  });
  await new Promise((r) => evil.listen(0, "127.0.0.1", r));
  evilBase = `http://localhost:${evil.address().port}`;
  browser = await launch();
});
after(async () => { await browser?.close(); evil?.close(); });

/** signedIn is a browser context with the staff account's session cookie. */
async function signedIn() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(BASE + "/robots.txt");
  const status = await page.evaluate(async (u) => {
    const r = await fetch("/api/admin/login", { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch" }, body: JSON.stringify(u) });
    return r.status;
  }, { email: STAFF.email, password: STAFF.password });
  assert.equal(status, 200);
  return { context, page };
}

/** settled resolves true once a request to url has finished or failed
 * (false after the suite's ceiling). */
function settled(page, url) {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), CEILING);
    const on = (r) => { if (r.url().startsWith(url)) { clearTimeout(t); resolve(true); } };
    page.on("requestfinished", on);
    page.on("requestfailed", on);
  });
}

const sessionCookie = async (context) => (await context.cookies(BASE)).find((c) => /admin_session$/.test(c.name));

test("a page on another site cannot sign the admin out (logout CSRF)", async () => {
  for (const path of ["/logout", "/logout-plain"]) {
    const { context, page } = await signedIn();
    const before = await sessionCookie(context);
    assert.ok(before, "signed in: the session cookie is set");
    // The answer is 204 or 403, and a 204 ends the navigation where it
    // is: wait for the request to be done, answered or aborted.
    const done = settled(page, BASE + "/api/admin/logout");
    await page.goto(evilBase + path, { waitUntil: "commit" });
    assert.ok(await done, `${path}: the cross-site form was not sent`);
    const after = await sessionCookie(context);
    assert.equal(after?.value, before.value, `${path}: the cross-site form cleared the session cookie`);
    // The session still works for the admin app.
    await page.goto(BASE + "/robots.txt");
    const me = await page.evaluate(async () => (await fetch("/api/admin/session")).status);
    assert.equal(me, 200, `${path}: the session after the cross-site form`);
    await context.close();
  }
});

test("a page on another site cannot change data with the cookie", async () => {
  const { context, page } = await signedIn();
  const done = page.waitForURL((u) => u.href.startsWith(BASE + "/api/admin/leads/none"));
  await page.goto(evilBase + "/status");
  await done;
  // SameSite=Strict: no cookie was sent, so the request had no session.
  const body = await page.textContent("body");
  assert.match(body, /Admin session required|Cross-site request refused/);
  await context.close();
});

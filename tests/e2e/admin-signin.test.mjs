// One admin, one sign-in (docs/admin-auth-api.md): the gate
// offers the PIN and 'Sign in with your account'; an admin's first sign-in
// sets up an authenticator (the server's QR code, the secret as text, ten
// recovery codes shown once); later sign-ins ask for the code or a recovery
// code; the account session survives a reload and a new tab; the sidebar
// shows what the session may open; the new-lead email's link opens the
// lead; each account sees and ends its own sessions; admins reset another
// account's second factor. SHOT_DIR=/some/dir saves screenshots there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import { randomInt } from "node:crypto";
import { launch, hydrated, unlockAdmin, expectedNoSession, BASE, PIN, gotoSettled, reloadSettled, until } from "./lib.mjs";
import { addUser, apiSession, enrol, factors, fillAccount, nextCode, password, signIn, tag } from "./account.mjs";

const SHOTS = process.env.SHOT_DIR;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const [TAG, Tag] = tag();
const ADMIN = { email: `signin.admin.${TAG}@example.com`, name: `Ada Admin ${Tag}`, password: password() };
const ADMIN2 = { email: `signin.admin2.${TAG}@example.com`, name: `Abe Admin ${Tag}`, password: password() };
const STAFF = { email: `signin.staff.${TAG}@example.com`, name: `Sam Staff ${Tag}`, password: password() };
const LEAD = { name: `Lena Linked${Tag}`, phone: `(404) 555-${randomInt(1000, 10000)}`, email: `lena.${TAG}@example.com`, city: "Marietta" };

/** postEstimate sends the public form from its own loopback address, so
 * the per-IP limit stays intact for the other tests' 127.0.0.1. */
function postEstimate(l) {
  const u = new URL(BASE + "/api/estimate");
  const body = new URLSearchParams({ name: l.name, phone: l.phone, email: l.email, city: l.city, street: "", zip: "", damageType: "Water Damage",
    emergency: "no", insuranceCarrier: "", notes: "", website: "" }).toString();
  const loopback = /^(127\.|localhost$)/.test(u.hostname);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: "POST",
      localAddress: loopback ? `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}` : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Accept: "application/json" },
    }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => (res.statusCode === 201 || res.statusCode === 200 ? resolve() : reject(new Error(`estimate ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let browser, leadId;
/** adminState is a browser state holding ADMIN's live session (saved once
 * a test has signed in): screens that are not about signing in open with
 * it, as a new tab would, instead of spending a code each. */
let adminState;

/** asAdmin opens path at viewport in ADMIN's saved session. */
async function asAdmin(viewport, path) {
  assert.ok(adminState, "an earlier test signs ADMIN in");
  const s = await context(viewport, adminState);
  await go(s.page, path);
  await s.page.locator("#admin-main").waitFor();
  return s;
}
before(async () => {
  addUser(ADMIN, "admin");
  addUser(ADMIN2, "admin");
  addUser(STAFF, "staff");
  await postEstimate(LEAD);
  // The lead's id, as the new-lead email links it (/admin/leads?lead=ID).
  const staff = await apiSession(STAFF);
  const r = await staff(`/api/admin/leads?q=${encodeURIComponent(Tag)}`);
  const text = await r.text();
  assert.equal(r.status, 200, text);
  leadId = JSON.parse(text).leads[0].id;
  await staff("/api/admin/logout", { method: "POST" });
  browser = await launch();
});
after(async () => { await browser?.close(); });

/** context opens a browser context at viewport with a page that records
 * problems and checks that every admin API request carries the CSRF
 * header. */
async function context(viewport = WIDE, storageState) {
  const ctx = await browser.newContext({ viewport, acceptDownloads: true, storageState });
  const page = await ctx.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error" && !expectedNoSession(m)) problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  // Every admin API call carries the app's header, except the live
  // stream's GET: an EventSource cannot set headers, and the stream
  // changes nothing (the header guards state-changing requests).
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "GET" && path === "/api/admin/leads/events") return;
    if (path.startsWith("/api/admin/") && r.headers()["x-requested-with"] !== "fetch") problems.push(`no X-Requested-With: ${r.method()} ${r.url()}`);
  });
  return { ctx, page, problems };
}

async function go(page, path) {
  await gotoSettled(page, BASE + path);
  await hydrated(page);
}

/** shot saves a screenshot when SHOT_DIR is set: the whole page, or for a
 * scrolled-to lead what the person sees. */
const shot = (page, name, fullPage = !name.startsWith("deep-link")) =>
  (SHOTS ? page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize().width}.png`, fullPage }) : null);

/** ok drops the browser's log lines for statuses a test provokes. */
const ok = (problems, ...statuses) => problems.filter((p) => !statuses.some((s) => p.includes(`status of ${s}`)));

/** sidebarLabels are the entries of the admin navigation (opening the
 * drawer on a phone). */
async function sidebarLabels(page) {
  if ((page.viewportSize()?.width || 0) < 768) {
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
    await page.locator("#admin-sidebar").waitFor();
  }
  return page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link").allInnerTexts();
}

/** viaSidebar opens a screen from the sidebar (the drawer on a phone);
 * label is the entry's name, or a pattern for one that carries a count
 * ("Secure Leads Manager, 2 new leads"). */
async function viaSidebar(page, label) {
  if ((page.viewportSize()?.width || 0) < 768) await page.getByRole("button", { name: "Toggle sidebar" }).click();
  await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link", typeof label === "string" ? { name: label, exact: true } : { name: label }).click();
}

const TOOLS = ["Dashboard", "Photo Upload", "Jobs", "SEO Audit", "Analytics", "Schema Management", "Performance", "Security", "SEO & IndexNow", "System Settings"];
/** CONTENT are the content screens: an admin's or an editor's;
 * the PIN opens Location Pages' figures only, to read them. */
const CONTENT = ["Content Management", "Location Pages", "Redirects", "Testimonials"];

test("the gate offers the PIN, as the spec has it, and 'Sign in with your account'", async () => {
  for (const viewport of [PHONE, WIDE]) {
    const { ctx, page, problems } = await context(viewport);
    await go(page, "/admin");
    await page.getByRole("heading", { level: 1, name: "Admin Access Required" }).waitFor();
    assert.ok(await page.getByText("Enter your PIN to access the admin panel").isVisible());
    assert.ok(await page.getByRole("heading", { name: "Sign in with your account" }).isVisible());
    assert.ok(await page.getByLabel("PIN").evaluate((el) => el === document.activeElement), "the PIN field has the focus");
    assert.ok(await page.getByLabel("Email", { exact: true }).isVisible());
    assert.equal(await page.getByLabel("Password", { exact: true }).getAttribute("autocomplete"), "current-password");
    await shot(page, "gate");

    // The server's message for a wrong password; nothing is signed in.
    // (Once per run: failed sign-ins count against 127.0.0.1, which every
    // browser test signs in from.)
    if (viewport === WIDE) {
      const res = await fillAccount(page, { email: STAFF.email, password: STAFF.password + "x" });
      assert.equal(res.status(), 401);
      await page.getByRole("alert").filter({ hasText: "Invalid email or password" }).waitFor();
      assert.equal(await page.getByLabel("Password", { exact: true }).inputValue(), "", "the password is cleared");
      assert.ok(await page.getByLabel("Password", { exact: true }).evaluate((el) => el === document.activeElement));
    }

    // A screen only an account opens starts in the account form.
    await go(page, "/admin/leads");
    await page.getByText("The Secure Leads Manager screen needs an account sign-in.").waitFor();
    assert.ok(await page.getByLabel("Email", { exact: true }).evaluate((el) => el === document.activeElement), "the email field has the focus");
    assert.deepEqual(ok(problems, 401), []);
    await ctx.close();
  }
});

test("an admin's first sign-in sets up an authenticator, then the emailed link opens the lead; the session survives a reload and a new tab", async () => {
  // The set-up at 390 px (a second admin), for its screenshots.
  {
    const { ctx, page, problems } = await context(PHONE);
    await go(page, "/admin");
    await signIn(page, ADMIN2, { shots: (name) => shot(page, name) });
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    assert.deepEqual(problems, []);
    await ctx.close();
  }

  const { ctx, page, problems } = await context(WIDE);
  await go(page, `/admin/leads?lead=${encodeURIComponent(leadId)}`);
  const res = await fillAccount(page, ADMIN);
  assert.equal((await res.json()).stage, "enrol", "an admin without an authenticator must set one up");
  const heading = page.getByRole("heading", { level: 1, name: "Set up two-factor authentication" });
  await heading.waitFor();
  assert.ok(await heading.evaluate((el) => el === document.activeElement), "the step's heading has the focus");
  // The server's QR code, as an image, and the secret as text.
  const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
  await qr.waitFor();
  assert.match(await qr.getAttribute("src"), /^data:image\/svg\+xml;utf8,%3Csvg/);
  assert.ok(await qr.evaluate((img) => img.complete && img.naturalWidth > 0), "the QR code renders");
  const secret = (await page.locator("#gate-enrol-secret").innerText()).replace(/\s/g, "");
  assert.match(secret, /^[A-Z2-7]{32}$/);
  const code = page.getByLabel("Enter the 6-digit code the app shows");
  assert.equal(await code.getAttribute("autocomplete"), "one-time-code");
  assert.equal(await code.getAttribute("inputmode"), "numeric");
  await shot(page, "enrol");

  // A wrong code: the server's message, announced; still enrolling.
  await code.fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await page.getByRole("alert").filter({ hasText: /code is not valid/ }).waitFor();
  assert.equal(await code.inputValue(), "");

  // The right code: ten recovery codes, shown once.
  factors.set(ADMIN.email, { secret, lastStep: 0, recovery: [] });
  await code.fill(await nextCode(ADMIN.email));
  const confirm = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/2fa/confirm");
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  const codes = (await (await confirm).json()).recoveryCodes;
  factors.get(ADMIN.email).recovery = codes;
  assert.equal(codes.length, 10);
  await page.getByRole("heading", { level: 1, name: "Save your recovery codes" }).waitFor();
  assert.deepEqual(await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allInnerTexts(), codes);
  const cont = page.getByRole("button", { name: "Continue to the admin" });
  assert.ok(await cont.isDisabled(), "Continue waits for 'I have saved these codes'");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download codes" }).click()]);
  assert.equal(download.suggestedFilename(), "admin-recovery-codes.txt");
  const text = readFileSync(await download.path(), "utf8");
  for (const c of codes) assert.ok(text.includes(c), `the download holds ${c}`);
  await shot(page, "codes");
  await page.getByLabel("I have saved these codes").check();
  await cont.click();

  // The link's lead opens in its details dialog.
  const dialog = page.getByRole("dialog", { name: `Lead details: ${LEAD.name}` });
  await dialog.waitFor();
  assert.ok((await dialog.textContent()).includes(LEAD.email), "an admin sees the full lead");
  assert.ok(await page.getByText("Admin Access").isVisible());
  await shot(page, "deep-link-admin");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal(new URL(page.url()).search, "", "the link's ?lead= is dropped once used");

  // A reload and a new tab keep the account session (its cookie).
  await reloadSettled(page);
  await hydrated(page);
  await page.getByRole("heading", { level: 1, name: "Secure Leads Manager" }).waitFor();
  assert.equal(await page.getByRole("heading", { name: "Admin Access Required" }).count(), 0);
  const tab = await ctx.newPage();
  await gotoSettled(tab, BASE + `/admin/leads?lead=${encodeURIComponent(leadId)}`);
  await tab.getByRole("dialog", { name: `Lead details: ${LEAD.name}` }).waitFor();
  await tab.close();
  // Nothing about the session is readable by the page's scripts.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  assert.ok(!/admin_session|token|Bearer/i.test(stored), stored);
  const cookie = (await ctx.cookies()).find((c) => /admin_session$/.test(c.name));
  assert.ok(cookie && cookie.httpOnly && cookie.sameSite === "Strict", JSON.stringify(cookie));

  // Sign out ends it: the gate, also after a reload.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  await reloadSettled(page);
  await hydrated(page);
  await page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  assert.deepEqual(ok(problems, 401), []);
  await ctx.close();
});

test("a later sign-in asks for the code, resumes after a reload, and takes a recovery code once", async () => {
  for (const viewport of [PHONE, WIDE]) {
    const { ctx, page, problems } = await context(viewport);
    await go(page, "/admin");
    const res = await fillAccount(page, ADMIN);
    assert.equal((await res.json()).stage, "totp");
    const code = page.getByLabel("6-digit code", { exact: true });
    await code.waitFor();
    assert.ok(await code.evaluate((el) => el === document.activeElement), "the code field has the focus");
    assert.equal(await code.getAttribute("autocomplete"), "one-time-code");
    assert.equal(await code.getAttribute("inputmode"), "numeric");
    await shot(page, "code");

    // A reload between the password and the code resumes the code step.
    await reloadSettled(page);
    await hydrated(page);
    await code.waitFor();
    await code.fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").filter({ hasText: /code is not valid/ }).waitFor();

    if (viewport === WIDE) {
      // A recovery code instead, then the same code again is refused.
      const recovery = factors.get(ADMIN.email).recovery.shift();
      await page.getByRole("button", { name: "Use a recovery code instead" }).click();
      const field = page.getByLabel("Recovery code", { exact: true });
      assert.ok(await field.evaluate((el) => el === document.activeElement));
      await field.fill(recovery);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("9 recovery codes left.", { exact: false }).waitFor();
      await page.locator("#admin-main").waitFor();
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await fillAccount(page, ADMIN);
      await page.getByRole("button", { name: "Use a recovery code instead" }).click();
      await page.getByLabel("Recovery code", { exact: true }).fill(recovery);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("alert").filter({ hasText: /not valid/ }).waitFor();
      await page.getByRole("button", { name: "Use the code from your app instead" }).click();
    }
    await code.fill(await nextCode(ADMIN.email));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    assert.deepEqual(ok(problems, 401), []);
    if (viewport === WIDE) adminState = await ctx.storageState();
    await ctx.close();
  }
});

test("the sidebar lists what each sign-in may open; other screens say how to get them", async () => {
  for (const viewport of [PHONE, WIDE]) {
    // Staff: no second factor required; leads, photos, sessions.
    {
      const { ctx, page, problems } = await context(viewport);
      await go(page, "/admin");
      assert.equal(await signIn(page, STAFF), "full");
      assert.deepEqual(await sidebarLabels(page), ["Dashboard", "Secure Leads Manager", "Photo Upload", "Jobs", "Sessions"]);
      assert.ok(await page.locator("#admin-sidebar").getByText(STAFF.name).isVisible());
      await shot(page, "sidebar-staff");
      await page.keyboard.press("Escape");
      await go(page, "/admin/settings");
      await page.getByRole("heading", { name: "Not available with your sign-in" }).waitFor();
      assert.ok(await page.getByText("System Settings needs an admin account or the admin PIN.").isVisible());
      assert.ok(await page.getByRole("button", { name: "Sign out", exact: true }).first().isVisible());
      assert.deepEqual(ok(problems, 401), []);
      await ctx.close();
    }
    // The PIN: the tools, not the leads.
    {
      const { context: ctx, page, problems } = await unlockAdmin(browser, "/admin", viewport);
      assert.deepEqual(await sidebarLabels(page), [...TOOLS.slice(0, 5), "Location Pages", ...TOOLS.slice(5), "Sessions"]);
      assert.ok(await page.locator("#admin-sidebar").getByText("admin PIN").isVisible());
      await shot(page, "sidebar-pin");
      assert.deepEqual(problems, []);
      await ctx.close();
    }
    // An admin: everything.
    {
      const { ctx, page, problems } = await asAdmin(viewport, "/admin");
      assert.deepEqual(await sidebarLabels(page), [TOOLS[0], "Secure Leads Manager", ...TOOLS.slice(1, 5), ...CONTENT, ...TOOLS.slice(5), "Users", "Audit Log", "Backups", "Sessions"]);
      await shot(page, "sidebar-admin");
      assert.deepEqual(ok(problems, 401), []);
      await ctx.close();
    }
  }
});

test("the emailed link: staff get the lead's row marked; the PIN is sent to the account sign-in, then the lead opens", async () => {
  for (const viewport of [PHONE, WIDE]) {
    const { ctx, page, problems } = await context(viewport);
    await go(page, `/admin/leads?lead=${encodeURIComponent(leadId)}`);
    await signIn(page, STAFF);
    await page.getByText("Staff Access").waitFor();
    const row = page.locator(`#lead-row-${leadId}`);
    await row.waitFor();
    assert.ok((await row.textContent()).includes(LEAD.name));
    assert.ok((await row.textContent()).includes("Linked lead"));
    assert.equal(await row.getAttribute("aria-current"), "true");
    // The lead opens: its notes and timeline, masked, with the
    // focus in the dialog; closing it leaves the focus on the row.
    const dialog = page.getByRole("dialog", { name: `Lead: ${LEAD.name}` });
    await dialog.waitFor();
    await dialog.getByRole("list", { name: "Timeline, oldest first" }).waitFor();
    assert.ok(await dialog.evaluate((el) => el.contains(document.activeElement)), "the dialog has the focus");
    assert.ok(!(await dialog.textContent()).includes(LEAD.email), "staff see the lead masked");
    await shot(page, "deep-link-staff");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.ok(await until(() => row.evaluate((el) => el === document.activeElement)), "the row has the focus");
    assert.ok(!(await row.textContent()).includes(LEAD.email), "staff see the lead masked");
    assert.deepEqual(ok(problems, 401), []);
    await ctx.close();
  }

  // An admin's session opens the link in a new tab at once.
  {
    const { ctx, page, problems } = await asAdmin(PHONE, `/admin/leads?lead=${encodeURIComponent(leadId)}`);
    await page.getByRole("dialog", { name: `Lead details: ${LEAD.name}` }).waitFor();
    await shot(page, "deep-link-admin");
    assert.deepEqual(problems, []);
    await ctx.close();
  }

  {
    const { context: ctx, page, problems } = await unlockAdmin(browser, `/admin/leads?lead=${encodeURIComponent(leadId)}`, PHONE);
    await page.getByText("Authentication Required").first().waitFor();
    await shot(page, "leads-pin");
    assert.deepEqual(problems, []);
    await ctx.close();
  }
  const { context: ctx, page, problems } = await unlockAdmin(browser, `/admin/leads?lead=${encodeURIComponent(leadId)}`, WIDE);
  await page.getByText("Authentication Required").first().waitFor();
  assert.ok(await page.getByText("Please log in to access lead data").first().isVisible());
  await shot(page, "leads-pin");
  await page.getByRole("button", { name: "Sign in with your account" }).click();
  await page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  assert.ok(await page.getByLabel("Email", { exact: true }).evaluate((el) => el === document.activeElement), "the account form has the focus");
  assert.equal(await page.evaluate(() => sessionStorage.getItem("admin_authenticated")), null);
  await signIn(page, ADMIN);
  await page.getByRole("dialog", { name: `Lead details: ${LEAD.name}` }).waitFor();
  assert.deepEqual(ok(problems, 401), []);
  await ctx.close();
});

test("Sessions: staff see and end their own, admins and the PIN see everyone's", async () => {
  const a = await context(WIDE);
  const b = await context(PHONE);
  for (const s of [a, b]) {
    await go(s.page, "/admin");
    await signIn(s.page, STAFF);
  }
  await viaSidebar(a.page, "Sessions");
  await viaSidebar(b.page, "Sessions");
  await b.page.getByText("This session").waitFor();
  await shot(b.page, "sessions");
  const card = a.page.locator("section.a-card", { has: a.page.getByRole("heading", { name: "Active Sessions" }) });
  await card.getByText("This session").waitFor();
  const rows = card.getByRole("listitem");
  const texts = await rows.allInnerTexts();
  assert.ok(texts.length >= 2);
  assert.ok(texts.every((t) => t.includes(STAFF.name)), "staff see only their own sessions: " + texts.join(" | "));
  assert.equal(await card.getByText("This session").count(), 1);
  await shot(a.page, "sessions");

  // End B's session: B's next request goes back to the gate.
  const other = rows.filter({ hasNotText: "This session" }).first();
  await other.getByRole("button", { name: new RegExp(`^End session of ${STAFF.name}`) }).click();
  await a.page.getByText("Session ended").waitFor();
  await viaSidebar(b.page, /^Secure Leads Manager(, \d+ new leads?)?$/);
  await b.page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  await b.page.getByText("Sign in again to continue.").waitFor();
  await shot(b.page, "session-ended");

  // An admin sees other people's sessions too.
  const c = await asAdmin(WIDE, "/admin");
  await viaSidebar(c.page, "Sessions");
  const all = c.page.locator("section.a-card", { has: c.page.getByRole("heading", { name: "Active Sessions" }) });
  await all.getByText("This session").waitFor();
  await all.getByText(STAFF.name).first().waitFor();
  await shot(c.page, "sessions-admin");

  // Ending your own session signs you out.
  await a.page.getByRole("button", { name: /signs you out/ }).click();
  await a.page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  assert.deepEqual(ok(a.problems, 401), []);
  assert.deepEqual(ok(b.problems, 401), []);
  assert.deepEqual(ok(c.problems, 401), []);
  for (const s of [a, b, c]) await s.ctx.close();
});

test("Users shows two-factor per account and resets it; the account sets it up again at its next sign-in", async () => {
  {
    const { ctx, page, problems } = await asAdmin(PHONE, "/admin/users");
    await page.getByRole("cell", { name: ADMIN2.email }).waitFor();
    await shot(page, "users");
    assert.deepEqual(problems, []);
    await ctx.close();
  }
  const { ctx, page, problems } = await asAdmin(WIDE, "/admin/users");
  const row = page.getByRole("row").filter({ hasText: ADMIN2.email });
  await row.waitFor();
  assert.match(await row.innerText(), /On\s+since/);
  assert.match(await page.getByRole("row").filter({ hasText: STAFF.email }).innerText(), /Off/);
  await shot(page, "users");
  await row.getByRole("button", { name: `Reset two-factor for ${ADMIN2.name}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Reset two-factor authentication?" });
  await dialog.waitFor();
  const patched = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().includes("/api/admin/users/"));
  await dialog.getByRole("button", { name: "Reset two-factor" }).click();
  assert.deepEqual(JSON.parse((await patched).request().postData()), { resetTwoFactor: true });
  assert.equal((await patched).status(), 200);
  await page.getByText(`Two-factor authentication of ${ADMIN2.name} was reset; their sessions were ended.`).waitFor();
  await until(async () => !/On\s+since/.test(await row.innerText()));
  assert.match(await row.innerText(), /Off\s*set up at next sign-in/);
  assert.deepEqual(problems, []);
  await ctx.close();

  const again = await context(WIDE);
  await go(again.page, "/admin");
  assert.equal(await signIn(again.page, ADMIN2), "enrol", "the reset admin sets up an authenticator again");
  await again.ctx.close();
});

test("staff may set up two-factor from Sessions; the next sign-in asks for the code", async () => {
  const { ctx, page, problems } = await context(WIDE);
  await go(page, "/admin");
  await signIn(page, STAFF);
  await viaSidebar(page, "Sessions");
  const card = page.locator("section.a-card", { has: page.getByRole("heading", { name: /^Two-factor authentication/ }) });
  await card.getByText("Off", { exact: true }).waitFor();
  await card.getByRole("button", { name: "Set up two-factor authentication" }).click();
  assert.ok(await page.getByRole("heading", { name: "Set up your authenticator" }).evaluate((el) => el === document.activeElement));
  await enrol(page, STAFF, { prefix: "acct-enrol" });
  await card.getByRole("button", { name: "Done" }).click();
  await card.getByText("On", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  assert.equal(await signIn(page, STAFF), "totp");
  assert.deepEqual(ok(problems, 401), []);
  await ctx.close();
});

test("the PIN gate is unchanged: wrong PIN toast, then the tools and Lock", async () => {
  const { ctx, page, problems } = await context(WIDE);
  await go(page, "/admin");
  await page.getByLabel("PIN").fill("000001");
  await page.keyboard.press("Enter");
  await page.getByText("Access denied").waitFor();
  assert.ok(await page.getByText("Incorrect PIN entered.").first().isVisible());
  await page.getByLabel("PIN").fill(PIN);
  await page.keyboard.press("Enter");
  await page.getByText("Access granted").waitFor();
  assert.ok(await page.getByText("Welcome to the admin panel.").isVisible());
  assert.equal(await page.evaluate(() => sessionStorage.getItem("admin_authenticated")), "true");
  await page.getByRole("button", { name: "Lock admin" }).click();
  await page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  assert.deepEqual(ok(problems, 401), []);
  await ctx.close();
});

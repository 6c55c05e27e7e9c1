// Accounts on a 390 px phone: the Users screen offers no change
// the server refuses (an admin's own row: no Disable, no role change, the
// reason instead); a role change asks first and applies only after the
// confirmation; the Sessions screen counts the recovery codes left, warns
// when few are, and makes a new set after a current code; a new account's
// first authenticator asks for the password.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { launch, hydrated, expectedNoSession, until, BASE, gotoSettled } from "./lib.mjs";
import { addUser, enrol, factors, fillAccount, nextCode, password, signIn, tag } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.SHOT_DIR || "";
if (SHOTS) mkdirSync(SHOTS, { recursive: true });
const [TAG, Tag] = tag();
const ADMIN = { email: `owner.${TAG}@example.com`, name: `Olive Owner ${Tag}`, password: password() };
const STAFF = { email: `sam.${TAG}@example.com`, name: `Sam Crew ${Tag}`, password: password() };
const EDITOR = { email: `ed.${TAG}@example.com`, name: `Eda Writer ${Tag}`, password: password() };
const WAIT = {};

let browser;
/** adminState is the admin's signed-in browser session (cookie). */
let adminState;
before(async () => {
  browser = await launch();
  addUser(ADMIN, "admin");
  addUser(STAFF, "staff");
  addUser(EDITOR, "editor");
});
after(async () => { await browser?.close(); });

async function context(storageState) {
  const ctx = await browser.newContext({ viewport: PHONE, acceptDownloads: true, storageState });
  const page = await ctx.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error" && !expectedNoSession(m)) problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return { ctx, page, problems };
}

async function go(page, path) {
  await gotoSettled(page, BASE + path);
  await hydrated(page);
}

const shot = (page, name) => (SHOTS ? page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true }) : null);

/** ok drops the browser's log lines for statuses a test provokes. */
const ok = (problems, ...statuses) => problems.filter((p) => !statuses.some((s) => p.includes(`status of ${s}`)));

/** asAdmin opens path signed in as the admin: through the gate (and its
 * first enrolment) the first time, then with the saved cookie. */
async function asAdmin(path) {
  const o = await context(adminState);
  await go(o.page, path);
  if (!adminState) {
    await signIn(o.page, ADMIN);
    adminState = await o.ctx.storageState();
  }
  await o.page.locator("#admin-main").waitFor(WAIT);
  return o;
}

/** row is the Users table's row of an account. */
const row = (page, u) => page.locator("tr", { has: page.getByRole("rowheader", { name: new RegExp(u.name) }) });

test("an admin's own row offers no Disable or role change; another's role changes only after a confirmation", async () => {
  const { ctx, page, problems } = await asAdmin("/admin/users");
  await page.getByRole("heading", { level: 1, name: "Users" }).waitFor(WAIT);
  const mine = row(page, ADMIN);
  await mine.waitFor(WAIT);
  assert.equal(await mine.getByRole("combobox").count(), 0, "no role change on one's own account");
  assert.equal(await mine.getByRole("button", { name: /^Disable/ }).count(), 0, "no Disable on one's own account");
  // The reason, and who could make the change (other tests' admins may
  // share this database).
  assert.match(await mine.innerText(), /This is your own account: (another admin can|add a second admin, who can) change its role\./);
  assert.match(await mine.innerText(), /This is your own account: (another admin can|add a second admin, who can) disable it\./);
  const staff = row(page, STAFF);
  const select = staff.getByRole("combobox", { name: `Role for ${STAFF.name}` });
  assert.equal(await select.inputValue(), "staff");
  assert.ok(await staff.getByRole("button", { name: `Disable ${STAFF.name}` }).isVisible());
  await shot(page, "users");

  // A role change asks first; Escape closes the question and nothing is sent.
  let patches = 0;
  page.on("request", (r) => { if (r.method() === "PATCH" && new URL(r.url()).pathname.startsWith("/api/admin/users/")) patches++; });
  await select.selectOption("editor");
  const dialog = page.getByRole("alertdialog", { name: `Make ${STAFF.name} an editor?` });
  await dialog.waitFor(WAIT);
  assert.match(await dialog.innerText(), /will edit the website's content and photos, and see no leads\. Their open sessions end now/);
  assert.ok(await dialog.getByRole("button", { name: "Cancel" }).evaluate((el) => el === document.activeElement), "Cancel has the focus");
  await shot(page, "role-confirm");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached", ...WAIT });
  assert.equal(patches, 0, "nothing is changed before the confirmation");
  assert.equal(await select.inputValue(), "staff", "the role stays until confirmed");

  // Confirmed with the keyboard: the change is sent and shown.
  await select.selectOption("editor");
  await dialog.waitFor(WAIT);
  const patch = page.waitForResponse((r) => r.request().method() === "PATCH" && new URL(r.url()).pathname.startsWith("/api/admin/users/"), WAIT);
  await dialog.getByRole("button", { name: "Make an editor" }).focus();
  await page.keyboard.press("Enter");
  assert.equal((await patch).status(), 200);
  await page.getByText(`${STAFF.name} is now an editor.`).waitFor(WAIT);
  // The list is read again from the server after the change.
  assert.ok(await until(async () => (await row(page, STAFF).getByRole("combobox").inputValue()) === "editor"), "the row shows the new role");

  // Disable asks too, saying what happens; Cancel keeps the account.
  await row(page, STAFF).getByRole("button", { name: `Disable ${STAFF.name}` }).click();
  const dis = page.getByRole("alertdialog", { name: "Disable this account?" });
  await dis.waitFor(WAIT);
  assert.match(await dis.innerText(), new RegExp(`${STAFF.name} will no longer be able to sign in\\. Their open sessions end now\\.`));
  await dis.getByRole("button", { name: "Cancel" }).click();
  await dis.waitFor({ state: "detached", ...WAIT });
  assert.equal(patches, 1);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the Sessions screen counts the recovery codes left, warns when few are, and renews them after a current code", async () => {
  // Sign-ins with recovery codes spend 8 of the 10 (the API, as a person
  // on another device would).
  await (await asAdmin("/admin")).ctx.close();
  const spent = factors.get(ADMIN.email).recovery.slice(0, 8);
  for (const code of spent) {
    const login = await fetch(BASE + "/api/admin/login", { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch" },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }) });
    assert.equal(login.status, 200);
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const r = await fetch(BASE + "/api/admin/login/totp", { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch", Cookie: cookie },
      body: JSON.stringify({ recoveryCode: code }) });
    assert.equal(r.status, 200, "a recovery-code sign-in");
  }
  const { ctx, page, problems } = await asAdmin("/admin/sessions");
  const card = page.locator("section.a-card", { has: page.getByRole("heading", { name: /^Recovery codes/ }) });
  await card.getByText("2 left", { exact: true }).waitFor(WAIT);
  assert.match(await card.getByTestId("recovery-left").innerText(), /Only 2 recovery codes are left\. Make a new set soon/);
  await shot(page, "recovery-few");

  await card.getByRole("button", { name: "Make new recovery codes" }).click();
  const heading = card.getByRole("heading", { name: "Confirm with your authenticator app" });
  await heading.waitFor(WAIT);
  assert.ok(await heading.evaluate((el) => el === document.activeElement), "the step's heading has the focus");
  // A wrong code: the server's message; still signed in, nothing renewed.
  await card.getByLabel("Current 6-digit code").fill("000000");
  await card.getByRole("button", { name: "Make new codes" }).click();
  await card.getByRole("alert").filter({ hasText: /Enter the current 6-digit code/ }).waitFor(WAIT);
  await card.getByLabel("Current 6-digit code").fill(await nextCode(ADMIN.email));
  const renew = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/admin/2fa/recovery-codes", WAIT);
  await card.getByRole("button", { name: "Make new codes" }).click();
  const res = await renew;
  assert.equal(res.status(), 200);
  const codes = (await res.json()).recoveryCodes;
  assert.equal(codes.length, 10);
  await card.getByRole("list", { name: "Recovery codes" }).waitFor(WAIT);
  assert.deepEqual(await card.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allInnerTexts(), codes);
  await shot(page, "recovery-new");
  await card.getByLabel("I have saved these codes").check();
  await card.getByRole("button", { name: "Done" }).click();
  await card.getByText("10 left", { exact: true }).waitFor(WAIT);
  assert.match(await card.getByTestId("recovery-left").innerText(), /You have 10 unused recovery codes\./);
  // The old codes are dead at once.
  const login = await fetch(BASE + "/api/admin/login", { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }) });
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const old = await fetch(BASE + "/api/admin/login/totp", { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch", Cookie: cookie },
    body: JSON.stringify({ recoveryCode: factors.get(ADMIN.email).recovery[9] }) });
  assert.equal(old.status, 401, "an old recovery code after the renewal");
  factors.get(ADMIN.email).recovery = codes;
  assert.deepEqual(ok(problems, 401), []);
  await ctx.close();
});

test("a new account's first authenticator asks for the password", async () => {
  const { ctx, page, problems } = await context();
  await go(page, "/admin/sessions");
  const res = await fillAccount(page, EDITOR);
  assert.equal((await res.json()).stage, "full");
  await page.locator("#admin-main").waitFor(WAIT);
  const card = page.locator("section.a-card", { has: page.getByRole("heading", { name: /^Two-factor authentication/ }) });
  await card.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const pw = card.getByLabel("Your password", { exact: true });
  await pw.waitFor(WAIT);
  assert.equal(await card.locator("#acct-enrol-secret").count(), 0, "no secret before the password");
  // A wrong password: the server's message, the field again, still signed in.
  await pw.fill("not my password at all");
  await card.getByRole("button", { name: "Continue" }).click();
  await card.getByRole("alert").filter({ hasText: "That password is not right" }).waitFor(WAIT);
  assert.ok(await pw.evaluate((el) => el === document.activeElement), "the password field has the focus again");
  await shot(page, "enrol-password");
  assert.equal(await card.locator("#acct-enrol-secret").count(), 0);
  // The right one: the set-up goes on (the shared helper types it).
  await enrol(page, EDITOR, { prefix: "acct-enrol" });
  await card.getByRole("button", { name: "Done" }).click();
  await card.getByText("On", { exact: true }).waitFor(WAIT);
  assert.deepEqual(ok(problems, 401), []);
  await ctx.close();
});

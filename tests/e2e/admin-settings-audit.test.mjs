// System Settings and the audit log on a phone (ADR 039): the PIN reads
// the settings and cannot save them; an admin account with its second
// factor sees where the 24/7 number appears, saves a new one, and every
// call button on the home page dials it; the audit log reads as cards of
// sentences.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { launch, open, hydrated, unlockAdmin, BASE, gotoSettled, CEILING } from "./lib.mjs";

// COUNTED is how long the screen may take to count where the numbers
// appear: the server draws every public page before it counts (all of
// them again after a save), and the screen says it is counting until the
// answer comes. Idle that is a few seconds; beside the rest of the suite
// and two CPU hogs one count took over 120 s. The wait ends when the
// count is on screen.
const COUNTED = 4 * CEILING;
import { apiToken } from "./api.mjs";
import { signIn } from "./account.mjs";
import { adminApi, settingsAdmin } from "./settings-admin.mjs";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };
const NEW = "(404) 555-0166";
const digits = (s) => s.replace(/\D/g, "").replace(/^1(\d{10})$/, "$1");

let browser, admin, saved;
before(async () => {
  browser = await launch();
  admin = await adminApi();
  saved = await (await admin("/api/admin/settings")).json();
});
after(async () => {
  // Leave the configured number behind for the other test files.
  if (saved) await admin("/api/admin/settings", { method: "PUT", body: JSON.stringify(saved) });
  await browser?.close();
});

test("the PIN reads System Settings but cannot change them", async () => {
  const pin = await apiToken();
  const put = await fetch(BASE + "/api/admin/settings", {
    method: "PUT", headers: { Authorization: "Bearer " + pin, "Content-Type": "application/json" }, body: JSON.stringify({ ...saved, phone: NEW }),
  });
  assert.equal(put.status, 403);
  assert.equal((await put.json()).error, "Sign in with an admin account to change these settings.");
  assert.equal((await (await admin("/api/admin/settings")).json()).phone, saved.phone, "nothing saved");

  const { context, page, problems } = await unlockAdmin(browser, "/admin/settings", PHONE);
  await page.getByRole("heading", { name: "System Settings" }).waitFor();
  await page.getByText("You can read these settings but not change them.").waitFor();
  assert.ok(await page.getByText("Sign in with an admin account to change these settings.").isVisible());
  assert.ok(await page.getByLabel("24/7 phone number", { exact: true }).isDisabled());
  assert.equal(await page.getByRole("button", { name: "Save Settings" }).count(), 0, "no Save button for the PIN");
  assert.ok(await page.getByRole("button", { name: "Sign in with your account" }).isVisible(), "the way to an account is offered");
  // Where the number appears is there to read.
  await page.getByText(`Where ${saved.phone} appears now`).waitFor({ timeout: COUNTED });
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/settings-pin-390.png` });
  assert.deepEqual(problems, []);
  await context.close();
});

test("an admin sees where the 24/7 number appears, saves a new one, and every call button dials it", async () => {
  const { context, page, problems } = await open(browser, "/admin/settings", PHONE);
  await hydrated(page);
  await signIn(page, settingsAdmin());
  await page.getByRole("heading", { name: "System Settings" }).waitFor();
  const where = page.locator("#set-phone-where");
  await where.getByText(`Where ${saved.phone} appears now`).waitFor({ timeout: COUNTED });
  await where.getByText("Show every kind of page").click();
  assert.match(await where.innerText(), /Home page: \d+ call links/);
  assert.match(await where.innerText(), /City pages \(\d+ pages\)/);
  assert.match(await where.innerText(), /acknowledgement email/);
  const field = page.getByLabel("24/7 phone number", { exact: true });
  await field.fill(NEW);
  await where.getByText(`When you save, ${NEW} replaces ${saved.phone} in every place above`).waitFor();
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/settings-390-change.png` });
  const put = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/settings" && r.request().method() === "PUT");
  await page.getByRole("button", { name: "Save Settings" }).click();
  assert.equal((await put).status(), 200);
  await page.getByText("The website now shows the new details.").waitFor();
  // The counts are read again: the new number, in as many places.
  // Every page is drawn again after the save before it is counted.
  await where.getByText(`Where ${NEW} appears now`).waitFor({ timeout: COUNTED });

  // The public home page on a phone: every call link dials the new number
  // and the old one is nowhere on the page.
  const pub = await open(browser, "/", PHONE);
  await hydrated(pub.page);
  const hrefs = await pub.page.locator('a[href^="tel:"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(hrefs.length >= 4, "the home page has its call buttons: " + hrefs.length);
  for (const h of hrefs) assert.equal(digits(h), digits(NEW), "a call link dials " + h);
  const html = await pub.page.content();
  assert.ok(!html.includes(saved.phone) && !html.includes(digits(saved.phone)), "the old number is nowhere on the home page");
  assert.ok((await pub.page.locator("body").innerText()).includes(NEW));
  assert.deepEqual(pub.problems, []);
  await pub.context.close();

  // The audit log on the phone: cards of sentences, newest first.
  await gotoSettled(page, BASE + "/admin/audit");
  await page.getByRole("heading", { name: "Audit Log" }).waitFor();
  const cards = page.getByRole("list", { name: "Audit log, newest first" }).getByRole("listitem");
  await cards.first().waitFor();
  assert.ok(await cards.first().isVisible());
  assert.ok(!(await page.locator(".st-audit-table").isVisible()), "no table on a phone");
  const first = await cards.first().innerText();
  assert.match(first, new RegExp(`${settingsAdmin().name} \\(${settingsAdmin().email.replace(".", "\\.")}\\) changed the settings: 24/7 phone number`));
  assert.match(first, /127\.0\.0\.1/);
  const texts = await cards.allInnerTexts();
  assert.ok(texts.some((t) => /signed in from 127\.0\.0\.1/.test(t)), "a sign-in reads as a sentence");
  assert.ok(!texts.some((t) => /\b[a-z0-9]+_[a-z_]+\b/.test(t)), "no action code shows");
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/audit-390.png` });
  assert.deepEqual(problems, []);
  await context.close();
});

test("the audit log on a laptop is a table with no scroll region a keyboard cannot reach", async () => {
  // axe is injected as a script, which the admin's CSP rightly refuses:
  // this context bypasses it.
  const context = await browser.newContext({ viewport: LAPTOP, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await gotoSettled(page, BASE + "/admin/audit");
  await hydrated(page);
  await signIn(page, settingsAdmin());
  await page.getByRole("heading", { name: "Audit Log" }).waitFor();
  await page.locator(".st-audit-table tbody tr").first().waitFor();
  assert.ok(!(await page.getByRole("list", { name: "Audit log, newest first" }).isVisible()), "no cards on a laptop");
  await page.addScriptTag({ path: fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url)) });
  const res = await page.evaluate(async () => (await window.axe.run(document, { runOnly: { type: "rule", values: ["scrollable-region-focusable"] } })).violations);
  assert.deepEqual(res.map((v) => v.id), []);
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/audit-1280.png` });
  assert.deepEqual(problems, []);
  await context.close();
});

// Inspection booking at 390 px (ADR 066): a homeowner whose damage can
// wait sends the estimate form, follows the thank-you screen's link to
// their booking, picks a time with the plain form, and downloads the
// visit as an .ics file; a homeowner who says it is an emergency is
// offered no time (the phone and the promise of a call). Screenshots go
// to SHOT_DIR when it is set (390 and 1280 px).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, open, hydrated, BASE, gotoSettled, scrollSettled, unlockAdmin } from "./lib.mjs";
import { addUser, password, signIn, tag } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOT_DIR;

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function shot(page, name) {
  if (!SHOTS) return;
  await scrollSettled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** request sends the estimate form as a person does and returns the
 * page on its thank-you screen, with the server's answer. */
async function request(name, emergency) {
  const o = await open(browser, "/estimate", PHONE);
  await hydrated(o.page);
  const form = o.page.getByRole("form", { name: "Free estimate request" });
  await form.getByLabel("Full name *").fill(name);
  await form.getByLabel("Phone *").fill("678-555-0142");
  await form.getByLabel("City *").fill("Smyrna");
  await form.getByLabel("Type of damage *").selectOption(emergency ? "Water Damage" : "Remodeling / Construction");
  await form.getByLabel(emergency ? "Yes" : "No", { exact: true }).check();
  const answer = o.page.waitForResponse((r) => r.url().endsWith("/api/estimate") && r.request().method() === "POST");
  await form.getByRole("button", { name: "Request My Free Estimate" }).click();
  const res = await answer;
  assert.equal(res.status(), 201, "the request is saved");
  await o.page.getByText("Thank you! Your estimate request was received.").waitFor();
  return { ...o, answer: await res.json() };
}

test("a request that can wait books a time from the thank-you screen and gets the .ics", async () => {
  const { context, page, problems, answer } = await request("Dana Whitfield", false);
  assert.match(answer.booking, /^\/my\/[A-Za-z0-9_-]{22}\/booking$/);
  const link = page.getByRole("link", { name: "If your damage can wait, pick a time for your free inspection" });
  await shot(page, "b-thanks-390");
  await Promise.all([page.waitForURL((u) => u.pathname === answer.booking), link.click()]);
  await page.getByRole("heading", { level: 1, name: "Book your free inspection" }).waitFor();
  await shot(page, "b-booking-pick-390");
  const first = page.getByRole("radio").first();
  const label = await first.locator("xpath=..").innerText();
  await first.check();
  await Promise.all([page.waitForURL((u) => u.searchParams.get("done") === "booked"), page.getByRole("button", { name: "Book this time" }).click()]);
  const booked = page.getByRole("status");
  await booked.getByText("Your inspection visit is booked:").waitFor();
  assert.ok((await booked.innerText()).includes(label.trim()), `the booked time is the one picked (${label})`);
  await shot(page, "b-booking-booked-390");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Add it to your calendar" }).click()]);
  assert.equal(download.suggestedFilename(), "inspection.ics");
  const ics = readFileSync(await download.path(), "utf8");
  assert.match(ics, /^BEGIN:VCALENDAR\r\n/);
  assert.match(ics, /\r\nBEGIN:VEVENT\r\n[\s\S]*\r\nDTSTART:\d{8}T\d{6}Z\r\n[\s\S]*\r\nSTATUS:CONFIRMED\r\n[\s\S]*END:VCALENDAR\r\n$/);
  assert.deepEqual(problems, []);

  // The same pages at 1280 px, for a person to look at.
  if (SHOTS) {
    const wide = await browser.newContext({ viewport: WIDE });
    const p = await wide.newPage();
    await gotoSettled(p, BASE + answer.booking + "?move=1");
    await shot(p, "b-booking-move-1280");
    await gotoSettled(p, BASE + answer.booking);
    await shot(p, "b-booking-booked-1280");
    await wide.close();
  }
  await context.close();
});

test("without JavaScript the booking is a plain form: pick, post, redirect", async () => {
  const { context, page, answer } = await request("Lee Moreno", false);
  await context.close();
  const plain = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
  const p = await plain.newPage();
  await gotoSettled(p, BASE + answer.booking);
  await p.getByRole("radio").nth(1).check();
  await Promise.all([p.waitForURL((u) => u.searchParams.get("done") === "booked"), p.getByRole("button", { name: "Book this time" }).click()]);
  await p.getByText("Your inspection visit is booked:").waitFor();
  await Promise.all([p.waitForURL((u) => u.searchParams.get("done") === "cancelled"), p.getByRole("button", { name: "Cancel my visit" }).click()]);
  await p.getByText("Your visit is cancelled.").waitFor();
  await p.getByRole("button", { name: "Book this time" }).waitFor();
  await plain.close();
});

test("an emergency is offered no time: the phone and the promise of a call", async () => {
  const { context, page, problems, answer } = await request("Sam Okafor", true);
  assert.equal(answer.booking, undefined, "the answer carries no booking page");
  assert.equal(await page.getByRole("link", { name: /pick a time/ }).count(), 0);
  assert.equal(await page.getByRole("radio").count(), 0);
  const status = page.locator("#estimate-result");
  assert.match(await status.innerText(), /within .* for emergencies/);
  assert.ok(await status.getByRole("link", { name: /\d{3}.*\d{4}/ }).count() >= 1, "the phone is a link");
  await shot(page, "b-emergency-390");
  assert.deepEqual(problems, []);
  await context.close();
});

test("the owner's side: the availability in System Settings, today's and tomorrow's visits on the dashboard", async () => {
  // The PIN reads the availability (an admin account saves it).
  const pin = await unlockAdmin(browser, "/admin/settings", WIDE);
  const card = pin.page.getByRole("region", { name: "Inspection Booking" }).or(pin.page.locator("section.a-card", { hasText: "Inspection Booking" })).first();
  await card.getByLabel("Length of a visit, in minutes").waitFor();
  assert.equal(await card.getByLabel("Length of a visit, in minutes").inputValue(), "120");
  await card.getByText("Only an admin account can change these.").waitFor();
  await card.scrollIntoViewIfNeeded();
  if (SHOTS) await card.screenshot({ path: `${SHOTS}/b-admin-settings-1280.png` });
  assert.deepEqual(pin.problems, []);
  await pin.context.close();

  // Staff see the visits (lead data) and may move them.
  const [t] = tag();
  const u = { email: `visits-${t}@example.com`, name: `Visits ${t}`, password: password() };
  addUser(u, "staff");
  for (const viewport of [WIDE, PHONE]) {
    const o = await open(browser, "/admin", viewport);
    await hydrated(o.page);
    await signIn(o.page, u);
    const visits = o.page.locator("section.a-card", { hasText: "Inspection Visits" });
    await visits.getByRole("heading", { name: /^Today/ }).waitFor();
    await visits.getByRole("heading", { name: /^Tomorrow/ }).waitFor();
    await visits.scrollIntoViewIfNeeded();
    if (SHOTS) await visits.screenshot({ path: `${SHOTS}/b-admin-visits-${viewport.width}.png` });
    assert.deepEqual(o.problems, []);
    await o.context.close();
  }
});

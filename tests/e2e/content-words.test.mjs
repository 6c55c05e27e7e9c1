// Every word a visitor reads is content (ADR 045): on a phone, an editor
// opens "Words across the site", changes the home headline (with the
// office city as a named insert, never a {placeholder}) and the emergency
// response time, saves and publishes; the home page shows both at once,
// and the response time follows everywhere it appears: the hero, the trust
// badge, the thank-you message after an estimate request, the contact
// page. The wording is put back to its defaults afterwards, through the
// same API, so other tests on the same site read the spec's texts.
//
// Run against a site: BASE_URL and DATA_DIR (scripts/serve-test.sh).
// SHOTS_DIR=/some/dir saves the editor screen at 390 and 1280 px and the
// home page at 390 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, BASE } from "./lib.mjs";
import { apiSession, newEditor, openAs } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;

let browser, editor, api;

before(async () => {
  editor = newEditor();
  api = await apiSession(editor);
  browser = await launch();
});

after(async () => {
  // Back to the defaults, so the site reads the spec's texts again.
  const list = await (await api("/api/admin/content?perPage=200&kind=words")).json();
  const item = await (await api(`/api/admin/content/${list.items[0].id}`)).json();
  const defaults = JSON.parse(JSON.stringify(item.draft));
  defaults.home.headline = "Water, Fire & Storm Restoration in {city}, {county} County";
  defaults.times.emergency = "60 minutes";
  const saved = await api(`/api/admin/content/${item.id}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: item.version, data: defaults }) });
  const back = await saved.json();
  await api(`/api/admin/content/${item.id}/publish`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: back.version }) });
  await browser?.close();
});

async function shot(page, name, at) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  await page.screenshot({ path: `${SHOTS}/words-${name}-${page.viewportSize().width}.png`, fullPage: true });
  if (at) {
    // One screen's worth around a field, as a person sees it.
    await at.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -120));
    await page.screenshot({ path: `${SHOTS}/words-${name}-${page.viewportSize().width}-screen.png` });
  }
}

const noOverflow = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

test("an editor changes the home headline and the emergency response time on a phone, publishes, and sees both live", async () => {
  const { context, page, problems } = await openAs(browser, editor, "/admin/content?kind=words", PHONE);
  await page.getByRole("list", { name: "Words across the site" }).getByRole("link", { name: "Edit Words across the site" }).click();
  const form = page.getByRole("form", { name: "Edit site wording" });
  await form.waitFor();

  // The owner reads inserts by name, never as code.
  const headline = form.locator("#f-home-headline");
  assert.equal(await headline.inputValue(), "Water, Fire & Storm Restoration in [Office city], [Office county] County");
  const formText = await form.innerText();
  assert.doesNotMatch(formText, /\{[A-Za-z]+\}/, "no {placeholder} on the owner's screen");
  assert.ok(await form.getByRole("list", { name: "Filled in for headline" }).getByText("Office city").isVisible());

  // Where the emergency time appears is listed under it.
  const emergency = form.locator("#f-times-emergency");
  assert.equal(await emergency.inputValue(), "60 minutes");
  assert.match(await form.locator("#f-times-emergency-hint").innerText(), /Thank-you message after an estimate request/);
  assert.ok(await noOverflow(page), "the editor fits a 390 px screen");
  await shot(page, "editor", emergency);
  await shot(page, "editor-hero", headline);

  // A new headline with the office city added from the list, and a new time.
  await headline.fill("Storm Help Fast in ");
  await headline.press("End");
  await form.locator("#f-home-headline-insert").selectOption("city");
  await page.waitForFunction(() => document.querySelector("#f-home-headline")?.value === "Storm Help Fast in [Office city]");
  await emergency.fill("45 minutes");

  const saved = page.waitForResponse((r) => r.request().method() === "PUT" && /\/api\/admin\/content\//.test(r.url()));
  await page.getByRole("button", { name: "Save draft" }).click();
  const savedRes = await saved;
  assert.equal(savedRes.status(), 200, await savedRes.text());
  const stored = (await savedRes.json()).draft;
  assert.equal(stored.home.headline, "Storm Help Fast in {city}", "the record keeps the insert");
  const published = page.waitForResponse((r) => r.request().method() === "POST" && /\/publish$/.test(r.url()));
  await page.getByRole("button", { name: "Publish" }).click();
  const pubRes = await published;
  assert.equal(pubRes.status(), 200, await pubRes.text());
  // The home FAQ's answer is the owner's own text and still says 60
  // minutes: the editor says where, so the pages can be made to agree.
  await page.getByText(/None of the response times is "60 minutes", but these texts still say it: FAQs “Home page FAQ”/).first().waitFor();
  assert.deepEqual(problems, []);

  // The wide editor, for the screenshots.
  if (SHOTS) {
    await page.setViewportSize(WIDE);
    await shot(page, "editor", headline);
  }
  await context.close();

  // Live on the home page, at once.
  const home = await open(browser, "/", PHONE);
  await hydrated(home.page);
  const badge = await home.page.locator("#hero .hero__badge").innerText();
  const city = badge.match(/Serving (.+), .+ County/)?.[1];
  assert.ok(city, `the badge names the office city: ${badge}`);
  assert.equal(await home.page.getByRole("heading", { level: 1 }).innerText(), `Storm Help Fast in ${city}`);
  assert.match(await home.page.locator("#hero .hero__lead").innerText(), /^24\/7 emergency response within 45 minutes\./);
  assert.match(await home.page.locator(".trust-badges").innerText(), /Response within 45 minutes/);
  assert.doesNotMatch(await home.page.locator("#hero").innerText(), /60 minutes/);
  await shot(home.page, "home");

  // The thank-you message after an estimate request says the same time.
  const quote = home.page.getByRole("form", { name: "Free estimate request" });
  await quote.getByLabel("Full name *").fill("Words Tester");
  await quote.getByLabel("Phone *").fill("(678) 555-0142");
  await quote.getByLabel("City *").fill("Smyrna");
  await quote.getByLabel("Type of damage *").selectOption("Water Damage");
  await quote.getByLabel("Yes").check();
  await quote.getByRole("button", { name: "Request My Free Estimate" }).click();
  const thanks = home.page.locator(".form-success");
  await thanks.getByText("Thank you! Your estimate request was received.").waitFor();
  assert.match(await thanks.innerText(), /contact you within 45 minutes for emergencies and within 2 hours/);
  assert.deepEqual(home.problems, []);
  await home.context.close();

  // And wherever else it appears.
  const contact = await open(browser, "/contact", PHONE);
  const times = await contact.page.locator(".contact-card .times").innerText();
  assert.match(times, /Within 45 minutes/);
  assert.match(await contact.page.locator(".promise").innerText(), /within 45 minutes for emergencies/);
  await contact.context.close();
  const r = await fetch(BASE + "/emergency");
  assert.match(await r.text(), /arrives within 45 minutes/);
});

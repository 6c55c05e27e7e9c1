// First-party analytics in a real browser: a visitor whose
// browser is not headless-labelled views three public pages and taps a
// phone number; the beacons reach the server, the Analytics screen counts
// them and the Performance Monitor shows the visits' Core Web Vitals. A
// browser that sends Global Privacy Control is not counted at all.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, BASE, DESKTOP, unlockAdmin, CEILING } from "./lib.mjs";
import { apiToken } from "./api.mjs";

// Chromium's own user agent says HeadlessChrome, which the collector drops
// as a bot; a person's browser does not.
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

let browser, token;
before(async () => { browser = await launch(); token = await apiToken(); });
after(async () => { await browser?.close(); });

const get = async (path) => (await fetch(BASE + path, { headers: { Authorization: "Bearer " + token } })).json();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** visit views three pages and taps a phone number, as a person would,
 * waiting for each beacon the page sends (no fixed wait: a loaded
 * machine sends them late). */
async function visit(extraHeaders = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, userAgent: UA, extraHTTPHeaders: extraHeaders });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  const beacons = [];
  const kind = (r) => new URL(r.url()).pathname === "/api/collect" ? JSON.parse(r.postData() || "{}").t : undefined;
  page.on("request", (r) => { if (kind(r)) beacons.push(JSON.parse(r.postData() || "{}")); });
  const sent = (t) => page.waitForRequest((r) => kind(r) === t);
  for (const path of ["/", "/services", "/contact"]) {
    const view = sent("pageview"); // the page view is sent just after load
    await page.goto(BASE + path, { waitUntil: "load" });
    await view;
  }
  // Tapping a tel: link: the beacon goes out before the dialer would open.
  // The dialer is kept from opening (the default action is cancelled
  // after the site's own listeners), so no tel: navigation races the next
  // page.
  await page.evaluate(() => window.addEventListener("click", (e) => { if (e.target.closest?.('a[href^="tel:"]')) e.preventDefault(); }));
  const tap = sent("tel_click");
  await page.locator('a[href^="tel:"]').first().dispatchEvent("click");
  await tap;
  // Leaving the page reports LCP, CLS and INP (web-vitals on hidden).
  const view = sent("pageview");
  await page.goto(BASE + "/about", { waitUntil: "load" });
  await view;
  await context.close();
  return { beacons, problems };
}

/** counted polls the analytics figures until check passes (the collector
 * writes every 250 ms), with one generous ceiling. */
async function counted(check, what) {
  const end = Date.now() + CEILING;
  let now;
  while (Date.now() < end) {
    now = await get("/api/admin/analytics");
    if (check(now)) return now;
    await sleep(100);
  }
  return now;
}

test("three pages, a call tap and their vitals reach the Analytics and Performance screens", async () => {
  const before = await get("/api/admin/analytics");
  const vitalsBefore = (await get("/api/admin/vitals")).samples;
  const { beacons, problems } = await visit();
  assert.deepEqual(problems, []);
  const kinds = beacons.map((b) => b.t);
  assert.equal(kinds.filter((k) => k === "pageview").length, 4, `page views sent: ${JSON.stringify(kinds)}`);
  assert.ok(kinds.includes("tel_click"), "the call tap was sent");
  assert.ok(kinds.includes("vital"), "vitals were sent");
  assert.ok(beacons.every((b) => !("cookie" in b)));
  const now = await counted((n) => n.pageviews - before.pageviews >= 4 && n.calls - before.calls >= 1);
  assert.equal(now.pageviews - before.pageviews, 4, "4 page views counted");
  assert.equal(now.visitors - before.visitors, 1, "one visitor, however many pages");
  assert.equal(now.calls - before.calls, 1, "the call tap counted");
  assert.ok((await get("/api/admin/vitals")).samples > vitalsBefore, "vitals counted");

  const { context, page, problems: adminProblems } = await unlockAdmin(browser, "/admin/analytics", DESKTOP);
  await page.getByRole("heading", { name: "Analytics" }).waitFor();
  await page.getByRole("tab", { name: "Conversions" }).click();
  await page.getByText("Phone Calls").waitFor();
  assert.equal(await page.getByText("No visits recorded yet").count(), 0);
  await page.getByRole("link", { name: "Performance" }).first().click();
  await page.getByRole("heading", { name: "Performance Monitor" }).waitFor();
  await page.getByText(/Measured on: Real visitors, 75th percentile/).waitFor();
  assert.deepEqual(adminProblems, []);
  await context.close();
});

test("a browser that sends Global Privacy Control is not counted", async () => {
  const before = await get("/api/admin/analytics");
  // The header reaches the server with every request, beacons included;
  // navigator.globalPrivacyControl is not set in Chromium, so the beacon
  // is sent and the server must drop it.
  const { beacons } = await visit({ "Sec-GPC": "1" });
  assert.ok(beacons.length > 0);
  // Nothing is counted: the same request's figures, after a beacon that
  // is counted (a visit without the header) has been written.
  const marker = await visit();
  assert.ok(marker.beacons.length > 0);
  const now = await counted((n) => n.pageviews - before.pageviews >= 4);
  assert.equal(now.pageviews - before.pageviews, 4, "only the visit without Global Privacy Control was counted");
  assert.equal(now.calls - before.calls, 1);
});

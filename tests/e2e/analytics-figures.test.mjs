// The Analytics screen's figures agree (ADR 023). A person
// arrives from Google, comes back from Facebook and taps the phone number:
// one visit, from Organic Search, converted. A browser with JavaScript off
// sends the estimate form, and a request that asks not to be tracked
// sends one too: both are leads from uncounted visits, counted in Leads
// and in Geography, not in the conversion rate. Then the screen shows the
// server's figures with every table adding up to its headline.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomInt } from "node:crypto";
import { launch, BASE, DESKTOP, MOBILE, unlockAdmin, waitFor } from "./lib.mjs";
import { apiToken } from "./api.mjs";

// Chromium's own user agent says HeadlessChrome, which is dropped as a
// bot. Each person here has a user agent of their own (the visitor id is
// the IP, the user agent and the day), different from analytics.test.mjs'.
const PERSON = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36";
const NO_JS = "Mozilla/5.0 (X11; Linux x86_64; rv:122.0) Gecko/20100101 Firefox/122.0";

let browser, token;
before(async () => { browser = await launch(); token = await apiToken(); });
after(async () => { await browser?.close(); });

const report = async () => (await fetch(BASE + "/api/admin/analytics", { headers: { Authorization: "Bearer " + token } })).json();
const tenths = (p) => Math.round(p * 10);
const sum = (rows, f) => rows.reduce((s, r) => s + f(r), 0);

/** invariants asserts that the answer's tables add up to its headlines. */
function invariants(a) {
  assert.equal(sum(a.sources, (s) => s.visitors), a.visitors, "sources add up to the visitors");
  assert.equal(sum(a.sources, (s) => tenths(s.percentage)), a.visitors > 0 ? 1000 : 0, "source shares add up to 100.0%");
  assert.equal(sum(a.sources, (s) => s.conversions), a.conversions, "sources add up to the conversions");
  assert.ok(a.conversions <= a.visitors && a.conversionRate <= 100, `${a.conversions} conversions of ${a.visitors} visitors: ${a.conversionRate}%`);
  assert.equal(sum(a.sources, (s) => s.leads) + a.uncounted.leads, a.leads, "leads of counted visits and of uncounted ones add up to the leads");
  assert.equal(a.leads, a.estimates + a.calls);
  assert.equal(sum(a.geography, (g) => g.leads), a.estimates, "geography adds up to the estimate requests");
  assert.equal(sum(a.geography, (g) => tenths(g.percentage)), a.estimates > 0 ? 1000 : 0, "geography shares add up to 100.0%");
  assert.equal(sum(a.geography, (g) => g.visitors), a.areaVisitors);
}

/** postOptedOut sends the estimate form as a browser that asks not to be
 * tracked, from its own loopback address (the per-IP limit of 5 per 10
 * minutes stays for the other tests' 127.0.0.1). */
function postOptedOut() {
  const u = new URL(BASE + "/api/estimate");
  const body = new URLSearchParams({ name: "Opted Out", phone: "(404) 555-0107", email: "", city: "Smyrna", street: "1 Main St", zip: "30080",
    damageType: "Water Damage", emergency: "no", insuranceCarrier: "", notes: "", website: "" }).toString();
  const loopback = /^(127\.|localhost$)/.test(u.hostname);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: "POST",
      localAddress: loopback ? `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}` : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Accept: "application/json",
        "User-Agent": PERSON, "Sec-GPC": "1" },
    }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 201 ? resolve() : reject(new Error(`estimate ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("leads from uncounted visits count apart, and every table adds up to its headline", async () => {
  const before = await report();
  invariants(before);

  // A person: Google, a click within the site, back from Facebook, a call tap.
  const ctx = await browser.newContext({ viewport: DESKTOP, userAgent: PERSON });
  const page = await ctx.newPage();
  // Each beacon the server has answered (the page view is sent just after
  // load, the call tap as it happens): wait for it, not for a guess.
  const sent = [];
  page.on("requestfinished", (r) => { if (new URL(r.url()).pathname === "/api/collect") sent.push(JSON.parse(r.postData() || "{}")); });
  const beacon = (t, p) => waitFor(`the ${t} beacon of ${p}`, () => sent.some((b) => b.t === t && b.p === p));
  await page.goto(BASE + "/", { waitUntil: "load", referer: "https://www.google.com/" });
  await beacon("pageview", "/");
  await page.goto(BASE + "/services", { waitUntil: "load", referer: BASE + "/" });
  await beacon("pageview", "/services");
  await page.goto(BASE + "/contact", { waitUntil: "load", referer: "https://www.facebook.com/" });
  await beacon("pageview", "/contact");
  await page.route(/^tel:/, (r) => r.abort()).catch(() => {});
  await page.locator('a[href^="tel:"]').first().dispatchEvent("click");
  await beacon("tel_click", "/contact");
  await ctx.close();

  // JavaScript off: the form posts natively, no page view is ever sent.
  // (One submission from 127.0.0.1, within the per-IP limit.)
  const nojs = await browser.newContext({ viewport: DESKTOP, userAgent: NO_JS, javaScriptEnabled: false });
  const form = await nojs.newPage();
  await form.goto(BASE + "/estimate", { waitUntil: "load" });
  await form.locator("#estimate-name").fill("Jo Nojs");
  await form.locator("#estimate-phone").fill("770-555-0161");
  await form.locator("#estimate-city").fill("Marietta");
  await form.locator("#estimate-damageType").selectOption("Water Damage");
  await form.getByLabel("No", { exact: true }).check(); // the emergency question has no preset answer
  await Promise.all([form.waitForURL(/\/estimate\/thanks(#.*)?$/), form.locator("#estimate-city").press("Enter")]);
  await nojs.close();

  // Do Not Track / Global Privacy Control: no visitor id at all.
  await postOptedOut();

  // The collector writes its batch every 250 ms: wait until the report
  // holds the visit, the call and both requests, then check it exactly.
  let now;
  await waitFor("the report to count the visit, the call tap and both requests", async () => {
    now = await report();
    return now.visitors > before.visitors && now.calls > before.calls && now.conversions > before.conversions && now.estimates - before.estimates >= 2;
  });
  invariants(now);
  const d = (f) => f(now) - f(before);
  assert.equal(d((a) => a.visitors), 1, "one visit, however many arrivals");
  assert.equal(d((a) => a.conversions), 1, "the call tap converted the visit");
  assert.equal(d((a) => a.calls), 1);
  assert.equal(d((a) => a.estimates), 2, "both estimate requests are leads");
  assert.equal(d((a) => a.uncounted.estimates), 2, "both are from uncounted visits");
  const src = (a, name) => a.sources.find((s) => s.source === name) || { visitors: 0, conversions: 0 };
  assert.equal(d((a) => src(a, "Organic Search").visitors), 1, "the visit counts under its first source");
  assert.equal(d((a) => src(a, "Organic Search").conversions), 1);
  assert.equal(d((a) => src(a, "Social").visitors), 0, "coming back from Facebook does not count the visitor again");
  const area = (a, name) => (a.geography.find((g) => g.area.startsWith(name)) || { leads: 0 }).leads;
  assert.equal(d((a) => area(a, "Marietta")), 1);
  assert.equal(d((a) => area(a, "Smyrna")), 1);

  // The screen shows these figures, and its totals are the headlines.
  const n = (v) => v.toLocaleString("en-US");
  const pct = (v) => `${v.toFixed(1)}%`;
  for (const viewport of [DESKTOP, MOBILE]) {
    const { context, page: admin, problems } = await unlockAdmin(browser, "/admin/analytics", viewport);
    await admin.getByRole("heading", { name: "Analytics" }).waitFor();
    const note = admin.locator(".ai-uncounted");
    await note.waitFor();
    assert.match(await note.innerText(), new RegExp(`Leads from uncounted visits: ${n(now.uncounted.leads)}`));
    assert.match(await note.innerText(), /JavaScript off, Do Not Track or Global Privacy Control/);
    const tabs = await admin.getByRole("tab").allInnerTexts();
    assert.deepEqual(tabs.map((t) => t.trim()), ["Traffic Sources", "Conversions", "Geography", "Goals & KPIs"]);

    // Nothing wider than the screen (a table scrolls inside its own box).
    const fits = async (tab) => assert.ok(await admin.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${tab}: no page-wide scroll at ${viewport.width}px`);
    await fits("Traffic Sources");
    const foot = async (name) => (await admin.locator("tfoot tr").filter({ has: admin.getByRole("rowheader", { name, exact: true }) }).locator("td").allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(await foot("Total"), [n(now.visitors), pct(now.visitors > 0 ? 100 : 0), n(now.conversions)]);

    await admin.getByRole("tab", { name: "Conversions" }).click();
    await admin.getByText("Leads from Uncounted Visits", { exact: true }).waitFor();
    await fits("Conversions");
    const apart = (await admin.getByRole("row", { name: /Uncounted visits/ }).locator("td").allInnerTexts()).map((t) => t.trim());
    assert.equal(apart[2], n(now.uncounted.leads), `uncounted row ${apart}`);
    assert.deepEqual(await foot("All"), [n(now.visitors), n(now.conversions), n(now.leads), pct(now.conversionRate)]);

    await admin.getByRole("tab", { name: "Geography" }).click();
    await admin.getByRole("region", { name: "Geography table" }).waitFor();
    await fits("Geography");
    assert.deepEqual(await foot("All areas"), [n(now.areaVisitors), n(now.estimates), pct(now.estimates > 0 ? 100 : 0)]);

    await admin.getByRole("tab", { name: "Goals & KPIs" }).click();
    await admin.getByRole("heading", { name: "Monthly Leads" }).waitFor();
    await fits("Goals & KPIs");
    assert.deepEqual(problems, []);
    await context.close();
  }
});

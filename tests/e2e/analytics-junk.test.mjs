// Analytics that junk cannot fill (ADR 029), on a site of its
// own (the flood uses up per-address limits the shared server's other
// tests need). A person views a page and then a missing one: the missing
// page's view counts apart, never as a page. Then 17 addresses send
// 3,400 beacons with random paths, referrers, UTM tags and user agents,
// and two clients flood the Core Web Vitals with LCPs of minutes and of
// 59 s: the visitors, the not-found views and the vitals grow by at most
// the clients' daily limits, no attacker path becomes a page, and the
// screens show the server's figures at 390 and 1280 px (screenshots in
// SHOTS_DIR when set).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { mkdirSync } from "node:fs";
import { launch, PIN, hydrated, until, gotoSettled } from "./lib.mjs";

const PERSON = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15";
const SPAM = "/call-404-555-0199-for-cheaper-repairs";
const SHOTS = process.env.SHOTS_DIR || "";
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

let browser, site, token;
before(async () => {
  const { startSite } = await import("./lib.mjs");
  browser = await launch();
  site = await startSite();
  const r = await fetch(site.base + "/api/admin/unlock", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin: PIN }) });
  token = (await r.json()).token;
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => { await browser?.close(); site?.stop(); });

const get = async (path) => (await fetch(site.base + path, { headers: { Authorization: "Bearer " + token } })).json();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** beacon posts one beacon from a loopback address of its own. */
function beacon(from, ua, body) {
  const u = new URL(site.base + "/api/collect");
  const data = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", localAddress: from,
      headers: { "Content-Type": "text/plain;charset=UTF-8", "Content-Length": Buffer.byteLength(data), "User-Agent": ua } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(0));
    req.end(data);
  });
}

const ascii = (n) => Array.from({ length: 1 + Math.floor(Math.random() * n) }, () => "abcdefghijklmnopqrstuvwxyz0123456789;. "[Math.floor(Math.random() * 39)]).join("");
const junk = (n) => Array.from({ length: 1 + Math.floor(Math.random() * n) }, () => "abcdefghijklmnopqrstuvwxyz0123456789-é☔\u202e"[Math.floor(Math.random() * 41)]).join("");

test("a missing page's view counts apart, never as a page or a visit", async () => {
  const before = await get("/api/admin/analytics?days=1");
  const ctx = await browser.newContext({ viewport: WIDE, userAgent: PERSON });
  const page = await ctx.newPage();
  const sent = [];
  // Delivered beacons: the answer has come back.
  page.on("requestfinished", (r) => { if (new URL(r.url()).pathname === "/api/collect") sent.push(JSON.parse(r.postData() || "{}")); });
  const sentView = (p) => until(async () => sent.some((b) => b.t === "pageview" && b.p === p));
  await page.goto(site.base + "/services", { waitUntil: "load", referer: "https://www.google.com/" });
  assert.ok(await sentView("/services"), "the page sends its beacon"); // after load, once the islands script has run
  const res = await page.goto(site.base + SPAM, { waitUntil: "load" });
  assert.equal(res.status(), 404);
  assert.ok(await sentView(SPAM), "the not-found page sends its beacon");
  await ctx.close();
  // The collector writes every 250 ms; a busy machine may take longer.
  let now;
  await until(async () => {
    now = await get("/api/admin/analytics?days=1");
    return now.pageviews > before.pageviews && now.notFound > before.notFound;
  });
  assert.equal(now.pageviews - before.pageviews, 1, "one page view: /services");
  assert.equal(now.notFound - before.notFound, 1, "the missing page counts apart");
  assert.equal(now.visitors - before.visitors, 1);
  assert.ok(!now.pages.some((p) => p.path === SPAM), "the missing page is not a page");
});

test("3,400 junk beacons from 17 addresses and a vitals flood add at most the clients' daily limits", async () => {
  // 100 people, each from an address of their own, with a good LCP.
  await Promise.all(Array.from({ length: 100 }, async (_, i) => {
    const from = `127.40.${i}.1`;
    await beacon(from, PERSON, { t: "pageview", p: "/", w: 390 });
    await beacon(from, PERSON, { t: "vital", p: "/", m: "LCP", v: 1200 + 10 * i });
  }));
  const lcpOf = async () => ((await get("/api/admin/vitals")).overall ?? []).find((m) => m.metric === "LCP");
  let lcpBefore;
  await until(async () => (lcpBefore = await lcpOf())?.samples >= 100);
  const before = await get("/api/admin/analytics?days=1");
  assert.equal(lcpBefore?.status, "good");
  const routes = (await get("/api/admin/routes")).routes ?? [];
  const served = routes.map((r) => r.path).filter((p) => p && !p.startsWith("/admin"));
  assert.ok(served.length > 50, `served pages: ${served.length}`);
  const jobs = [];
  for (let i = 0; i < 3400; i++) {
    const from = `127.20.${i % 17}.${1 + (i % 17)}`;
    const r = Math.random();
    const p = r < 0.3 ? SPAM : r < 0.7 ? "/" + junk(30) : served[Math.floor(Math.random() * served.length)];
    jobs.push(() => beacon(from, `Mozilla/5.0 (${ascii(20)}) Chrome/${i}`, { t: "pageview", p, r: `https://${junk(12)}.example/${junk(8)}`, us: junk(120), um: junk(6), uc: junk(120), w: 390 }));
  }
  // Two clients: 200 LCPs of two minutes, then 200 of 59 s, each after a page view.
  for (const [i, v] of Array.from({ length: 400 }, (_, i) => [i, i < 200 ? 119000 : 59000])) {
    const from = `127.30.0.${1 + (i % 2)}`;
    const ua = `Mozilla/5.0 (flood ${i}) Chrome/1`;
    jobs.push(async () => { await beacon(from, ua, { t: "pageview", p: "/" }); await beacon(from, ua, { t: "vital", p: "/", m: "LCP", v }); });
  }
  const workers = Array.from({ length: 16 }, async () => { while (jobs.length) await jobs.shift()(); });
  await Promise.all(workers);
  let now;
  // Every beacon has its answer; the collector writes what it holds every
  // 250 ms. The figures are final once two reads a batch apart agree.
  await until(async () => {
    const a = JSON.stringify(await get("/api/admin/analytics?days=1"));
    await sleep(300);
    now = await get("/api/admin/analytics?days=1");
    return now.notFound > before.notFound && JSON.stringify(now) === a;
  });
  const d = (f) => f(now) - f(before);
  assert.ok(d((a) => a.visitors) <= 17 * 10 + 2 * 10, `visitors +${d((a) => a.visitors)}`);
  assert.ok(d((a) => a.notFound) > 0 && d((a) => a.notFound) <= 17 * 20, `not-found +${d((a) => a.notFound)}`);
  assert.ok(now.capped > 0, "what is over the limits is counted");
  for (const p of now.pages) assert.ok(served.includes(p.path), `${p.path} is listed but not a page`);
  assert.equal(now.sources.reduce((s, x) => s + x.visitors, 0), now.visitors, "sources add up to the visitors");
  const lcp = await lcpOf();
  assert.ok(lcp.samples - lcpBefore.samples <= 2 * 10, `LCP samples: ${JSON.stringify(lcpBefore)} -> ${JSON.stringify(lcp)}`);
  assert.equal(lcp.status, "good", `LCP after the flood: ${JSON.stringify(lcp)}`);
});

/** unlock opens path on the test's own site with the PIN. */
async function unlock(path, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(e.message));
  await gotoSettled(page, site.base + path);
  await hydrated(page);
  await page.getByLabel("PIN").fill(PIN);
  await page.keyboard.press("Enter");
  await page.getByText("Access granted").waitFor();
  await page.locator("#admin-main").waitFor();
  return { context, page, problems };
}

for (const [name, viewport] of [["phone", PHONE], ["desktop", WIDE]]) {
  test(`the screens show the server's figures (${viewport.width} px)`, async () => {
    const a = await get("/api/admin/analytics?days=30");
    const { context, page, problems } = await unlock("/admin/analytics", viewport);
    await page.getByRole("heading", { name: "Analytics" }).waitFor();
    // The notifications shown so far (none need be): closed so they cover
    // nothing. Not a wait for one.
    for (const close of await page.getByRole("button", { name: "Close notification" }).all()) await close.click({ timeout: 5000 }).catch(() => {});
    const top = page.getByRole("region", { name: "Top pages table" });
    await top.waitFor();
    assert.equal(await top.locator("tbody tr").count(), Math.min(10, a.pages.length), "the first 10 pages");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/analytics-pages-${viewport.width}.png`, fullPage: true });
    const more = page.getByRole("button", { name: /^Show all \d+ pages?$/ });
    if (a.pages.length > 10) await more.click();
    const rows = (await top.locator("tbody th").allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(rows, a.pages.map((p) => p.path), "the server's pages, in its order");
    assert.ok(!rows.includes(SPAM));
    const nf = page.locator(".ai-notfound");
    assert.match(await nf.innerText(), new RegExp(`Not-found page views: ${a.notFound.toLocaleString("en-US")}`));
    assert.match(await page.locator(".ai-notstored").innerText(), /over one client's daily limits/);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `no page-wide scroll at ${viewport.width}px`);
    // Scrolled to, the not-found line is in view, not under the sticky header.
    await nf.scrollIntoViewIfNeeded();
    const box = await nf.boundingBox();
    const header = await page.evaluate(() => document.querySelector(".a-topbar, header")?.getBoundingClientRect().bottom ?? 0);
    assert.ok(box && box.y >= header, `not-found line at ${box?.y}, header ends at ${header}`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/analytics-pages-all-${viewport.width}.png` });

    // On a phone the sidebar is folded away: open it first.
    const perf = page.getByRole("link", { name: "Performance" }).first();
    if (await perf.isVisible()) await perf.click();
    else {
      await page.getByRole("button", { name: "Toggle sidebar" }).click();
      await page.locator("#admin-sidebar").getByRole("link", { name: "Performance" }).first().click();
    }
    await page.getByRole("heading", { name: "Performance Monitor" }).waitFor();
    await page.getByText(/Plausible values only/).first().waitFor();
    const lcpCard = page.locator(".ai-metric").filter({ hasText: "Largest Contentful Paint" });
    await lcpCard.waitFor();
    assert.match(await lcpCard.innerText(), /good/i, "the LCP flood did not make the p75 poor");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `Performance: no page-wide scroll at ${viewport.width}px`);
    if (SHOTS) {
      await page.evaluate(() => scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/performance-${viewport.width}.png`, fullPage: true });
    }
    await page.getByRole("tab", { name: "Monitoring" }).click();
    await page.getByText("What counts:").waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `Monitoring: no page-wide scroll at ${viewport.width}px`);
    if (SHOTS) {
      await page.evaluate(() => scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/performance-monitoring-${viewport.width}.png`, fullPage: true });
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// Admin insight screens (spec 2.4): SEO Audit, Performance Monitor and
// Analytics. Each is opened through the sidebar after unlocking; the tests
// check the spec's texts, one simulated action (busy label, delay, then the
// last-updated stamp) and the tabs by keyboard.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { launch, open, hydrated, BASE, DESKTOP, MOBILE, unlockAdmin, waitFor, CEILING } from "./lib.mjs";
import { apiToken } from "./api.mjs";

/** CITY_PAGES: what each city page publishes, by URL: the city records
 * (content/cities) and, for the four fixed city pages, their own texts. */
const CITY_PAGES = new Map();
for (const f of readdirSync(new URL("../../content/cities/", import.meta.url))) {
  for (const c of JSON.parse(readFileSync(new URL(`../../content/cities/${f}`, import.meta.url), "utf8"))) {
    CITY_PAGES.set(`/areas/${c.county}/${c.slug}`, c);
  }
}
for (const [key, p] of Object.entries(JSON.parse(readFileSync(new URL("../../content/city-profiles.json", import.meta.url), "utf8")))) {
  CITY_PAGES.set(`/areas/${key}`, p);
}

/** server reads an admin endpoint with a token of its own. */
let token;
async function server(path) {
  token ??= await apiToken();
  const r = await fetch(BASE + path, { headers: { Authorization: "Bearer " + token } });
  assert.equal(r.status, 200, path);
  return r.json();
}

/** auditSettled waits for an SEO audit that the server has finished and
 * that no content change is about to replace (uploads by other tests
 * re-run it): the same run twice, 6 s apart (the audit's debounce is 5 s). */
async function auditSettled() {
  for (;;) {
    const a = await server("/api/admin/seo-audit");
    if (a.run) {
      await new Promise((r) => setTimeout(r, 6000));
      const b = await server("/api/admin/seo-audit");
      if (b.run?.id === a.run.id) return b;
    } else await new Promise((r) => setTimeout(r, 500));
  }
}

/** seedVisits sends, once, what two real visitors' beacons would: one
 * from Facebook who views two pages and taps the phone number, one from
 * Google whose visit reports its Core Web Vitals. */
let seeded = null;
function seedVisits() {
  const send = (ua, body) => fetch(BASE + "/api/collect", { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": ua } });
  const a = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 E2E-A";
  const b = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 E2E-B";
  seeded ??= (async () => {
    const before = await server("/api/admin/analytics");
    await send(a, { t: "pageview", p: "/", r: "https://www.facebook.com/", w: 1280 });
    await send(a, { t: "pageview", p: "/services", r: BASE + "/", w: 1280 });
    await send(b, { t: "pageview", p: "/", r: "https://www.google.com/", w: 390 });
    // The collector writes its batch every 250 ms: the call tap goes after
    // the visits it converts are stored.
    await waitFor("the two visits in the analytics", async () => (await server("/api/admin/analytics")).visitors >= before.visitors + 2);
    await send(a, { t: "tel_click", p: "/services" });
    // Core Web Vitals of the home page: four good, TTFB needing improvement.
    for (const [m, v] of [["LCP", 1200], ["INP", 150], ["CLS", 0.02], ["FCP", 900], ["TTFB", 1000]]) await send(b, { t: "vital", p: "/", m, v });
    await waitFor("the call tap and the five vitals stored", async () =>
      (await server("/api/admin/analytics")).calls > before.calls && ((await server("/api/admin/vitals")).overall ?? []).length >= 5);
  })();
  return seeded;
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** unlock opens /admin unlocked (the shared helper in lib.mjs). */
const unlock = (viewport = DESKTOP) => unlockAdmin(browser, "/admin", viewport);

/** go opens a screen through the sidebar (the drawer on phones). */
async function go(page, label, heading) {
  const trigger = page.getByRole("button", { name: "Toggle sidebar" });
  const nav = page.locator("#admin-sidebar"); // labelled "Admin navigation"; a dialog on phones
  if (!(await nav.isVisible())) await trigger.click();
  await nav.getByRole("link", { name: label, exact: true }).click();
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  assert.equal(await page.locator("h1").count(), 1, "exactly one h1");
}

const tabNames = async (page) => (await page.getByRole("tab").allInnerTexts()).map((t) => t.trim());
const selectedTab = async (page) => (await page.getByRole("tab", { selected: true }).innerText()).trim();

/** walkTabs moves through every tab with ArrowRight, then Home and End. */
async function walkTabs(page, names, onTab = async () => {}) {
  assert.deepEqual(await tabNames(page), names);
  await page.getByRole("tab", { name: names[0] }).focus();
  assert.equal(await selectedTab(page), names[0]);
  await onTab(names[0]);
  for (const name of names.slice(1)) {
    await page.keyboard.press("ArrowRight");
    assert.equal(await selectedTab(page), name);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), name, "focus follows the tab");
    await onTab(name);
  }
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), names[0], "ArrowRight wraps");
  await page.keyboard.press("End");
  assert.equal(await selectedTab(page), names[names.length - 1]);
  await page.keyboard.press("Home");
  assert.equal(await selectedTab(page), names[0]);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await selectedTab(page), names[names.length - 1], "ArrowLeft wraps");
}

/** simulate presses the action, checks the busy label for about delayMs,
 * then the last-updated stamp. */
async function simulate(page, idle, busyLabel, delayMs) {
  assert.equal(await page.getByText(/^Last updated:/).count(), 0, "no stamp before the first run");
  const start = Date.now();
  await page.getByRole("button", { name: idle }).click();
  const busy = page.getByRole("button", { name: busyLabel });
  await busy.waitFor();
  assert.ok(await busy.isDisabled(), "disabled while busy");
  await page.getByRole("button", { name: idle }).waitFor({ timeout: delayMs + CEILING });
  const took = Date.now() - start;
  assert.ok(took >= delayMs - 100, `busy for ${took} ms, want about ${delayMs}`);
  const stamp = page.getByText(/^Last updated: \d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2}\s?[AP]M$/);
  await stamp.waitFor();
}

// visible waits for the text (a screen fills after its data arrives; a
// loaded machine makes that slower) and checks it is shown.
const visible = async (page, text) => {
  const el = page.getByText(text, { exact: true }).first();
  await el.waitFor().catch(() => {});
  assert.ok(await el.isVisible(), text);
};

for (const [name, viewport] of [["desktop", DESKTOP], ["mobile", MOBILE]]) {
  test(`SEO Audit: the server's audit of every page, briefs from the content, guide, Run Audit (${name})`, async () => {
    const audit = await auditSettled();
    const { routes } = await server("/api/admin/routes");
    const { context, page, problems } = await unlock(viewport);
    await go(page, "SEO Audit", "SEO Audit");
    const run = audit.run;
    // Every indexable page of the route table was audited, each with the 13 checks.
    const indexable = routes.filter((r) => r.indexable).map((r) => r.path);
    assert.equal(run.pages, indexable.length);
    assert.deepEqual(audit.pages.map((p) => p.path), indexable);
    // The site-wide score is passing checks over all checks of all pages.
    const all = audit.pages.flatMap((p) => p.checks);
    assert.equal(all.length, 13 * indexable.length);
    const passed = all.filter((c) => c.status === "pass").length;
    assert.equal(run.score, Math.round((passed / all.length) * 100));
    const stat = (l) => page.locator(".a-stat").filter({ has: page.getByText(l, { exact: true }) }).locator(".a-stat__value");
    await page.getByRole("progressbar", { name: "SEO audit score" }).waitFor();
    assert.equal(await stat("Audit Score").innerText(), `${run.score}%`);
    assert.equal(await stat("Passed").innerText(), String(passed));
    assert.equal(await stat("Failed").innerText(), String(all.filter((c) => c.status === "fail").length));
    assert.equal(await page.getByRole("progressbar", { name: "SEO audit score" }).getAttribute("aria-valuenow"), String(run.score));
    // This test server's BASE_URL is http://127.0.0.1: HTTPS fails on every page, and the screen says why.
    const results = page.getByRole("tabpanel");
    await results.getByText(/^This copy of the site runs at http:\/\/127\.0\.0\.1:\d+, a local or test address/).waitFor();
    const https = results.locator(".ai-rule", { has: page.getByRole("heading", { name: "HTTPS", exact: true }) });
    assert.equal(await https.locator(".a-badge").first().textContent(), "fail");
    await https.getByText(`Passes on 0 of ${indexable.length} pages, fails on ${indexable.length}.`).waitFor();
    assert.equal(await results.locator(".ai-rule").count(), 13);
    // One page's checks, picked from every audited page.
    const pick = page.getByLabel("Page", { exact: true });
    assert.equal(await pick.locator("option").count(), indexable.length);
    await pick.selectOption("/contact");
    const contact = audit.pages.find((p) => p.path === "/contact");
    await results.getByText(`Page audited: ${contact.url}`, { exact: false }).waitFor();
    assert.equal(await page.getByRole("progressbar", { name: "Score of /contact" }).getAttribute("aria-valuenow"), String(contact.score));
    assert.equal(await results.locator(".ai-item:not(.ai-rule)").count(), 13);
    assert.ok(await results.getByText(/^Fix:/).count() >= 1, "failing checks carry a fix");

    await walkTabs(page, ["Audit Results", "Thin Pages", "Location Briefs", "Implementation Guide"], async (tab) => {
      if (tab === "Location Briefs") {
        const panel = page.getByRole("tabpanel");
        const cityPages = routes.filter((r) => r.component === "city" || r.component === "city-profile").map((r) => r.path);
        assert.equal(await panel.locator(".ai-brief").count(), cityPages.length, "one brief per city page of the route table");
        assert.equal(await panel.getByRole("link", { name: /^\/areas\/douglas\/douglasville/ }).getAttribute("href"), "/areas/douglas/douglasville");
        // Each brief matches the title, description and keywords its city page publishes.
        const shown = await panel.locator(".ai-brief").evaluateAll((cards) => cards.map((c) => ({
          url: c.querySelector("a").getAttribute("href"),
          dd: Array.from(c.querySelectorAll("dd"), (d) => d.textContent.trim()),
          keywords: Array.from(c.querySelectorAll(".ai-tag"), (t) => t.textContent),
        })));
        assert.deepEqual(shown.map((b) => b.url).sort(), [...cityPages].sort());
        for (const b of shown) {
          const published = CITY_PAGES.get(b.url);
          assert.ok(published, `${b.url} is a city page`);
          assert.equal(b.dd[1], published.seoTitle, b.url);
          assert.equal(b.dd[2], published.metaDescription, b.url);
          assert.deepEqual(b.keywords, published.keywords, b.url);
        }
        const henry = cityPages.filter((p) => p.startsWith("/areas/henry/")).length;
        await page.getByLabel("County").selectOption("Henry");
        assert.equal(await panel.locator(".ai-brief").count(), henry);
        await visible(page, `${henry} location briefs`);
        await page.getByLabel("County").selectOption("");
        await page.getByRole("tab", { name: "Location Briefs" }).focus();
      }
      if (tab === "Implementation Guide") {
        assert.equal(await page.getByRole("tabpanel").locator("ol > li").count(), 8);
      }
    });

    // Run Audit: the server audits again; the button is busy 2 s at least.
    await simulate(page, "Run Audit", "Running Audit...", 2000);
    const again = await server("/api/admin/seo-audit");
    assert.notEqual(again.run.id, run.id, "a new run");
    assert.equal(again.run.trigger, "manual");
    assert.equal(await stat("Audit Score").innerText(), `${again.run.score}%`);
    await page.getByRole("tab", { name: "Audit Results" }).click();
    await page.getByRole("tabpanel").getByText(/pages audited on request on /).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`Performance Monitor: vitals, score, Run Scan (${name})`, async () => {
    await seedVisits();
    const { context, page, problems } = await unlock(viewport);
    await go(page, "Performance", "Performance Monitor");
    // 4 good + 1 needs-improvement: (4 x 100 + 60) / 5 = 92.
    await visible(page, "Performance Score");
    await visible(page, "92");
    await visible(page, "Measured on: Real visitors, 75th percentile, last 28 days (5 measurements)");
    const panel = page.getByRole("tabpanel");
    assert.equal(await panel.locator(".ai-metric").count(), 5);
    assert.equal(await panel.locator(".a-badge", { hasText: /^good$/ }).count(), 4);
    assert.equal(await panel.locator(".a-badge", { hasText: /^needs-improvement$/ }).count(), 1);
    const bars = panel.getByRole("progressbar");
    assert.equal(await bars.count(), 5);
    for (const v of await bars.evaluateAll((els) => els.map((e) => Number(e.getAttribute("aria-valuenow"))))) assert.ok(v >= 0 && v <= 100);

    await walkTabs(page, ["Core Web Vitals", "Recommendations", "Monitoring"], async (tab) => {
      if (tab === "Recommendations") {
        await visible(page, "General Optimizations");
        await visible(page, "TTFB on home pages: 1.0 s");
      }
      if (tab === "Monitoring") {
        await visible(page, "Not run yet");
        await visible(page, "LCP is over 2,500 ms");
      }
    });

    await page.getByRole("tab", { name: "Monitoring" }).click();
    await simulate(page, "Run Scan", "Scanning...", 2000);
    assert.equal(await page.getByText("Not run yet").count(), 0, "the Monitoring tab shows the manual scan time");
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`Analytics: sources, conversions, geography, goals, Refresh (${name})`, async () => {
    await seedVisits();
    const { context, page, problems } = await unlock(viewport);
    await go(page, "Analytics", "Analytics");
    const panel = page.getByRole("tabpanel");
    const rows = panel.getByRole("region", { name: "Traffic sources table" }).locator("tbody tr");
    await rows.first().waitFor();
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent.trim())));
    const num = (s) => Number(s.replace(/[,%]/g, ""));
    const row = (src) => cells.find((r) => r[0] === src);
    // What seedVisits sent (browser tests' own visits are HeadlessChrome:
    // bots, not counted): Social 1 visitor with a call, Organic Search 1.
    assert.deepEqual([num(row("Social")[1]), num(row("Social")[3])], [1, 1], "Social: 1 visitor, 1 conversion");
    assert.equal(num(row("Organic Search")[1]), 1);
    for (const s of ["Direct", "Referral", "Email"]) assert.ok(row(s), `${s} is listed`);
    assert.equal(cells.reduce((s, r) => s + num(r[1]), 0), 2, "visitors add up");

    await walkTabs(page, ["Traffic Sources", "Conversions", "Geography", "Goals & KPIs"], async (tab) => {
      if (tab === "Conversions") {
        for (const m of ["Total Visitors", "Leads", "Conversion Rate", "Phone Calls", "Estimate Requests", "Page Views"]) await visible(page, m);
        assert.equal(await panel.getByText("50.0%").count() > 0, true, "1 call / 2 visitors");
      }
      if (tab === "Geography") await visible(page, "Share of requests");
      if (tab === "Goals & KPIs") {
        for (const t of ["Goal: 3,000", "Goal: 200", "Goal: 8.0%", "50.0%"]) await visible(page, t);
        const now = async (label) => page.getByRole("progressbar", { name: label }).getAttribute("aria-valuenow");
        assert.equal(await now("Conversion Rate progress to goal"), "100", "50% against 8% clamps to 100%");
        await visible(page, "Goal met");
      }
    });

    await page.getByRole("tab", { name: "Goals & KPIs" }).click();
    const now = async (label) => page.getByRole("progressbar", { name: label }).getAttribute("aria-valuenow");
    // The owner edits a goal; a bad one gets the server's message.
    const conv = page.getByLabel("Conversion rate goal (%)");
    await conv.fill("0");
    await page.getByRole("button", { name: "Save Goals" }).click();
    await page.getByRole("alert").filter({ hasText: "Goals must be positive" }).waitFor();
    await conv.fill("60");
    await page.getByRole("button", { name: "Save Goals" }).click();
    await page.getByText("Goal: 60.0%", { exact: true }).waitFor();
    assert.equal(await now("Conversion Rate progress to goal"), "83", "50% against 60%");
    await conv.fill("8");
    await page.getByRole("button", { name: "Save Goals" }).click();
    await page.getByText("Goal: 8.0%", { exact: true }).waitFor();
    await simulate(page, "Refresh Data", "Refreshing...", 1500);
    // The refused goal's 400 is the one expected console line.
    assert.deepEqual(problems.filter((p) => !p.includes("status of 400 (Bad Request)")), []);
    await context.close();
  });
}

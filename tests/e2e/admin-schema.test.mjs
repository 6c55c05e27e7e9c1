// Schema Management (spec 2.4): the server's check of the
// structured data every page serves. Unlocks with the PIN, opens the
// screen through the sidebar, compares the cards and tabs with the
// server's report and with the pages themselves, works the tabs by
// keyboard, Copy and Download, and Validate All (busy label, then the new
// run's time). Screenshots at 390 and 1280 px go to SHOTS_DIR when set.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, mkdir } from "node:fs/promises";
import { launch, BASE, unlockAdmin } from "./lib.mjs";
import { apiToken } from "./api.mjs";

let browser, token;
before(async () => { browser = await launch(); token = await apiToken(); });
after(async () => { await browser?.close(); });

/** report reads GET /api/admin/schema, waiting for the first check (it
 * runs a few seconds after the pages are rendered at boot). */
async function report({ wait = true } = {}) {
  const end = Date.now() + 60000;
  for (;;) {
    const r = await fetch(BASE + "/api/admin/schema", { headers: { Authorization: "Bearer " + token } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("cache-control"), "no-store");
    const body = await r.json();
    if (body.run || !wait) return body;
    if (Date.now() > end) throw new Error("no schema check ran within a minute of boot");
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** sitemapPaths are the indexable pages, read from /sitemap.xml. */
async function sitemapPaths() {
  const xml = await (await fetch(BASE + "/sitemap.xml")).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

/** ldTypes are the top-level @types a page serves. */
async function ldTypes(path) {
  const html = await (await fetch(BASE + path)).text();
  const out = [];
  for (const m of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    const d = JSON.parse(m[1]);
    for (const n of d["@graph"] || [d]) out.push([].concat(n["@type"]));
  }
  return out;
}

/** WIDE is the desktop width the screenshots are taken at. */
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const unlock = (viewport) => unlockAdmin(browser, "/admin", viewport);

async function open(viewport = WIDE) {
  const o = await unlock(viewport);
  const { page } = o;
  const nav = page.locator("#admin-sidebar");
  if (await page.locator('.a-shell[data-mobile="true"]').count()) {
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
    await nav.getByRole("link", { name: "Schema Management", exact: true }).waitFor();
  }
  await nav.getByRole("link", { name: "Schema Management", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Schema Management" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/admin/schema");
  await page.getByText(/^Last checked: /).waitFor();
  return o;
}

const selectedTab = async (page) => (await page.getByRole("tab", { selected: true }).innerText()).trim();
const card = (page, label) => page.locator(".a-stat", { has: page.locator(".a-stat__label", { hasText: new RegExp(`^${label}$`) }) });
const cardValue = (page, label) => card(page, label).locator(".a-stat__value").innerText();

/** shoot saves a screenshot of the viewport with target at its top (the
 * page's top by default), toasts closed, when SHOTS_DIR is set. */
async function shoot(page, name, target) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  for (const close of await page.locator(".toast button").all()) await close.click().catch(() => {});
  await page.locator(".toast").first().waitFor({ state: "detached", timeout: 3000 }).catch(() => {});
  await page.evaluate(() => window.scrollTo(0, 0));
  if (target) await target.evaluate((el) => { el.scrollIntoView({ block: "start" }); window.scrollBy(0, -80); });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

test("the cards and the Overview are the server's check of the pages the site serves", async () => {
  const rep = await report();
  const paths = await sitemapPaths();
  // Every indexable page is checked and carries structured data.
  assert.equal(rep.run.pages, paths.length);
  assert.deepEqual(rep.pages.map((p) => p.path).sort(), [...paths].sort());
  assert.equal(rep.cards.covered, paths.length);
  assert.equal(rep.run.errors, 0, JSON.stringify(rep.types.flatMap((t) => t.errors)));
  // The Overview's page counts are what the pages serve.
  const home = await ldTypes("/");
  assert.ok(home.some((t) => t.includes("LocalBusiness")) && home.some((t) => t.includes("WebSite")));
  const lb = rep.types.find((t) => t.type === "LocalBusiness");
  assert.equal(lb.pages, paths.length);
  const posts = paths.filter((p) => p.startsWith("/blog/") && !p.startsWith("/blog/category/")); // topic pages are collections
  assert.equal(rep.types.find((t) => t.type === "Article").pages, posts.length);
  assert.ok((await ldTypes(posts[0])).some((t) => t.includes("Article")));

  const { context, page, problems } = await open();
  assert.equal(await page.getByText(/^Sample data/).count(), 0, "no sample notice");
  assert.equal(await cardValue(page, "Pages Covered"), String(paths.length));
  assert.ok(await card(page, "Pages Covered").getByText(`of ${paths.length} indexable pages carry structured data`).isVisible());
  assert.equal(await cardValue(page, "Validation Score"), `${rep.cards.score}%`);
  assert.equal(await cardValue(page, "Active Schemas"), String(rep.cards.active));
  assert.equal(await cardValue(page, "Missing Schemas"), String(rep.cards.missing));
  assert.ok(await card(page, "Missing Schemas").getByText("Every page has its expected types").isVisible());
  assert.equal(await page.getByText(/\b138\b/).count(), 0, "the sample's 138 pages are gone");

  assert.equal(await selectedTab(page), "Overview");
  for (const t of rep.types.filter((x) => x.type !== "JSON-LD")) {
    const row = page.locator(".am-list > li", { has: page.locator(".am-list__title", { hasText: new RegExp(`^${t.type}\\b`) }) });
    assert.equal(await row.count(), 1, t.type);
    assert.ok(await row.getByText(new RegExp(`^${t.pages} pages?$`)).isVisible(), `${t.type} page count`);
    assert.ok(await row.locator(".a-badge", { hasText: new RegExp(`^${t.status}$`) }).isVisible(), `${t.type} status`);
    assert.ok(await row.getByText(`${t.priority} priority`).isVisible(), `${t.type} priority`);
  }
  // How each figure is computed is one click away.
  await page.getByText("How these figures are computed").click();
  assert.ok(await page.getByText(rep.how.score).isVisible());
  await shoot(page, "overview-1280");
  await shoot(page, "overview-types-1280", page.getByRole("tablist"));
  assert.deepEqual(problems, []);
  await context.close();
});

test("tabs by keyboard; templates are the blocks the pages serve, with Copy and Download; Validation lists each type", async () => {
  const rep = await report();
  const { context, page, problems } = await open();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE });
  await page.getByRole("tab", { name: "Overview" }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Schema Templates");
  assert.ok(await page.getByRole("tab", { name: "Schema Templates" }).evaluate((el) => el === document.activeElement), "focus follows");
  const codes = page.locator("pre.a-code");
  assert.equal(await codes.count(), 2);
  const lb = JSON.parse(await codes.nth(0).innerText());
  const sv = JSON.parse(await codes.nth(1).innerText());
  assert.deepEqual(lb["@type"], ["LocalBusiness", "GeneralContractor"]);
  assert.equal(sv["@type"], "Service");
  assert.ok((await codes.first().innerText()).includes('\n  "@context"'), "pretty-printed");
  // The LocalBusiness template is the block / serves, byte for byte in meaning.
  const served = (await (await fetch(BASE + "/")).text()).match(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/)[1];
  const live = JSON.parse(served)["@graph"].find((n) => [].concat(n["@type"]).includes("LocalBusiness"));
  assert.deepEqual({ ...lb, "@context": undefined }, { ...live, "@context": undefined });
  assert.equal(lb.name, live.name);

  await page.getByRole("button", { name: "Copy LocalBusiness template" }).click();
  await page.getByText("Copied!", { exact: true }).waitFor();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  assert.equal(copied["@context"], "https://schema.org");
  assert.equal(copied.name, live.name);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download Service template" }).click(),
  ]);
  assert.equal(download.suggestedFilename(), "service-schema.json");
  assert.deepEqual(JSON.parse(await readFile(await download.path(), "utf8")), sv);
  await shoot(page, "templates-1280", page.getByRole("tablist"));

  await page.getByRole("tab", { name: "Schema Templates" }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Validation");
  for (const t of rep.types.filter((x) => x.validated && x.pages > 0)) {
    const row = page.locator(".am-list > li", { has: page.locator(".am-list__title", { hasText: new RegExp(`^${t.type}\\b`) }) });
    assert.ok(await row.locator(".a-badge", { hasText: t.valid ? /^valid$/ : /^invalid$/ }).isVisible(), t.type);
    assert.equal(await row.getByText(/^Error: /).count(), t.errors.length, `${t.type} errors`);
    assert.equal(await row.getByText(/^Warning: /).count(), t.warnings.length, `${t.type} warnings`);
  }
  assert.equal(await page.getByText("publisher.logo").count(), 0, "the sample's Article error is gone");
  await shoot(page, "validation-1280", page.getByRole("tablist"));
  await page.keyboard.press("End");
  assert.equal(await selectedTab(page), "Schema Generator");
  const select = page.getByLabel("Schema type");
  assert.deepEqual(await select.locator("option").allInnerTexts(), ["LocalBusiness", "Service", "Article", "FAQ", "Review"]);
  // The generator: a real page of the type, and the JSON-LD it serves.
  await select.selectOption("Article");
  const target = page.getByLabel("Target page");
  await target.locator("option", { hasText: "/blog/preventing-water-damage-atlanta-homes" }).waitFor({ state: "attached" });
  assert.ok((await target.locator("option").count()) > 1, "every blog post is offered");
  await target.selectOption("/blog/preventing-water-damage-atlanta-homes");
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const code = page.getByLabel("Article JSON-LD of /blog/preventing-water-damage-atlanta-homes");
  await code.waitFor();
  const article = JSON.parse(await code.innerText());
  assert.equal(article["@type"] === "BlogPosting" || article["@type"] === "Article" || (Array.isArray(article["@type"]) && article["@type"].includes("Article")), true, "an Article item");
  assert.ok(article.headline, "the post's headline");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download Article of /blog/preventing-water-damage-atlanta-homes" }).click()]);
  assert.equal(dl.suggestedFilename(), "article-blog-preventing-water-damage-atlanta-homes.json");
  assert.deepEqual(JSON.parse(await readFile(await dl.path(), "utf8")), article);
  await page.getByRole("tab", { name: "Schema Generator" }).focus();
  await page.keyboard.press("Home");
  assert.equal(await selectedTab(page), "Overview");
  assert.deepEqual(problems, []);
  await context.close();
});

test("Validate All runs the check: busy label for 2 s at least, then the new run and its time", async () => {
  const first = await report();
  const { context, page, problems } = await open();
  const stamp = await page.getByText(/^Last checked: /).innerText();
  // The run's time (to the second) moves on; wait a second so it can.
  await new Promise((r) => setTimeout(r, 1100));
  const t0 = Date.now();
  await page.getByRole("button", { name: "Validate All" }).click();
  const busy = page.getByRole("button", { name: "Validating..." });
  await busy.waitFor();
  assert.ok(await busy.isDisabled());
  await page.getByText(/^Last updated: /).waitFor();
  assert.ok(Date.now() - t0 >= 1900, "busy for the spec's 2 s at least");
  assert.ok(await page.getByRole("button", { name: "Validate All" }).isEnabled());
  const now = await report();
  assert.notEqual(now.run.id, first.run.id, "a new check was stored");
  assert.equal(now.run.trigger, "manual");
  const checked = await page.getByText(/^Last checked: /).innerText();
  assert.notEqual(checked, stamp);
  assert.ok(checked.includes(new Date(now.run.finishedAt).toLocaleString("en-US")), checked);
  assert.ok(checked.endsWith("on request (Validate All)."), checked);
  assert.equal(await cardValue(page, "Validation Score"), `${now.cards.score}%`);

  // Publish Index goes to /admin/indexnow inside the unlocked app.
  const publish = page.getByRole("link", { name: "Publish Index" });
  assert.equal(await publish.getAttribute("href"), "/admin/indexnow");
  await publish.click();
  await page.waitForURL(/\/admin\/indexnow$/);
  assert.equal(await page.getByRole("heading", { name: "Admin Access Required" }).count(), 0, "the session survives");
  assert.deepEqual(problems, []);
  await context.close();
});

test("phone width: no sideways scroll, cards and tabs usable", async () => {
  await report();
  const { context, page, problems } = await open(PHONE);
  const noScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  assert.ok(await noScroll(), "no horizontal scroll");
  await shoot(page, "overview-390");
  await shoot(page, "overview-types-390", page.getByRole("tablist"));
  await page.getByRole("tab", { name: "Validation" }).click();
  assert.ok(await noScroll(), "no horizontal scroll on Validation");
  await shoot(page, "validation-390", page.getByRole("tablist"));
  await page.getByRole("tab", { name: "Schema Templates" }).click();
  assert.ok(await noScroll(), "no horizontal scroll on Schema Templates");
  await shoot(page, "templates-390", page.getByRole("tablist"));
  // The busy label fits too.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("button", { name: "Validate All" }).click();
  await page.getByRole("button", { name: "Validating..." }).waitFor();
  await shoot(page, "validating-390");
  await page.getByText(/^Last updated: /).waitFor();
  await shoot(page, "validated-390");
  assert.deepEqual(problems, []);
  await context.close();
});

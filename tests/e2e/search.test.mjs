// Site search from the page (ADR 028): results pages are the
// React-rendered shell with the query and results written in by the
// server. A visitor searching with the form at phone and desktop widths
// gets the results, the empty state, their own text shown back as text,
// and a page whose navigation island hydrates without a warning.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, BASE } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const WIDTHS = [{ width: 390, height: 844 }, { width: 1280, height: 900 }];

/** search types q into the page's search box and submits it with Enter,
 * as a person would, and waits for the results page. */
async function search(page, q) {
  const box = page.getByRole("searchbox", { name: "Search the site" });
  await box.fill(q);
  await Promise.all([page.waitForURL(/\/search\?q=/), box.press("Enter")]);
  await page.waitForLoadState("networkidle");
}

for (const vp of WIDTHS) {
  test(`searching from the page at ${vp.width} px: results, no results, hostile text`, async () => {
    const { context, page, problems } = await open(browser, "/search", vp);
    assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Search");

    await search(page, "mold remediation");
    assert.equal(new URL(page.url()).searchParams.get("q"), "mold remediation");
    assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Search results for “mold remediation”");
    const count = await page.getByRole("status").innerText();
    const cards = page.locator("ul.search-results > li.card");
    const n = await cards.count();
    assert.ok(n > 1, `${n} result cards`);
    assert.equal(count, `${n} results`);
    assert.equal(await page.getByRole("searchbox", { name: "Search the site" }).inputValue(), "mold remediation");
    assert.ok(await page.locator('ul.search-results a[href="/services/mold-remediation"]').isVisible(), "the service is among the results");
    const robots = await page.locator('meta[name="robots"]').getAttribute("content");
    assert.equal(robots, "noindex, nofollow");
    // The first result is on screen, not under the sticky header.
    const box = await cards.first().boundingBox();
    const header = await page.locator("header.nav").boundingBox();
    assert.ok(box.y >= header.y + header.height, `first card at ${box.y} px, under the header that ends at ${header.y + header.height} px`);
    // The navigation island hydrates over the spliced page without a
    // mismatch.
    await hydrated(page);

    // No results, with markup, quotes and ampersands typed in: shown back
    // as text, no element made of them.
    const hostile = `<b>zzzqqq</b> "quoted" & 'single' ☂`;
    await search(page, hostile);
    assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), `Search results for “${hostile}”`);
    assert.equal(await page.getByRole("status").innerText(), "No results found.");
    assert.equal(await page.locator("ul.search-results > li").count(), 0);
    assert.equal(await page.locator("main b").count(), 0, "the query became markup");
    assert.equal(await page.getByRole("searchbox", { name: "Search the site" }).inputValue(), hostile);
    await hydrated(page);

    // The empty state's suggestion is a working search, and a result
    // opens its page.
    await Promise.all([page.waitForURL(/\/search\?q=water\+damage$/), page.locator("main").getByRole("link", { name: "water damage", exact: true }).click()]);
    assert.match(await page.getByRole("status").innerText(), /^\d+ results$/);
    const first = page.locator("ul.search-results > li.card h2 a").first();
    const href = await first.getAttribute("href");
    await Promise.all([page.waitForURL(BASE + href), first.click()]);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("a search without JavaScript answers the same page", async () => {
  const { context, page, problems } = await open(browser, "/search?q=Marietta", WIDTHS[0], { js: false });
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Search results for “Marietta”");
  assert.equal(await page.locator("ul.search-results > li.card h2 a").first().getAttribute("href"), "/areas/cobb/marietta");
  assert.deepEqual(problems, []);
  await context.close();
});

// The thin-pages audit (ADR 064): SEO Audit → Thin Pages on a phone (with
// the PIN, the tools' role) lists every city page with its figures, thin
// ones first; a thin page's "Hide it in the editor" link opens the city
// at the switch for an editor, and one Publish takes the page out of
// sitemap.xml and the HTML sitemap, while the page itself still answers
// for visitors, with a robots noindex tag. The city is shown to search
// engines again at the end, so the shared test server keeps its sitemap.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { BASE, launch, unlockAdmin, until } from "./lib.mjs";
import { apiSession, newEditor, openAs } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const CITY = { name: "Waleska", path: "/areas/cherokee/waleska" };
let browser, api, editor;
before(async () => {
  editor = newEditor();
  api = await apiSession(editor);
  browser = await launch();
});

/** setHidden publishes the city with its noindex switch as given. */
async function setHidden(hidden) {
  const list = await (await api("/api/admin/content?perPage=200&kind=city")).json();
  const item = list.items.find((i) => i.path === CITY.path);
  const it = await (await api(`/api/admin/content/${item.id}`)).json();
  const data = { ...it.draft, noindex: hidden };
  const saved = await api(`/api/admin/content/${item.id}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: it.version, data }) });
  assert.equal(saved.status, 200, await saved.clone().text());
  const pub = await api(`/api/admin/content/${item.id}/publish`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: (await saved.json()).version }) });
  assert.equal(pub.status, 200, await pub.clone().text());
}

after(async () => {
  try {
    if ((await fetch(BASE + CITY.path)).ok && !(await (await fetch(BASE + "/sitemap.xml")).text()).includes(CITY.path)) await setHidden(false);
  } finally {
    await browser?.close();
  }
});

const sitemapHas = async (path) => (await (await fetch(BASE + "/sitemap.xml")).text()).includes(BASE + path + "<");

async function openThinPages() {
  const o = await unlockAdmin(browser, "/admin/seo-audit", PHONE);
  await o.page.getByRole("heading", { level: 1, name: "SEO Audit" }).waitFor();
  await o.page.getByRole("tab", { name: "Thin Pages" }).click();
  const list = o.page.getByRole("list", { name: "City pages, thin ones first" });
  await list.waitFor();
  return { ...o, list };
}

test("the owner sees every city page scored, thin ones first, and hides a thin one from search engines in one publish", async () => {
  const sitemap = await (await fetch(BASE + "/sitemap.xml")).text();
  const cityPages = sitemap.match(/<loc>[^<]*\/areas\/[^<]+<\/loc>/g) || [];
  assert.ok(cityPages.length > 70, "the sitemap lists the city pages");
  assert.ok(await sitemapHas(CITY.path), "the city is in the sitemap to begin with");

  const { context, page, list } = await openThinPages();
  const rows = list.locator(":scope > li");
  assert.equal(await rows.count(), cityPages.length, "every city page is listed");
  assert.match(await rows.first().innerText(), /^thin\b/i, "thin pages come first");
  const fixed = list.locator(`li[data-path="/areas/cobb/marietta"]`);
  assert.match(await fixed.innerText(), /Has its own/i);
  assert.match(await fixed.innerText(), /City page with its own layout\s*Yes/i);
  const row = list.locator(`li[data-path="${CITY.path}"]`);
  const text = await row.innerText();
  assert.match(text, /Text of its own\s*\d+% of \d+ words/i);
  assert.match(text, new RegExp(`Write a paragraph.* about ${CITY.name} that no other page has`));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), "no sideways scroll on a phone");

  // Hide it, from the fix's link: the editor opens at the switch.
  const href = await row.getByRole("link", { name: /Hide it in the editor/ }).getAttribute("href");
  assert.match(href, /^\/admin\/content\?page=%2Fareas%2Fcherokee%2Fwaleska&field=noindex$/);
  await context.close();
  const ed = await openAs(browser, editor, href, PHONE);
  const page2 = ed.page;
  const box = page2.getByLabel("Hide this page from search engines");
  await box.waitFor();
  assert.equal(await box.isChecked(), false, "nothing is hidden by default");
  assert.ok(await until(() => box.evaluate((el) => el === document.activeElement)), "the switch has the focus");
  await box.check();
  const published = page2.waitForResponse((r) => r.request().method() === "POST" && /\/api\/admin\/content\/[^/]+\/publish$/.test(r.url()));
  await page2.getByRole("button", { name: "Publish", exact: true }).click();
  assert.equal((await published).status(), 200);
  await ed.context.close();

  assert.ok(await until(async () => !(await sitemapHas(CITY.path))), "the published switch takes the page out of sitemap.xml");
  assert.ok(!(await (await fetch(BASE + "/sitemap")).text()).includes(`href="${CITY.path}"`), "and out of the HTML sitemap");
  const served = await fetch(BASE + CITY.path);
  assert.equal(served.status, 200, "visitors still reach the page");
  assert.match(await served.text(), /<meta name="robots" content="noindex"/);
  assert.ok((await (await fetch(BASE + "/service-areas/cherokee")).text()).includes(`href="${CITY.path}"`), "its county page still links it");

  // The audit says so.
  const again = await openThinPages();
  await again.list.locator(`li[data-path="${CITY.path}"]`).getByText("Thin, hidden from search").waitFor();
  await again.context.close();

  await setHidden(false);
  assert.ok(await until(() => sitemapHas(CITY.path)), "shown to search engines again");
});

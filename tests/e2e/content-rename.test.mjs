// References by identity in the browser: an editor renames
// Smyrna and publishes; Vinings' page and the water landing page list it
// at its new address at once, and Vinings, never touched, can still be
// published after a change made with the nearby-cities picker (a city
// found by typing part of its name, another added and removed). Taking
// Smyrna down names the pages that list it and removes it from them;
// deleting a category moves its posts to the one chosen in the dialog.
//
// The file runs its own site (startSite): it renames a city that other
// tests' pages show. SHOTS_DIR=/some/dir saves the picker and the dialog
// at 390 and 1280 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, hydrated, startSite, expectedNoSession, gotoSettled, until } from "./lib.mjs";
import { addUser, apiSession, fillAccount, password, tag } from "./account.mjs";

const [TAG, Tag] = tag();
const EDITOR = { email: `renamer.${TAG}@example.com`, name: `Rena ${Tag}`, password: password() };
const NEW_SLUG = `smyrna-ga-${TAG}`;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;

let site, browser, api, state;

before(async () => {
  site = await startSite();
  addUser(EDITOR, "editor", site.data);
  api = await apiSession(EDITOR, site.base);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.stop();
});

/** cityId finds a city's item id through the content API. */
async function cityId(key) {
  const r = await api("/api/admin/content?perPage=200&kind=city");
  assert.equal(r.status, 200);
  const it = (await r.json()).items.find((i) => i.slug === key);
  assert.ok(it, `no city ${key}`);
  return it.id;
}

/** edit opens a content item's editor, signed in as the editor; watch
 * sees the page before it opens. */
async function edit(id, viewport = PHONE, watch = () => {}) {
  const context = await browser.newContext({ viewport, storageState: state });
  const page = await context.newPage();
  watch(page);
  const problems = [];
  page.on("console", (m) => {
    if (expectedNoSession(m)) return;
    if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await gotoSettled(page, `${site.base}/admin/content?item=${encodeURIComponent(id)}`);
  await hydrated(page);
  if (!state) {
    const res = await fillAccount(page, EDITOR);
    assert.equal((await res.json()).stage, "full");
    state = await context.storageState();
  }
  await page.locator(".ac-form").waitFor();
  return { context, page, problems };
}

/** shot saves what the screen shows, with el in view. */
async function shot(page, name, el) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  await el?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/refs-${name}-${page.viewportSize().width}.png` });
}

/** press clicks a button and waits for the content API's answer to it. */
async function press(page, name, method, path) {
  const res = page.waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname));
  await page.getByRole("button", { name, exact: true }).click();
  return res;
}

/** links reads a public page's links to city pages: name -> href. */
async function cityLinks(path) {
  const r = await fetch(site.base + path);
  assert.equal(r.status, 200, path);
  const html = await r.text();
  const out = new Map();
  for (const m of html.matchAll(/<a [^>]*href="(\/areas\/[^"]+)"[^>]*>(.*?)<\/a>/gs)) {
    out.set(m[2].replace(/<[^>]+>/g, "").replace(/&#x27;|&#39;/g, "'").trim(), m[1]);
  }
  return out;
}

test("an editor renames a city; its neighbour's page lists it at the new address and the neighbour still publishes", async () => {
  const smyrna = await cityId("cobb/smyrna");
  const vinings = await cityId("cobb/vinings");
  assert.equal((await cityLinks("/areas/cobb/vinings")).get("Smyrna"), "/areas/cobb/smyrna");

  // Rename Smyrna, at 390 px.
  const a = await edit(smyrna);
  await a.page.getByLabel("Slug", { exact: true }).fill(NEW_SLUG);
  assert.equal((await press(a.page, "Save draft", "PUT", /^\/api\/admin\/content\//)).status(), 200);
  const first = await press(a.page, "Publish", "POST", /\/publish$/);
  assert.equal(first.status(), 200, await first.text());
  // The editor's View live link follows the page to its new address.
  await a.page.locator(`a[href="/areas/cobb/${NEW_SLUG}"]`, { hasText: "View live" }).waitFor();

  // Every page that lists Smyrna links to its new address, in the same publish.
  assert.equal((await cityLinks("/areas/cobb/vinings")).get("Smyrna"), `/areas/cobb/${NEW_SLUG}`, "Vinings' Nearby Areas");
  const wl = await cityLinks("/water-damage-restoration-atlanta");
  assert.equal([...wl.entries()].find(([name]) => name.includes("Smyrna"))?.[1], `/areas/cobb/${NEW_SLUG}`, "the water landing page's Areas We Serve");
  const old = await fetch(`${site.base}/areas/cobb/smyrna`, { redirect: "manual" });
  assert.equal(old.status, 301);
  assert.equal(old.headers.get("location"), `/areas/cobb/${NEW_SLUG}`);
  await a.context.close();

  // Vinings, never touched: its picker shows Smyrna by name (read by
  // id); a neighbour is found by typing part of its name (a search on the
  // server, never the whole list of cities); with it, Vinings publishes.
  const asked = [];
  const b = await edit(vinings, PHONE, (page) => page.on("request", (r) => {
    if (r.url().includes("/api/admin/content?")) asked.push(new URL(r.url()).searchParams);
  }));
  const nearby = b.page.getByRole("group", { name: "Nearby cities" });
  const chosenList = nearby.locator(".ac-refs__list");
  await chosenList.getByText("Smyrna", { exact: true }).waitFor();
  assert.equal(await b.page.locator("#f-nearby-notes").count(), 0, "no problem beside Nearby cities");
  // Nine services fit on one page: all listed, no search box.
  const services = b.page.getByRole("group", { name: "Services offered" });
  await services.getByRole("checkbox").first().waitFor();
  assert.equal(await services.getByRole("searchbox").count(), 0, "no search box for nine services");
  assert.equal(await services.getByRole("checkbox").count(), 9);

  const find = nearby.getByRole("searchbox", { name: "Find a city to add" });
  const status = nearby.getByRole("status");
  await status.getByText("77 cities to choose from.", { exact: false }).waitFor();
  await find.fill("zzqx");
  await status.getByText("No city matches “zzqx”.").waitFor();
  await find.fill("uSTel");
  await status.getByText("1 match.").waitFor();
  await nearby.getByRole("checkbox", { name: "Austell" }).check();
  await chosenList.getByText("Austell", { exact: true }).waitFor();
  await find.fill("powder");
  const powder = nearby.getByRole("checkbox", { name: "Powder Springs" });
  await powder.check();
  await chosenList.getByText("Powder Springs", { exact: true }).waitFor();
  await find.fill("aus");
  await nearby.getByRole("checkbox", { name: "Austell", checked: true }).waitFor();
  await shot(b.page, "picker", nearby);
  await b.page.setViewportSize(WIDE);
  await shot(b.page, "picker", nearby);
  await b.page.setViewportSize(PHONE);
  // Removing one: it leaves the list, the others stay in their order.
  await nearby.getByRole("button", { name: "Remove Powder Springs" }).click();
  assert.ok(await until(async () => (await chosenList.getByText("Powder Springs", { exact: true }).count()) === 0), "Powder Springs removed");
  assert.deepEqual((await chosenList.locator(".ac-refs__name").allInnerTexts()).map((t) => t.trim()),
    ["Smyrna, Cobb", "Mableton, Cobb", "Marietta, Cobb", "Sandy Springs, Fulton", "Atlanta, Fulton", "Austell, Cobb"]);
  await find.fill("powder");
  await powder.and(b.page.getByRole("checkbox", { checked: false })).waitFor();
  // No request read every city: the searches asked for one page of 20.
  const cityAsks = asked.filter((p) => p.get("kind") === "city");
  assert.ok(cityAsks.some((p) => p.get("q") === "uSTel" && p.get("perPage") === "20" && p.get("exclude") === vinings), "a search on the server");
  assert.ok(cityAsks.some((p) => p.has("ids")), "the chosen cities read by id");
  assert.deepEqual(cityAsks.filter((p) => !p.has("ids") && p.get("perPage") !== "20").map(String), [], "every city search is one page of 20");
  assert.equal((await press(b.page, "Save draft", "PUT", /^\/api\/admin\/content\//)).status(), 200);
  const pub = await press(b.page, "Publish", "POST", /\/publish$/);
  assert.equal(pub.status(), 200, await pub.text());
  const links = await cityLinks("/areas/cobb/vinings");
  assert.equal(links.get("Smyrna"), `/areas/cobb/${NEW_SLUG}`);
  assert.equal(links.get("Austell"), "/areas/cobb/austell");
  assert.equal(links.has("Powder Springs"), false, "the removed city is not listed");
  assert.deepEqual(b.problems, []);
  await b.context.close();

  // Taking Smyrna down: the dialog names the pages that list it and
  // removes it from them, in one step.
  const c = await edit(smyrna);
  await c.page.getByRole("button", { name: "Unpublish", exact: true }).click();
  const dialog = c.page.getByRole("alertdialog", { name: "Unpublish this city page?" });
  await dialog.getByText("is listed on these pages:").waitFor();
  const listed = await dialog.locator(".ac-takedown-list a").allInnerTexts();
  assert.deepEqual(listed.map((t) => t.replace(/\s*\(opens in a new tab\)/, "").trim()).sort(), ["Cobb County", "Mableton", "Marietta", "Vinings"]);
  await shot(c.page, "referenced-by");
  await c.page.setViewportSize(WIDE);
  await shot(c.page, "referenced-by");
  await c.page.setViewportSize(PHONE);
  const res = c.page.waitForResponse((r) => r.request().method() === "POST" && /\/unpublish$/.test(r.url()));
  await dialog.getByRole("button", { name: "Remove from these pages and unpublish" }).click();
  assert.equal((await res).status(), 200);
  assert.equal((await fetch(`${site.base}/areas/cobb/${NEW_SLUG}`)).status, 404);
  assert.equal((await cityLinks("/areas/cobb/vinings")).has("Smyrna"), false, "Vinings no longer lists Smyrna");
  const v = await (await api(`/api/admin/content/${vinings}`)).json();
  assert.equal(v.pending, false, "Vinings is left published, with nothing to publish");
  assert.equal(v.problems.filter((p) => p.hard).length, 0, "Vinings can be published");
  assert.deepEqual(c.problems, []);
  await c.context.close();
});

/** created adds and publishes a record through the API. */
async function created(kind, data) {
  const r = await api("/api/admin/content", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ kind, data }) });
  assert.equal(r.status, 201, await r.clone().text());
  const it = await r.json();
  const p = await api(`/api/admin/content/${it.id}/publish`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: it.version }) });
  assert.equal(p.status, 200, await p.clone().text());
  return p.json();
}

test("deleting a category with posts moves them to the category chosen in the dialog", async () => {
  const cat = await created("category", { slug: `storm-season-${TAG}`, name: `Hurricane Prep ${Tag}`, description: "Getting ready for the storms." });
  const post = await created("article", {
    slug: `gutters-before-storms-${TAG}`, title: `Gutters Before Storm Season ${Tag}`, excerpt: "Clean gutters keep water out of the walls.",
    content: "## Clean the gutters\nClear the leaves before the first storm.", category: `storm-season-${TAG}`, publishDate: "2026-11-20", readTime: 3,
    seoTitle: `Gutters Before Storm Season ${Tag}`, metaDescription: "Why clean gutters before storm season keep rain out of your walls and basement in metro Atlanta.", keywords: [], featured: false,
  });
  const p = await edit(cat.id);
  await p.page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = p.page.getByRole("alertdialog", { name: "Delete this category?" });
  await dialog.getByText("These posts are in").waitFor();
  assert.deepEqual((await dialog.locator(".ac-takedown-list a").allInnerTexts()).map((t) => t.replace(/\s*\(opens in a new tab\)/, "").trim()), [post.title]);
  // Without a category chosen, nothing is sent.
  await dialog.getByRole("button", { name: "Move the posts and delete" }).click();
  await dialog.getByRole("alert").getByText("Choose the category the posts move to.").waitFor();
  await dialog.getByLabel("Move these posts to").selectOption({ label: "Restoration" });
  const res = p.page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().includes(cat.id));
  await dialog.getByRole("button", { name: "Move the posts and delete" }).click();
  assert.equal((await res).status(), 200);
  const html = await (await fetch(`${site.base}/blog/gutters-before-storms-${TAG}`)).text();
  assert.match(html, /"articleSection":"Restoration"/, "the post is in Restoration now");
  assert.doesNotMatch(html, new RegExp(`Hurricane Prep ${Tag}`));
  const now = await (await api(`/api/admin/content/${post.id}`)).json();
  assert.equal(now.pending, false);
  assert.equal(now.problems.filter((x) => x.hard).length, 0, "the post can still be published");
  assert.deepEqual(p.problems, []);
  await p.context.close();
});

// Islands hydrate when needed (issue 12, ADR 010): a public page loads no
// React until an island needs it; the menu opens on the very first tap,
// which also brings React; islands near the viewport hydrate on their own,
// without console errors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, BASE, MOBILE, DESKTOP } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** openRecording loads path and records every script the page fetches. */
async function openRecording(path, viewport) {
  const context = await browser.newContext({ viewport, hasTouch: viewport === MOBILE, isMobile: viewport === MOBILE });
  const page = await context.newPage();
  const scripts = [];
  const problems = [];
  page.on("request", (r) => { if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname); });
  page.on("console", (m) => { if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(BASE + path, { waitUntil: "networkidle" });
  return { context, page, scripts, problems };
}

const isRoot = (el) => Object.keys(el).some((k) => k.startsWith("__reactContainer"));

/** reactChunk names the chunk that holds react-dom: the one the islands
 * script imports dynamically. */
async function runtimeChunk(page) {
  const src = await page.locator('script[type="module"]').getAttribute("src");
  const js = await (await page.request.get(BASE + src)).text();
  // Two dynamic imports: the island runtime (React and the islands) and
  // web-vitals (after load, for the analytics beacon).
  for (const m of js.matchAll(/import\("\.\/(c-[A-Za-z0-9_-]+\.js)"\)/g)) {
    const chunk = await (await page.request.get(BASE + "/assets/" + m[1])).text();
    if (chunk.includes("unknown island")) return "/assets/" + m[1];
  }
  assert.fail("the islands script does not import the island runtime dynamically");
}

test("plain load fetches no React; the first tap on the menu opens it and brings React", async () => {
  const { context, page, scripts, problems } = await openRecording("/", MOBILE);
  const chunk = await runtimeChunk(page);
  // Only the islands script's two tiny static chunks are modulepreloaded
  // (ADR 010): never React.
  const preloads = await page.locator('link[rel="modulepreload"]').evaluateAll((ls) => ls.map((l) => l.getAttribute("href")));
  assert.ok(!preloads.includes(chunk), "the React chunk is modulepreloaded");
  let preloadBytes = 0;
  for (const href of preloads) preloadBytes += (await (await page.request.get(BASE + href)).body()).length;
  assert.ok(preloadBytes < 2048, `modulepreloads total ${preloadBytes} bytes: ${preloads.join(", ")}`);
  await page.waitForTimeout(500); // idle time: still nothing
  assert.ok(!scripts.includes(chunk), `React chunk fetched on plain load: ${scripts.join(", ")}`);
  assert.equal(await page.locator("[data-island=nav]").evaluate(isRoot), false, "the nav is not hydrated yet");

  // One tap, as a person would: the drawer opens.
  const fetched = page.waitForRequest((r) => new URL(r.url()).pathname === chunk);
  await page.getByRole("button", { name: "Open menu" }).tap();
  await fetched;
  await page.getByRole("dialog").waitFor({ timeout: 5000 }).catch(() => {});
  assert.equal(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded"), "true", "the first tap opened the menu");
  assert.ok(await page.locator("#mobile-menu").isVisible(), "the drawer is visible");
  assert.equal(await page.locator("[data-island=nav]").evaluate(isRoot), true);
  // It closes with Escape and focus returns to the button.
  await page.keyboard.press("Escape");
  await page.waitForTimeout(100);
  assert.equal(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded"), "false");
  assert.deepEqual(problems, []);
  await context.close();
});

test("the estimate form hydrates when visible; header links work before hydration", async () => {
  const { context, page, problems } = await openRecording("/estimate", DESKTOP);
  const form = page.locator("[data-island=estimate]");
  for (let i = 0; i < 50 && !(await form.evaluate(isRoot)); i++) await page.waitForTimeout(100);
  assert.equal(await form.evaluate(isRoot), true, "the visible form hydrated without interaction");
  // The header is still plain HTML, and its links navigate.
  assert.equal(await page.locator("[data-island=nav]").evaluate(isRoot), false);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "SERVICE AREAS" }).click();
  await page.waitForURL(/\/service-areas$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("below-the-fold islands hydrate when scrolled near, without console errors", async () => {
  const { context, page, scripts, problems } = await openRecording("/", DESKTOP);
  const chunk = await runtimeChunk(page);
  const carousel = page.locator("[data-island=carousel]");
  if (await carousel.count()) {
    assert.equal(await carousel.evaluate(isRoot), false, "the carousel waits until it is near");
    await carousel.scrollIntoViewIfNeeded();
    for (let i = 0; i < 50 && !(await carousel.evaluate(isRoot)); i++) await page.waitForTimeout(100);
    assert.equal(await carousel.evaluate(isRoot), true, "the carousel hydrated when visible");
    assert.ok(scripts.includes(chunk));
  }
  // Scroll to the bottom: every visibility island hydrates.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForTimeout(1500);
  const pending = await page.locator("[data-island]:not([data-island=nav])").evaluateAll((els) =>
    els.filter((el) => !Object.keys(el).some((k) => k.startsWith("__reactContainer"))).map((el) => el.dataset.island));
  assert.deepEqual(pending, [], "islands still plain after scrolling past them");
  assert.deepEqual(problems, []);
  await context.close();
});

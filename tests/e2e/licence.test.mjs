// The licence number never wraps in the middle ('#RBQA00 / 6428' was seen
// on a phone): wherever a page shows it, at 320, 390, 768 and 1280 px, its
// box is one line and stays inside the box that holds it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open } from "./lib.mjs";

const SHOTS = process.env.SHOT_DIR; // screenshots for a person to look at, when set

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** licences measures every licence number the page shows. */
const licences = (page) => page.evaluate(() => Array.from(document.querySelectorAll(".licence-no")).filter((el) => el.getClientRects().length > 0).map((el) => {
  const lines = new Set(Array.from(el.getClientRects()).map((r) => Math.round(r.top))).size;
  const r = el.getBoundingClientRect();
  let holder = el.parentElement;
  while (holder && getComputedStyle(holder).display.startsWith("inline")) holder = holder.parentElement;
  const h = holder.getBoundingClientRect();
  return { text: el.textContent, where: holder.className || holder.tagName, lines, inside: r.left >= h.left - 1 && r.right <= h.right + 1, inViewport: r.right <= innerWidth + 1 };
}));

const PAGES = ["/", "/services/water-damage-restoration", "/areas/cobb/smyrna"];

for (const width of [320, 390, 768, 1280]) {
  test(`the licence number is one unbroken line at ${width} px`, async () => {
    for (const path of PAGES) {
      const { context, page } = await open(browser, path, { width, height: 800 }, { js: false });
      const found = await licences(page);
      assert.ok(found.length >= 2, `${path}: the licence is shown (${found.length} found)`);
      for (const l of found) {
        assert.ok(/^#\S+$/.test(l.text), `${path}: ${JSON.stringify(l)}`);
        assert.deepEqual({ lines: l.lines, inside: l.inside, inViewport: l.inViewport }, { lines: 1, inside: true, inViewport: true }, `${path} at ${width} px, in ${l.where}`);
      }
      if (SHOTS && path === "/" && width <= 390) {
        await page.locator(".stats__value--licence").scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/licence-home-${width}.png` });
      }
      await context.close();
    }
  });
}

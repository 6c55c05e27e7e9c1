// The blog's topic cards are links (ADR 051): on a 390 px phone a tap
// anywhere on a card (here its description, not its title) opens the
// topic's page, and a keyboard user reaches each card's link with Tab.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, settle } from "./lib.mjs";

const PHONE = { width: 390, height: 844 };

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("a tap on a topic card opens the topic's page, which lists its articles", async () => {
  const { context, page, problems } = await open(browser, "/blog", PHONE);
  const card = page.locator(".category-card").filter({ hasText: "Insurance Claims" });
  // A tap where the description is: the title's link covers the card, so
  // it is the link that takes the tap (a locator click would refuse, the
  // paragraph being covered).
  await card.scrollIntoViewIfNeeded();
  const box = await card.locator("p").boundingBox();
  await settle(page, () => Promise.all([page.waitForURL("**/blog/category/insurance"), page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)]));
  assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Insurance Claims");
  const articles = page.locator("section[aria-labelledby=topic-articles-title] .article-card");
  assert.ok(await articles.count() >= 1, "the topic's articles are listed");
  for (const pill of await articles.locator(".pill").allTextContents()) assert.equal(pill, "Insurance Claims");
  assert.deepEqual(problems, []);
  await context.close();
});

test("each topic card's link is reached with Tab and named as it reads", async () => {
  const { context, page } = await open(browser, "/blog", PHONE);
  const names = await page.locator(".category-card .card__title").allTextContents();
  assert.equal(names.length, 4);
  await page.locator("#topics-title").evaluate((h) => { h.tabIndex = -1; h.focus(); });
  for (const name of names) {
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), name, `Tab reaches ${name}`);
  }
  await context.close();
});

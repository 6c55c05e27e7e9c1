import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, until, BASE, MOBILE, DESKTOP } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

for (const [name, viewport] of [["mobile", MOBILE], ["desktop", DESKTOP]]) {
  test(`home hydrates without console errors (${name})`, async () => {
    const { context, page, problems, res } = await open(browser, "/", viewport);
    assert.equal(res.status(), 200);
    await hydrated(page);
    assert.deepEqual(problems, []);
    assert.equal(await page.locator("h1").count(), 1);
    await context.close();
  });

  test(`FAQ is single-open and collapsible by click and keyboard (${name})`, async () => {
    const { context, page, problems } = await open(browser, "/", viewport);
    await hydrated(page);
    const faq = page.locator("section.faq");
    const items = faq.locator("details");
    const first = items.nth(0), second = items.nth(1);
    await first.locator("summary").click();
    assert.equal(await first.evaluate((d) => d.open), true);
    await second.locator("summary").click();
    assert.equal(await second.evaluate((d) => d.open), true);
    assert.equal(await first.evaluate((d) => d.open), false, "opening one closes the other");
    await second.locator("summary").click();
    assert.equal(await second.evaluate((d) => d.open), false, "an open item collapses");
    // Keyboard: focus the summary and press Enter, then Space.
    await first.locator("summary").focus();
    await page.keyboard.press("Enter");
    assert.equal(await first.evaluate((d) => d.open), true);
    await page.keyboard.press("Space");
    assert.equal(await first.evaluate((d) => d.open), false);
    // The answer is visible when open.
    await first.locator("summary").click();
    assert.ok(await first.locator(".faq__a").isVisible());
    assert.ok(await faq.locator('a[href^="tel:"]').count() > 0, "FAQ has a call link");
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("mobile drawer opens, traps focus and closes on Escape", async () => {
  const { context, page, problems } = await open(browser, "/", MOBILE);
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Open menu" });
  assert.ok(await toggle.isVisible());
  // Keyboard: focus the trigger and press Enter.
  await toggle.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Menu" });
  await dialog.waitFor({ state: "visible" });
  // React follows the popover's toggle event, a task after it opened.
  assert.ok(await until(async () => (await toggle.getAttribute("aria-expanded")) === "true"), "aria-expanded follows the drawer");
  assert.equal(await dialog.getAttribute("aria-modal"), "true", "modal once React traps focus");
  // Focus moved inside and stays inside on Tab and Shift+Tab.
  const inside = () => page.evaluate(() => !!document.activeElement?.closest("#mobile-menu"));
  assert.ok(await until(inside), "focus moved into the drawer");
  const count = await dialog.locator("a[href], button").count();
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press("Tab");
    assert.ok(await inside(), `focus left the drawer after ${i + 1} Tab`);
  }
  await page.keyboard.press("Shift+Tab");
  assert.ok(await inside());
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Open menu", "focus returns to the trigger");
  // Click: open, then close with the close button.
  await toggle.click();
  await dialog.waitFor({ state: "visible" });
  await page.getByRole("button", { name: "Close menu" }).click();
  await dialog.waitFor({ state: "hidden" });
  // The drawer's links are real links.
  await toggle.click();
  await dialog.getByRole("link", { name: "SERVICE AREAS" }).waitFor();
  assert.equal(await dialog.getByRole("link", { name: "SERVICE AREAS" }).getAttribute("href"), "/service-areas");
  assert.deepEqual(problems, []);
  await context.close();
});

test("the mobile menu works with JavaScript off", async () => {
  const context = await browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(BASE + "/contact");
  const toggle = page.getByRole("button", { name: "Open menu" });
  const dialog = page.getByRole("dialog", { name: "Menu" });
  assert.equal(await dialog.isVisible(), false);
  // Tap opens; the close button, Escape and a tap outside close.
  await toggle.tap();
  assert.ok(await dialog.isVisible(), "the menu opened without JavaScript");
  // Tab can leave a popover, so it must not claim to be modal.
  assert.equal(await dialog.getAttribute("aria-modal"), null, "aria-modal without a focus trap");
  await page.getByRole("button", { name: "Close menu" }).tap();
  assert.equal(await dialog.isVisible(), false, "the close button closed it");
  await toggle.tap();
  await page.keyboard.press("Escape");
  assert.equal(await dialog.isVisible(), false, "Escape closed it");
  await toggle.tap();
  await page.mouse.click(10, MOBILE.height / 2);
  assert.equal(await dialog.isVisible(), false, "a tap outside closed it");
  // The browser says whether the menu is open, from popovertarget.
  const cdp = await context.newCDPSession(page);
  const expanded = async () => {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    return nodes.find((n) => n.name?.value === "Open menu").properties.find((p) => p.name === "expanded")?.value.value;
  };
  assert.equal(await expanded(), false);
  await toggle.tap();
  assert.equal(await expanded(), true, "the button is exposed as expanded");
  // Its links are real links.
  await dialog.getByRole("link", { name: "SERVICE AREAS" }).tap();
  await page.waitForURL(/\/service-areas$/);
  await context.close();
});

test("the mobile menu opens where the browser has no popovers", async () => {
  const { context, page, problems } = await open(browser, "/", MOBILE, {
    // An engine without the popover API: no HTMLElement.popover to detect,
    // and the popovertarget button does nothing by itself.
    init: () => {
      delete HTMLElement.prototype.popover;
      document.addEventListener("click", (e) => { if (e.target.closest?.("[popovertarget]")) e.preventDefault(); }, true);
    },
  });
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Open menu" });
  const dialog = page.getByRole("dialog", { name: "Menu" });
  await toggle.click();
  await dialog.waitFor({ state: "visible" });
  assert.equal(await page.locator("#mobile-menu").evaluate((el) => el.matches(":popover-open")), false, "React opened it, not the browser");
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  assert.ok(await until(() => page.evaluate(() => !!document.activeElement?.closest("#mobile-menu"))), "focus moved into the drawer");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Open menu");
  await toggle.click();
  await dialog.waitFor({ state: "visible" });
  await page.locator(".drawer__overlay").click({ position: { x: 10, y: 400 } });
  await dialog.waitFor({ state: "hidden" });
  await toggle.click();
  await page.getByRole("button", { name: "Close menu" }).click();
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  assert.deepEqual(problems, []);
  await context.close();
});

test("with JavaScript off, every button a page shows works as plain HTML", async () => {
  const context = await browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const path of ["/", "/services/water-damage-restoration", "/areas/cobb/smyrna", "/service-areas/cobb",
    "/blog/what-to-do-immediately-after-water-damage", "/portfolio", "/contact", "/water-damage-restoration-atlanta"]) {
    await page.goto(BASE + path);
    // Lay out the sections the first layout skipped, as scrolling would.
    await page.evaluate(() => document.querySelectorAll(".section").forEach((s) => s.classList.add("is-rendered")));
    const dead = await page.evaluate(() => Array.from(document.querySelectorAll("button"))
      .filter((b) => b.checkVisibility())
      .filter((b) => !b.hasAttribute("popovertarget") && !(b.type === "submit" && b.form))
      .map((b) => b.outerHTML.slice(0, 120)));
    assert.deepEqual(dead, [], `${path}: buttons that do nothing without JavaScript`);
  }
  await context.close();
});

test("nav anchors work with JavaScript off", async () => {
  const { context, page } = await open(browser, "/contact", DESKTOP, { js: false });
  // Even on a 404 page the nav is present; following a route+anchor link lands on the section.
  await page.goto(new URL("/#contact-form", page.url()).href);
  assert.ok(await page.locator("#contact-form").isVisible());
  await context.close();
});

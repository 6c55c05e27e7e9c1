import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, BASE, MOBILE, DESKTOP, until, scrollSettled } from "./lib.mjs";
import { apiToken, uploadFixture, deleteProject } from "./api.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const KINDS = [
  "/services", "/services/water-damage-restoration", "/water-damage-restoration-atlanta", "/service-areas",
  "/service-areas/fulton", "/service-areas/fayette", "/areas/cobb/smyrna", "/areas/douglas/douglasville",
  "/areas/fulton/atlanta-service", "/portfolio", "/contact", "/blog", "/blog/fire-damage-restoration-process-atlanta", "/blog/category/insurance",
  "/about", "/privacy", "/terms", "/emergency", "/estimate", "/sitemap", "/search?q=water+damage",
];

test("one page of each kind renders and hydrates without console errors", async () => {
  for (const path of KINDS) {
    const { context, page, problems, res } = await open(browser, path, MOBILE);
    assert.equal(res.status(), 200, path);
    await hydrated(page);
    assert.equal(await page.locator("h1").count(), 1, `${path}: one h1`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
    assert.deepEqual(problems, [], path);
    await context.close();
  }
});

test("the not-found page answers 404 with its texts and hydrates", async () => {
  const { context, page, problems, res } = await open(browser, "/no/such/page", DESKTOP);
  assert.equal(res.status(), 404);
  await hydrated(page);
  assert.ok(await page.getByText("Oops! Page not found").isVisible());
  assert.ok(await page.getByRole("heading", { name: "404" }).isVisible());
  // Chromium reports the 404 document itself; nothing else may fail.
  assert.deepEqual(problems.filter((p) => !p.includes("status of 404")), []);
  await context.close();
});

test("a service page's FAQ accordion is single-open and collapsible", async () => {
  const { context, page, problems } = await open(browser, "/services/water-damage-restoration", DESKTOP);
  await hydrated(page);
  const items = page.locator("section.faq details");
  assert.equal(await items.count(), 4);
  await items.nth(0).locator("summary").click();
  await items.nth(2).locator("summary").click();
  assert.equal(await items.nth(0).evaluate((d) => d.open), false);
  assert.equal(await items.nth(2).evaluate((d) => d.open), true);
  await items.nth(2).locator("summary").press("Enter");
  assert.equal(await items.nth(2).evaluate((d) => d.open), false);
  assert.deepEqual(problems, []);
  await context.close();
});

test("estimate form inline with JavaScript: errors per field, then success", async () => {
  const { context, page, problems } = await open(browser, "/estimate", DESKTOP);
  await hydrated(page);
  const form = page.getByRole("form", { name: "Free estimate request" });
  await form.getByLabel("Full name *").fill("Dana Whitfield");
  await form.getByRole("button", { name: "Request My Free Estimate" }).click();
  await page.locator("#estimate-phone-error").getByText("Please enter a 10-digit phone number, e.g. (770) 555-0134.").waitFor();
  assert.ok(await page.locator("#estimate-damageType-error").getByText("Please choose the type of damage.").isVisible());
  assert.equal(await form.getByLabel("Full name *").inputValue(), "Dana Whitfield", "typed value kept");
  assert.equal(new URL(page.url()).pathname, "/estimate", "no navigation");
  await form.getByLabel("Phone *").fill("(678) 555-0142");
  await form.getByLabel("City *").fill("Smyrna");
  await form.getByLabel("Type of damage *").selectOption("Storm Damage");
  await form.getByLabel("Yes").check();
  await form.getByRole("button", { name: "Request My Free Estimate" }).click();
  await page.getByText("Thank you! Your estimate request was received.").waitFor();
  // Chromium logs the validation answer (422) as a failed resource; that is the expected reply.
  assert.deepEqual(problems.filter((p) => !p.includes("status of 422")), []);
  await context.close();
});

test("estimate form without JavaScript: the server answers with messages, then a thank-you page", async () => {
  const { context, page } = await open(browser, "/estimate", DESKTOP, { js: false });
  const form = page.locator("form.estimate-form");
  await form.locator("#estimate-name").fill("Lee Park");
  await form.locator("#estimate-notes").fill("Roof leak after the storm, ceiling stain in the hallway.");
  // Enter in a field submits the form, as a keyboard user would.
  await Promise.all([page.waitForURL("**/estimate#estimate-result"), form.locator("#estimate-name").press("Enter")]);
  assert.ok(await page.locator("#estimate-phone-error").getByText("Please enter a 10-digit phone number, e.g. (770) 555-0134.").isVisible());
  assert.equal(await page.locator("#estimate-name").inputValue(), "Lee Park");
  assert.match(await page.locator("#estimate-notes").inputValue(), /Roof leak after the storm/);
  await page.locator("#estimate-phone").fill("770-555-0188");
  await page.locator("#estimate-city").fill("Dallas");
  await page.locator("#estimate-damageType").selectOption("Roof Damage");
  await page.getByLabel("No", { exact: true }).check(); // the emergency question has no preset answer
  await Promise.all([page.waitForURL("**/estimate/thanks#estimate-result"), page.locator("#estimate-city").press("Enter")]);
  assert.ok(await page.getByText("Thank you! Your estimate request was received.").isVisible());
  await context.close();
});

test("the portfolio carousel moves by keyboard and buttons, and loops", async () => {
  const token = await apiToken();
  try {
    for (let i = 0; i < 4; i++) await uploadFixture(token, i < 2 ? "Carousel Test Basement" : "Carousel Test Roof", `photo-${i}.jpg`);
    const { context, page, problems } = await open(browser, "/portfolio", DESKTOP);
    await hydrated(page);
    assert.ok(await page.getByText(/^\d+ (photos?|videos?)( and \d+ videos?)? from \d+ projects?$/).isVisible());
    const track = page.locator(".carousel__track");
    const slides = await page.locator(".slide").count();
    assert.ok(slides >= 4);
    const left = () => track.evaluate((el) => Math.round(el.scrollLeft));
    assert.equal(await left(), 0);
    await track.focus();
    await page.keyboard.press("ArrowRight");
    assert.ok(await until(async () => (await left()) > 0), "ArrowRight moved the carousel");
    // A person presses the next key once the track has come to rest; one
    // pressed mid-scroll starts from wherever the snap had got to.
    await scrollSettled(page, ".carousel__track");
    await page.keyboard.press("ArrowLeft");
    assert.ok(await until(async () => (await left()) === 0), "ArrowLeft moved it back");
    // Previous from the first slide loops to the last.
    await page.getByRole("button", { name: "Previous slide" }).click();
    assert.ok(await until(async () => (await left()) > 0), "looped to the end");
    assert.ok(await page.locator(".carousel__dot").count() <= 5, "at most 5 pulse dots");
    assert.ok(await page.locator(".slide__badge", { hasText: "Carousel Test Roof" }).count() > 0);
    assert.ok(await page.locator(".slide__type", { hasText: "Photo" }).count() > 0);
    assert.deepEqual(problems, []);
    await context.close();
    // With JavaScript off only React could move the arrows, so they are
    // hidden, and the track still scrolls by touch or trackpad.
    const noJs = await browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto(BASE + "/portfolio");
    await plain.evaluate(() => document.querySelectorAll(".section").forEach((s) => s.classList.add("is-rendered")));
    assert.equal(await plain.locator(".carousel__btn").count(), 2, "the arrows are in the HTML");
    assert.deepEqual(await plain.locator(".carousel__btn").evaluateAll((bs) => bs.filter((b) => b.checkVisibility()).length), 0, "no arrow shows without JavaScript");
    const scrolled = await plain.locator(".carousel__track").evaluate((el) => {
      el.style.scrollBehavior = "auto";
      el.scrollLeft = el.clientWidth;
      return ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollLeft > 0;
    });
    assert.ok(scrolled, "the track scrolls without JavaScript");
    await noJs.close();
  } finally {
    await deleteProject(token, "Carousel Test Basement");
    await deleteProject(token, "Carousel Test Roof");
  }
});

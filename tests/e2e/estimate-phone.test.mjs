// The estimate form on a 390 px phone, with JavaScript on and off: after
// every submission its message (thank-you, error summary or rate-limit
// message) is in the viewport below the sticky header and has focus;
// values filled in before hydration survive it; failed attempts do not
// count toward the limit. The file runs its own site (startSite), because
// it uses up 127.0.0.1's estimate limit.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, hydrated, until, startSite, gotoSettled, scrollSettled } from "./lib.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOT_DIR; // screenshots for a person to look at, when set

let browser, site;
before(async () => {
  site = await startSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.stop();
});

async function open(path, viewport = PHONE, { js = true, init } = {}) {
  // Playwright's click scrolls its target into view and waits for it to
  // stand still; the site's smooth scrolling keeps restarting under it
  // when no script runs. Reduced motion (which the site honours) keeps
  // the no-JavaScript clicks instant; JavaScript tests keep smooth scrolling.
  const context = await browser.newContext({ viewport, javaScriptEnabled: js, reducedMotion: js ? "no-preference" : "reduce" });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    // A refused submission (422, 429) is logged by Chromium as a failed
    // resource: that is the expected reply, not a problem.
    if ((m.type() === "error" && !/status of 4(22|29)/.test(m.text())) || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await gotoSettled(page, site.base + path);
  return { context, page, problems };
}

/** placement says where the outcome box is: whether it is focused, and
 * whether it sits wholly in the viewport below the sticky header. */
async function placement(page) {
  return page.evaluate(() => {
    const box = document.getElementById("estimate-result");
    if (!box) return { found: false };
    const r = box.getBoundingClientRect();
    const nav = document.querySelector(".nav");
    const header = nav && getComputedStyle(nav).position === "sticky" ? nav.getBoundingClientRect().bottom : 0;
    return {
      found: true, focused: document.activeElement === box,
      top: Math.round(r.top), bottom: Math.round(r.bottom), header: Math.round(header), viewport: window.innerHeight,
      inView: r.top >= header - 1 && r.bottom <= window.innerHeight + 1 && r.height > 0,
    };
  });
}

/** shownAndFocused waits for the box to be in view and focused (smooth
 * scrolling takes a few frames) and fails with where it was. */
async function shownAndFocused(page, what) {
  let p;
  const ok = await until(async () => {
    p = await placement(page);
    return p.found && p.focused && p.inView;
  });
  assert.ok(ok, `${what}: ${JSON.stringify(p)}`);
}

async function shot(page, name) {
  if (!SHOTS) return;
  await scrollSettled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function fillValid(form, name = "Jordan Ellis") {
  await form.getByLabel("Full name *").fill(name);
  await form.getByLabel("Phone *").fill("678-555-0199");
  await form.getByLabel("City *").fill("Smyrna");
  await form.getByLabel("Type of damage *").selectOption("Water Damage");
  await form.getByLabel("No", { exact: true }).check(); // the emergency question has no preset answer
}

const submit = (form) => form.getByRole("button", { name: "Request My Free Estimate" }).click();

/** postDirect stores a lead the way the form does, from 127.0.0.1. */
async function postDirect() {
  const body = new URLSearchParams({ name: "Limit Filler", phone: "7705550100", city: "Austell", damageType: "Other", emergency: "no", website: "" });
  const r = await fetch(site.base + "/api/estimate", { method: "POST", body, headers: { Accept: "application/json" } });
  return r.status;
}

test("with JavaScript, five invalid submits then a valid one: each message in view and focused, and the lead is stored", async () => {
  for (const viewport of [PHONE, WIDE]) {
    const { context, page, problems } = await open("/", viewport);
    await hydrated(page);
    const form = page.getByRole("form", { name: "Free estimate request" });
    await form.scrollIntoViewIfNeeded();
    for (let i = 0; i < 5; i++) {
      await submit(form);
      await page.getByText("There is a problem").waitFor();
      await shownAndFocused(page, `error summary, attempt ${i + 1}`);
      if (i === 4) break;
      // Scroll away so the next attempt must bring the summary back.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    }
    await shot(page, `js-summary-${viewport.width}`);
    const summary = page.locator("#estimate-result");
    const links = summary.getByRole("link");
    assert.ok(await links.count() >= 4, "a link per message");
    // A summary link takes the visitor to its field, focused and visible.
    await summary.getByRole("link", { name: "Please enter your name." }).click();
    let active;
    assert.ok(await until(async () => (active = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))).includes('name="name"')), `the name field took focus (the focus is on ${active})`);
    assert.ok(await until(() => page.evaluate(() => {
      const r = document.activeElement.getBoundingClientRect();
      return r.top >= document.querySelector(".nav").getBoundingClientRect().bottom && r.bottom <= innerHeight;
    })), "the field is below the header");
    await fillValid(form, viewport === PHONE ? "Jordan Ellis" : "Avery Stone");
    await submit(form);
    await page.getByText("Thank you! Your estimate request was received.").waitFor();
    await shownAndFocused(page, "thank-you message");
    assert.equal(await page.locator("#estimate-result").getAttribute("role"), "status");
    await shot(page, `js-success-${viewport.width}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("values filled in before the form hydrates survive hydration", async () => {
  // Autofill and paste fill fields before the islands script runs: this
  // fills the name as soon as the document is parsed, before any script.
  const init = () => document.addEventListener("DOMContentLoaded", () => {
    const el = document.querySelector("form.estimate-form [name=name]");
    const island = el?.closest("[data-island]");
    window.__filledBeforeHydration = !!island && !Object.keys(island).some((k) => k.startsWith("__reactContainer"));
    if (el) el.value = "Autofilled Person";
  });
  const { context, page, problems } = await open("/estimate", PHONE, { init });
  assert.equal(await page.evaluate(() => window.__filledBeforeHydration), true, "the name was filled before hydration");
  await hydrated(page);
  const form = page.getByRole("form", { name: "Free estimate request" });
  await form.getByLabel("Phone *").fill("(404) 555-0123");
  await form.getByLabel("City *").fill("Decatur");
  await form.getByLabel("Type of damage *").selectOption("Mold");
  await form.getByLabel("No", { exact: true }).check();
  assert.equal(await form.getByLabel("Full name *").inputValue(), "Autofilled Person", "typing another field wiped the name");
  await submit(form);
  await page.getByText("Thank you! Your estimate request was received.").waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test("without JavaScript, the answer opens at the error summary, then at the thank-you message", async () => {
  for (const viewport of [PHONE, WIDE]) {
    const { context, page } = await open("/contact", viewport, { js: false });
    const form = page.locator("form.estimate-form");
    await form.locator("[name=name]").fill("Robin Hale");
    await Promise.all([page.waitForURL("**/estimate#estimate-result"), form.getByRole("button", { name: "Request My Free Estimate" }).click()]);
    await shownAndFocused(page, "no-JS error summary");
    assert.ok(await page.locator("#estimate-result").getByRole("link", { name: "Please enter a 10-digit phone number, e.g. (770) 555-0134." }).isVisible());
    assert.equal(await page.locator("#estimate-name").inputValue(), "Robin Hale", "typed value kept");
    await shot(page, `nojs-summary-${viewport.width}`);
    await page.locator("#estimate-phone").fill("770 555 0177");
    await page.locator("#estimate-city").fill("Lithia Springs");
    await page.locator("#estimate-damageType").selectOption("Storm Damage");
    await page.getByLabel("No", { exact: true }).check();
    await Promise.all([page.waitForURL("**/estimate/thanks#estimate-result"), page.getByRole("button", { name: "Request My Free Estimate" }).click()]);
    await shownAndFocused(page, "no-JS thank-you message");
    await shot(page, `nojs-success-${viewport.width}`);
    await context.close();
  }
});

test("over the limit, the rate-limit message is in view, focused, and gives the phone as a tel: link", async () => {
  // The tests above stored leads from 127.0.0.1 (five, the limit, when
  // they all ran): store more until the server refuses.
  let status;
  while ((status = await postDirect()) === 201);
  assert.equal(status, 429);
  for (const viewport of [PHONE, WIDE]) {
    const { context, page, problems } = await open("/", viewport);
    await hydrated(page);
    const form = page.getByRole("form", { name: "Free estimate request" });
    await form.scrollIntoViewIfNeeded();
    await fillValid(form);
    await submit(form);
    await page.getByText(/Too many requests from your network/).waitFor();
    await shownAndFocused(page, "rate-limit message");
    const tel = page.locator("#estimate-result a[href^='tel:']");
    assert.equal(await tel.count(), 1, "the phone is a tel: link");
    assert.equal(await page.locator("#estimate-result").getAttribute("role"), "alert");
    await shot(page, `js-ratelimit-${viewport.width}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
  // Without JavaScript: the small fixed page, focused at its message.
  const { context, page } = await open("/estimate", PHONE, { js: false });
  const form = page.locator("form.estimate-form");
  await form.locator("[name=name]").fill("Casey Morgan");
  await form.locator("[name=phone]").fill("7705550111");
  await form.locator("[name=city]").fill("Austell");
  await form.locator("[name=damageType]").selectOption("Other");
  await form.getByLabel("No", { exact: true }).check();
  await Promise.all([page.waitForURL("**/estimate#estimate-result"), form.getByRole("button", { name: "Request My Free Estimate" }).click()]);
  await shownAndFocused(page, "no-JS rate-limit page");
  assert.equal(await page.locator("#estimate-result a[href^='tel:']").count(), 1);
  await shot(page, "nojs-ratelimit-390");
  await context.close();
});

test("anchored targets land below the sticky header, with JavaScript on and off", async () => {
  for (const js of [true, false]) {
    for (const [path, id] of [["/#contact-form", "contact-form"], ["/#portfolio", "portfolio"], ["/#trust-section", "trust-section"], ["/services/water-damage-restoration#svc-related-title", "svc-related-title"]]) {
      const { context, page } = await open(path, PHONE, { js });
      let at;
      const ok = await until(async () => {
        at = await page.evaluate((id) => {
          const el = document.getElementById(id);
          if (!el) return { missing: true };
          const r = el.getBoundingClientRect();
          return { top: Math.round(r.top), header: Math.round(document.querySelector(".nav").getBoundingClientRect().bottom), scrolled: scrollY > 0, anchored: document.documentElement.dataset.anchored };
        }, id);
        // With JavaScript the landing says when it is over (ADR 050:
        // html[data-anchored]); without, the browser's own scroll is read
        // until it holds the target, within the suite's generous ceiling.
        return !at.missing && (!js || at.anchored === id) && at.scrolled && at.top >= at.header - 1 && at.top < 844 / 2;
      });
      assert.ok(ok, `${path} (JavaScript ${js ? "on" : "off"}): ${JSON.stringify(at)}`);
      await context.close();
    }
  }
});

// Shared browser-test helpers: Debian's Chromium through playwright-core.
import { chromium } from "playwright-core";

export const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";

export const MOBILE = { width: 412, height: 823 };
export const DESKTOP = { width: 1366, height: 900 };

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** open loads a page and records console errors, page errors and React
 * hydration warnings (#418/#423/#425 in the production build). */
/** opts: js false turns JavaScript off; init runs before the page's own scripts. */
export async function open(browser, path, viewport = DESKTOP, opts = {}) {
  const context = await browser.newContext({ viewport, javaScriptEnabled: opts.js !== false });
  if (opts.init) await context.addInitScript(opts.init);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  const res = await page.goto(BASE + path, { waitUntil: "networkidle" });
  return { context, page, problems, res };
}

/** hydrated waits until React has attached: to every island of a public
 * page, or to #root for the fully hydrated admin app. Public islands
 * hydrate on interaction or visibility (ADR 010), so it first wakes each
 * one with the focusin event every trigger listens for. It polls with
 * page.evaluate because waitForFunction's polling needs eval, which the
 * site's CSP forbids. */
export async function hydrated(page, timeout = 10000) {
  await page.evaluate(() => {
    document.querySelectorAll("[data-island]").forEach((el) => el.dispatchEvent(new FocusEvent("focusin", { bubbles: true })));
  });
  const check = () => {
    const isRoot = (el) => Object.keys(el).some((k) => k.startsWith("__reactContainer"));
    const islands = Array.from(document.querySelectorAll("[data-island]"));
    if (islands.length) return islands.every(isRoot);
    const root = document.getElementById("root");
    return !!root && isRoot(root);
  };
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (await page.evaluate(check)) return;
    await page.waitForTimeout(50);
  }
  throw new Error("page did not hydrate within " + timeout + " ms");
}

/** until polls an async check every 50 ms until it returns true, and
 * says whether it did within timeout. Things React does after a browser
 * event (a popover's toggle event, say) land a task or two later. */
export async function until(check, timeout = 5000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !!(await check());
}

/** PIN is the admin PIN the test server starts with (scripts/serve-test.sh). */
export const PIN = process.env.ADMIN_PIN || "482915";

/** unlockAdmin opens an admin path, enters the PIN with Enter and waits for
 * the unlocked layout. init, when given, runs before the page's scripts. */
export async function unlockAdmin(browser, path = "/admin", viewport = DESKTOP, { init } = {}) {
  const o = await open(browser, path, viewport);
  if (init) {
    await o.context.addInitScript(init);
    await o.page.reload({ waitUntil: "networkidle" });
  }
  await hydrated(o.page);
  await o.page.getByLabel("PIN").fill(PIN);
  await o.page.keyboard.press("Enter");
  await o.page.getByText("Access granted").waitFor();
  await o.page.locator("#admin-main").waitFor();
  return o;
}

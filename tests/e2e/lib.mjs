// Shared browser-test helpers: Debian's Chromium through playwright-core.
import { chromium } from "playwright-core";
import { appendFileSync, readFileSync, readdirSync } from "node:fs";
import { basename } from "node:path";

// What each test file cost the CPU, for scripts/e2e.sh's summary: this
// process and the children it waited for (sites of its own, the checkers'
// Java, Chromium's browser process), from /proc/self/stat in clock ticks;
// then what Chromium's processes had spent when the browser closed (its
// zygote reaps the renderers of closed pages, so their time is in it),
// and how many browser contexts and page loads the file made, and the
// file's wall time (scripts/e2e.sh balances its lines by it).
if (process.env.E2E_CPU_LOG) {
  process.on("exit", () => {
    try {
      const ticks = procStat("self").ticks;
      appendFileSync(process.env.E2E_CPU_LOG, `${(ticks / 100).toFixed(0)} ${basename(process.argv[1] || "?")}: Chromium's processes ${(chromiumTicks / 100).toFixed(0)} at close, ${counts.contexts} contexts, ${counts.loads} page loads, ${process.uptime().toFixed(0)} s\n`);
    } catch { /* not Linux: no summary */ }
  });
}

export const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";

export const MOBILE = { width: 412, height: 823 };

/** CEILING is the suite's one generous wait, in ms: how long a test waits
 * for something the page or the server signals (a hydration, an element,
 * a beacon, a job's result) before it fails, naming what it waited for.
 * No test waits a fixed short time for what it can observe: a loaded
 * machine (a newcomer's laptop, CI beside other work) took over 10 s for
 * things that take 100 ms on an idle one. E2E_CEILING_MS changes it. */
export const CEILING = Number(process.env.E2E_CEILING_MS) || 90_000;
export const DESKTOP = { width: 1366, height: 900 };

/** procStat reads /proc/PID/stat: the command's name, the parent and the
 * CPU in clock ticks, with what the process has reaped of its children. */
function procStat(pid) {
  const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = raw.slice(raw.lastIndexOf(") ") + 2).split(" ");
  return { name: raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")")), ppid: Number(f[1]), ticks: [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0) };
}

/** treeTicks is the CPU, in clock ticks, of every live Chromium process
 * below this one, with what each has reaped of its own children: Chromium's zygote
 * reaps the renderers of closed pages, so their time is in it until the
 * browser closes. */
function treeTicks() {
  const kids = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try { kids.set(Number(d), procStat(d)); } catch { /* gone */ }
  }
  let sum = 0;
  // Chromium's processes only: a site the file started is not Chromium.
  const under = (pid) => { for (const [k, v] of kids) if (v.ppid === pid) { if (/chrom/i.test(v.name)) sum += v.ticks; under(k); } };
  under(process.pid);
  return sum;
}
let chromiumTicks = 0;
const counts = { contexts: 0, loads: 0 };

// Chromium's headless shell (Debian's chromium-headless-shell: the same
// Blink and V8 without the browser's own layers) loads a page for about
// 40 % of the full browser's CPU (ADR 053, item 17): the suite runs in it.
// Only the Push API needs the full browser (the shell has no push service
// nor a notification permission): launch({ full: true }).
export const SHELL = "/usr/bin/chromium-headless-shell";
export const FULL = "/usr/bin/chromium";

export async function launch({ full = false } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || (full ? FULL : SHELL),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Every context waits up to the suite's ceiling for what a test asks of
  // it (an element, a response, a navigation), not Playwright's 30 s.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(CEILING);
    counts.contexts++;
    context.on("page", (page) => page.on("load", () => { counts.loads++; }));
    return context;
  };
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    if (process.env.E2E_CPU_LOG) try { chromiumTicks += treeTicks(); } catch { /* not Linux */ }
    return close(...args);
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    page.setDefaultTimeout(CEILING);
    return page;
  };
  return browser;
}

/** expectedNoSession is Chromium's log line for the admin app's question
 * on load, GET /api/admin/session, answered 401 when the session the
 * browser presents has ended (docs/admin-auth-api.md; with none at all it
 * is a 204 and logs nothing). */
export function expectedNoSession(m) {
  return m.type() === "error" && /status of 401/.test(m.text()) && new URL(m.location()?.url || "http://x/").pathname === "/api/admin/session";
}

/** open loads a page and records console errors, page errors and React
 * hydration warnings (#418/#423/#425 in the production build). */
/** opts: js false turns JavaScript off; init runs before the page's own
 * scripts; storageState starts with a saved context's cookies (an account
 * session, say). */
export async function open(browser, path, viewport = DESKTOP, opts = {}) {
  const context = await browser.newContext({ viewport, javaScriptEnabled: opts.js !== false, storageState: opts.storageState });
  if (opts.init) await context.addInitScript(opts.init);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (expectedNoSession(m)) return;
    if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  diagnose(page);
  const res = await gotoSettled(page, BASE + path);
  return { context, page, problems, res };
}

/** LIVE_STREAM is the admin app's live stream of lead changes, a request
 * that stays open as long as the screen (ADR 041): Chromium's own
 * "networkidle" never comes while it is open, so settle leaves it out. */
const LIVE_STREAM = /\/api\/admin\/leads\/events$/;

/** settle runs nav (a goto or a reload that waits for "load"), then waits
 * until the page has had no request in flight for 500 ms, the live stream
 * aside: "networkidle" for pages that hold a stream open. The ceiling
 * names the requests still open when it runs out. */
export async function settle(page, nav, ceiling = CEILING) {
  const inflight = new Set();
  const on = (r) => { if (!LIVE_STREAM.test(new URL(r.url()).pathname)) inflight.add(r); };
  const off = (r) => { inflight.delete(r); };
  // A request is done once the server has answered it, whether or not
  // the page goes on to read the whole body.
  const answered = (res) => { inflight.delete(res.request()); };
  // A navigation that commits ends the old document's requests: Chromium
  // reported nothing more of one the old page sent as it was replaced (the
  // content editor's check, fetched just after a save, when the test
  // reloaded at once), and the settle waited for it forever.
  const onNav = (frame) => {
    if (frame !== page.mainFrame()) return;
    for (const r of inflight) if (!r.isNavigationRequest()) inflight.delete(r);
  };
  page.on("request", on);
  page.on("response", answered);
  page.on("framenavigated", onNav);
  page.on("requestfinished", off);
  page.on("requestfailed", off);
  try {
    const res = await nav();
    const end = Date.now() + ceiling;
    let quietSince = Date.now();
    for (;;) {
      if (inflight.size) quietSince = Date.now();
      else if (Date.now() - quietSince >= 500) return res;
      if (Date.now() > end) throw new Error(`the page's requests did not settle within ${ceiling} ms: ${[...inflight].map((r) => r.url()).join(", ")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    page.off("request", on);
    page.off("response", answered);
    page.off("framenavigated", onNav);
    page.off("requestfinished", off);
    page.off("requestfailed", off);
  }
}

/** gotoSettled is page.goto that waits for settle. */
export const gotoSettled = (page, url) => settle(page, () => page.goto(url, { waitUntil: "load" }));

/** reloadSettled is page.reload that waits for settle. */
export const reloadSettled = (page) => settle(page, () => page.reload({ waitUntil: "load" }));

/** diagnose keeps what a failed wait should report: requests that
 * failed and the console's warnings (an island whose script did not load
 * says so there). */
export function diagnose(page) {
  if (page.__diag) return page.__diag;
  const diag = (page.__diag = []);
  page.on("requestfailed", (r) => diag.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on("console", (m) => { if (m.type() === "warning") diag.push(`console warning: ${m.text()}`); });
  return diag;
}

/** hydrated waits until React has attached: to every island of a public
 * page, or to #root for the fully hydrated admin app. Public islands
 * hydrate on interaction or visibility (ADR 010), so it first wakes each
 * one with the focusin event every trigger listens for. It polls with
 * page.evaluate because waitForFunction's polling needs eval, which the
 * site's CSP forbids. It waits up to the suite's ceiling. */
export async function hydrated(page, timeout = CEILING) {
  // The wake-up is sent again on every poll: the islands script starts
  // after the first paint (ADR 016) and arms its triggers only then, so
  // on a loaded machine one sent right after load could come before them.
  const wake = () => page.evaluate(() => {
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
    await wake();
    if (await page.evaluate(check)) return;
    await page.waitForTimeout(50);
  }
  const plain = await page.evaluate(() => Array.from(document.querySelectorAll("[data-island]"))
    .filter((el) => !Object.keys(el).some((k) => k.startsWith("__reactContainer")))
    .map((el) => `${el.dataset.island} (${el.dataset.hydrate || "not triggered"})`));
  throw new Error(`page did not hydrate within ${timeout} ms; islands still plain: ${plain.join(", ") || "none (no #root)"}; ${(page.__diag || []).join("; ") || "no failed request or warning recorded"}`);
}

/** until polls an async check until it returns true, and says whether
 * it did within timeout (the suite's ceiling unless a test bounds it on
 * purpose). Things React does after a browser event (a popover's toggle
 * event, say) land a task or two later, so it first polls every 50 ms;
 * the pause then grows by half each time up to 250 ms, so a long wait (a
 * job's next run, a minute away) asks the page or the server 4 times a
 * second, not 20: each check is a round trip through Chromium or a
 * request the server answers, on a machine the rest of the suite needs. */
export async function until(check, timeout = CEILING) {
  const end = Date.now() + timeout;
  let pause = 50;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(0, end - Date.now()))));
    pause = Math.min(250, pause * 1.5);
  }
  return !!(await check());
}

/** waitFor polls check like until and throws, naming what it waited
 * for, when the ceiling runs out first. */
export async function waitFor(what, check, timeout = CEILING) {
  if (!(await until(check, timeout))) throw new Error(`waited ${timeout} ms for ${what}`);
}

/** scrollSettled waits until the page has stopped scrolling: the same
 * scroll position for ten animation frames in a row (a smooth scroll
 * moves it every frame until it ends); with a selector, that element's
 * own scroll (a carousel's track). */
export async function scrollSettled(page, selector) {
  await page.evaluate((selector) => new Promise((resolve) => {
    const el = selector ? document.querySelector(selector) : null;
    const at = () => (el ? `${el.scrollLeft},${el.scrollTop}` : `${scrollX},${scrollY}`);
    let last = "", same = 0;
    const frame = () => {
      const now = at();
      if (now === last) same++;
      else { same = 0; last = now; }
      if (same >= 10) resolve();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }), selector);
}

/** PIN is the admin PIN the test server starts with (scripts/serve-test.sh). */
export const PIN = process.env.ADMIN_PIN || "482915";

/** unlockAdmin opens an admin path, enters the PIN with Enter and waits for
 * the unlocked layout. init, when given, runs before the page's scripts. */
export async function unlockAdmin(browser, path = "/admin", viewport = DESKTOP, { init } = {}) {
  const o = await open(browser, path, viewport);
  if (init) {
    await o.context.addInitScript(init);
    await reloadSettled(o.page);
  }
  await hydrated(o.page);
  await o.page.getByLabel("PIN").fill(PIN);
  await o.page.keyboard.press("Enter");
  await o.page.getByText("Access granted").waitFor();
  await o.page.locator("#admin-main").waitFor();
  return o;
}

/** startSite starts a site of its own (bin/site on a free port, with an
 * empty data folder), for tests that use up a per-address limit: every
 * browser request comes from 127.0.0.1, which the shared test server's
 * other tests need too. It resolves when /healthz answers; stop() kills
 * the server and removes its data. opts.bin runs another build of the
 * server than bin/site (a path from the repository's root). */
export async function startSite(env = {}, opts = {}) {
  const { spawn } = await import("node:child_process");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const net = await import("node:net");
  const port = await new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const p = srv.address().port;
      srv.close(() => resolve(p));
    }).on("error", reject);
  });
  const data = mkdtempSync(join(tmpdir(), "site-e2e-"));
  const base = `http://127.0.0.1:${port}`;
  const bin = new URL("../../" + (opts.bin || "bin/site"), import.meta.url).pathname;
  const root = new URL("../../", import.meta.url).pathname;
  let log = "";
  const child = spawn(bin, [], {
    cwd: root,
    env: { ...process.env, PORT: String(port), BASE_URL: base, DATA_DIR: data, ADMIN_PIN: PIN, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (c) => (log += c));
  child.stderr.on("data", (c) => (log += c));
  const stop = () => {
    child.kill();
    rmSync(data, { recursive: true, force: true });
  };
  const end = Date.now() + CEILING;
  while (Date.now() < end) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(base + "/healthz")).ok) return { base, data, stop, log: () => log };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error("site did not start:\n" + log);
}

/** postFromOwnAddress posts a form to path on base as a visitor of its
 * own: from a random loopback address when the site is on loopback, so
 * the per-address limits (the estimate form's five per ten minutes) are
 * left to the other tests on a shared server. It resolves to the status
 * and the body. */
export async function postFromOwnAddress(path, fields, base = BASE) {
  const http = await import("node:http");
  const { randomInt } = await import("node:crypto");
  const u = new URL(base + path);
  const body = new URLSearchParams(fields).toString();
  const loopback = /^(127\.|localhost$)/.test(u.hostname);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: "POST",
      localAddress: loopback ? `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}` : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Accept: "application/json" },
    }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

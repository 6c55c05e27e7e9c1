// The service worker (spec 7, ADR 013) in Chromium: a public
// page registers /sw.js after load; offline, a visited page comes from the
// worker's cache, any other page is the precached offline page with the
// 24/7 phone, and /admin is never answered from the cache.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, BASE, MOBILE, gotoSettled, reloadSettled, CEILING } from "./lib.mjs";
import { apiToken } from "./api.mjs";
import { adminApi } from "./settings-admin.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** swActive waits until the page's service worker is activated. */
async function swActive(page, timeout = CEILING) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return reg?.active?.state || null;
    });
    if (state === "activated") return;
    await page.waitForTimeout(100);
  }
  throw new Error("service worker not active within " + timeout + " ms");
}

/** goOffline cuts the network through the DevTools protocol, for the page
 * and for its service worker (a separate target whose fetches a page-level
 * emulation does not reach), like DevTools' Offline box. */
async function goOffline(browser, context, page, conditions = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", conditions);
  const { targetInfo } = await cdp.send("Target.getTargetInfo");
  const b = await browser.newBrowserCDPSession();
  const { targetInfos } = await b.send("Target.getTargets");
  const sw = targetInfos.find((t) => t.type === "service_worker" && t.browserContextId === targetInfo.browserContextId);
  assert.ok(sw, "a service worker target");
  // Commands to the worker go through its (non-flattened) session.
  const { sessionId } = await b.send("Target.attachToTarget", { targetId: sw.targetId, flatten: false });
  let id = 0;
  const pending = new Map();
  b.on("Target.receivedMessageFromTarget", (e) => {
    const m = JSON.parse(e.message);
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  const send = (method, params = {}) => new Promise((resolve) => {
    pending.set(++id, resolve);
    b.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
  });
  for (const [method, params] of [["Network.enable", {}], ["Network.emulateNetworkConditions", conditions]]) {
    const r = await send(method, params);
    assert.ok(!r.error, `${method} on the worker: ${JSON.stringify(r.error)}`);
  }
}

/** controlled opens path on a phone once the worker is active, reloaded
 * so the worker controls the page and keeps its copy. */
async function controlled(path) {
  const o = await open(browser, path, MOBILE);
  await hydrated(o.page);
  await swActive(o.page);
  await reloadSettled(o.page);
  assert.ok(await o.page.evaluate(() => !!navigator.serviceWorker.controller), "the worker controls the page");
  return o;
}

test("offline: visited pages from the cache, others the offline page with the phone, never /admin", async () => {
  const settings = await (await fetch(BASE + "/api/admin/settings", { headers: { Authorization: "Bearer " + (await apiToken()) } })).json();
  const visited = "/services/water-damage-restoration";
  const { context, page, problems } = await controlled(visited);
  // The admin area online, under the worker's scope: handled by the network only.
  await gotoSettled(page, BASE + "/admin");
  await gotoSettled(page, BASE + visited);
  const cached = await page.evaluate(async () => {
    const out = [];
    for (const name of await caches.keys()) {
      const c = await caches.open(name);
      for (const r of await c.keys()) out.push(new URL(r.url).pathname);
    }
    return out;
  });
  assert.ok(cached.includes("/offline"), "offline page precached: " + cached);
  assert.ok(cached.includes(visited), "visited page kept: " + cached);
  assert.ok(cached.some((p) => p.startsWith("/assets/")), "hashed assets kept: " + cached);
  assert.ok(!cached.some((p) => p === "/admin" || p.startsWith("/admin/") || p.startsWith("/api/")), "never /admin or /api: " + cached);

  await goOffline(browser, context, page);
  // A page never visited: the offline page, with the 24/7 phone as a tel: link.
  await page.goto(BASE + "/service-areas/fulton");
  await page.getByRole("heading", { name: "You are offline" }).waitFor();
  const call = page.locator('a[href^="tel:"]');
  assert.equal(await call.count(), 1);
  const digits = settings.phone.replace(/\D/g, "");
  assert.equal(await call.getAttribute("href"), "tel:+1" + digits);
  assert.ok((await call.textContent()).includes(settings.phone));
  assert.ok(await page.getByText(settings.businessName).first().isVisible());
  assert.ok(await page.getByText(settings.address.split(",")[0]).isVisible(), "the street address");
  // The visited page: its cached copy.
  await page.goto(BASE + visited);
  assert.equal(await page.locator("h1").textContent(), "Water Damage Restoration");
  // The admin area is never answered from the cache.
  await assert.rejects(page.goto(BASE + "/admin"), /ERR_INTERNET_DISCONNECTED|ERR_FAILED|net::/);
  assert.deepEqual(problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource|net::/.test(p)), []);
  await context.close();
});

test("a slow network is not an offline one: a page never visited waits for its answer; a visited one may come from its copy", async () => {
  const visited = "/services/mold-remediation";
  const { context, page, problems } = await controlled(visited);
  // Every answer 4 s late, beyond the worker's 3 s for a kept copy.
  await goOffline(browser, context, page, { offline: false, latency: 4000, downloadThroughput: -1, uploadThroughput: -1 });
  await page.goto(BASE + "/service-areas/gwinnett", { timeout: CEILING });
  assert.equal(await page.getByRole("heading", { name: "You are offline" }).count(), 0, "the offline page shown to a visitor who is online");
  assert.match(await page.locator("h1").textContent(), /Gwinnett/, "the page asked for, however slow");
  await page.goto(BASE + visited, { timeout: CEILING });
  assert.match(await page.locator("h1").textContent(), /Mold/, "the visited page (its copy, or the network)");
  assert.deepEqual(problems.filter((p) => !/Failed to load resource|net::/.test(p)), []);
  await context.close();
});

test("a new worker version replaces the old one and deletes its caches", async () => {
  const { context, page } = await open(browser, "/", MOBILE);
  await hydrated(page);
  await swActive(page);
  const before = await page.evaluate(async () => (await caches.keys()).sort());
  assert.equal(before.length, 1);
  // A settings save changes the offline page, so the worker's version.
  // Saving settings is an admin account's (ADR 039).
  const admin = await adminApi();
  const st = await (await admin("/api/admin/settings")).json();
  const alt = { ...st, phone: st.phone === "(404) 555-0188" ? "(404) 555-0189" : "(404) 555-0188" };
  try {
    assert.equal((await admin("/api/admin/settings", { method: "PUT", body: JSON.stringify(alt) })).status, 200);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    const end = Date.now() + CEILING;
    let after = before;
    while (Date.now() < end) {
      after = await page.evaluate(async () => (await caches.keys()).sort());
      if (after.length === 1 && after[0] !== before[0]) break;
      await page.waitForTimeout(100);
    }
    assert.equal(after.length, 1, "old caches deleted: " + after);
    assert.notEqual(after[0], before[0], "the new worker's cache");
    const offline = await page.evaluate(async (name) => (await (await caches.open(name)).match("/offline")).text(), after[0]);
    assert.ok(offline.includes(alt.phone), "the new offline page is precached");
  } finally {
    await admin("/api/admin/settings", { method: "PUT", body: JSON.stringify(st) });
  }
  await context.close();
});

test("emergency mode off: 'Call us' with the business hours instead of the 24/7 bar", async () => {
  const admin = await adminApi();
  const st = await (await admin("/api/admin/settings")).json();
  try {
    const r = await admin("/api/admin/settings", { method: "PUT", body: JSON.stringify({ ...st, emergencyMode: false, businessHours: "Mo-Fr 07:00-17:00" }) });
    assert.equal(r.status, 200);
    const { context, page, problems } = await open(browser, "/", MOBILE);
    await hydrated(page);
    const bar = page.locator(".bluebar__emergency");
    assert.equal((await bar.textContent()).trim(), `Call us: ${st.phone} · Mon–Fri 7:00 AM–5:00 PM`);
    assert.equal(await page.getByText("24/7 Emergency:").count(), 0);
    // The drawer's call button (an island) hydrates with the same text.
    await page.getByRole("button", { name: "Open menu" }).click();
    assert.ok(await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: `Call us: ${st.phone}` }).isVisible());
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await admin("/api/admin/settings", { method: "PUT", body: JSON.stringify(st) });
  }
});

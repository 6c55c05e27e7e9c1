// Speed to lead in Chromium: the estimate form records where
// the visit came from (with JavaScript, from sessionStorage, never a
// cookie; without, from the Referer); staff add notes and change the
// status; admins see the source, assign and export with source; 'Notify
// me on this device' subscribes through the Push API; the admin's
// service worker shows a push; the dashboard's first response figures,
// Analytics' 'Leads by source / campaign' and the acknowledgement switch.
//
// It runs a site of its own (startSite): the estimate posts come from
// 127.0.0.1 and must not use up the shared server's per-address limit.
// SHOTS_DIR=/some/dir saves screenshots at 390 and 1280 px.
//
// What headless Chromium cannot reach here, and is tested in Go instead
// (server/speedtolead_test.go against a fake push service that checks
// the VAPID JWT and decrypts the payload): a real subscription at the
// browser's push service. Chromium refuses the Push API in its
// incognito-like test contexts ("Registration failed - permission
// denied"), and a persistent profile would have to register with Google's
// FCM over the network, which this machine does not have. So the first
// push test drives the real API up to pushManager.subscribe (permission,
// the admin's service worker, the server's VAPID key handed to the
// browser) and checks the refusal is shown; the second stands in for the
// browser's push service only (a subscription of FCM's shape) and checks
// the rest of the flow: the server stores it, the device is listed as
// this device, and removed. A notification's tap (notificationclick)
// cannot be dispatched from a test; the worker's push handler is driven
// through the DevTools protocol's ServiceWorker.deliverPushMessage.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { launch, hydrated, startSite, until, waitFor, expectedNoSession, DESKTOP, gotoSettled, reloadSettled } from "./lib.mjs";
import { addUser, apiSession, password, signIn, tag } from "./account.mjs";

const [TAG, Tag] = tag();
const STAFF = { email: `crew.${TAG}@example.com`, name: `Casey Crew ${Tag}`, password: password() };
const ADMIN = { email: `owner.${TAG}@example.com`, name: `Olive Owner ${Tag}`, password: password() };
const JS_LEAD = { name: `Jess Script${Tag}`, phone: "(770) 555-0142", email: `jess.${TAG}@example.com`, city: "Marietta" };
const NOJS_LEAD = { name: `Nora Plain${Tag}`, phone: "(678) 555-0187", email: "", city: "Smyrna" };
const CAMPAIGN = `spring-flood-${TAG}`;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

let site, browser, adminCtx, adminPage;
const problems = [];

before(async () => {
  site = await startSite();
  addUser(STAFF, "staff", site.data);
  addUser(ADMIN, "admin", site.data);
  // The real Push API: the full browser (lib.mjs).
  browser = await launch({ full: true });
});
after(async () => {
  await browser?.close();
  site?.stop();
});

/** watch records console errors and page errors (the 401 of the load-time
 * session check is expected). */
function watch(page, allow = () => false) {
  page.on("console", (m) => {
    if (expectedNoSession(m) || allow(m.text())) return;
    if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`${page.url()}: console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: pageerror: ${e.message}`));
}

async function newPage(viewport = WIDE, opts = {}) {
  const context = await browser.newContext({ viewport, javaScriptEnabled: opts.js !== false });
  if (opts.init) await context.addInitScript(opts.init);
  const page = await context.newPage();
  watch(page, opts.allow);
  return { context, page };
}

/** shoot saves a screenshot at 390 and 1280 px of target (or the page's
 * top), toasts closed, when SHOTS_DIR is set. */
async function shoot(page, name, target) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const was = page.viewportSize();
  for (const vp of [PHONE, WIDE]) {
    await page.setViewportSize(vp);
    for (const close of await page.locator(".toast button").all()) await close.click({ timeout: 1000 }).catch(() => {});
    await page.waitForTimeout(300);
    if (target) await target.evaluate((el) => { el.scrollIntoView({ block: "start" }); window.scrollBy(0, -70); });
    else await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/${name}-${vp.width}.png` });
  }
  await page.setViewportSize(was);
}

async function fillEstimate(page, l) {
  await page.getByLabel("Full name *").fill(l.name);
  await page.getByLabel("Phone *").fill(l.phone);
  if (l.email) await page.getByLabel("Email").fill(l.email);
  await page.getByLabel("City *").fill(l.city);
  await page.getByLabel("Type of damage *").selectOption("Water Damage");
  await page.getByLabel("Yes").check();
}

/** adminSession signs the admin in once (the first time with the
 * authenticator's set-up) and keeps the page for the admin's tests. */
async function adminSession() {
  if (adminPage) return adminPage;
  const o = await newPage(WIDE);
  adminCtx = o.context;
  adminPage = o.page;
  await gotoSettled(adminPage, site.base + "/admin/leads");
  await hydrated(adminPage);
  await signIn(adminPage, ADMIN);
  return adminPage;
}

/** staffPage signs staff in at the gate of /admin/leads. */
async function staffPage(viewport = WIDE, opts = {}) {
  const o = await newPage(viewport, opts);
  if (opts.permissions) await o.context.grantPermissions(opts.permissions, { origin: site.base });
  await gotoSettled(o.page, site.base + "/admin/leads");
  await hydrated(o.page);
  await signIn(o.page, STAFF);
  await o.page.getByText("Staff Access").waitFor();
  return o;
}

test("with JavaScript the form carries the visit's source, kept in sessionStorage and never in a cookie", async () => {
  const { context, page } = await newPage(WIDE);
  await gotoSettled(page, `${site.base}/services/water-damage-restoration?utm_source=google&utm_medium=cpc&utm_campaign=${CAMPAIGN}&gclid=GCL-${TAG}`);
  // The scripts record the visit after the first paint (ADR 016): wait
  // for it, not for the load.
  await waitFor("the visit's source kept in sessionStorage", () => page.evaluate(() => sessionStorage.getItem("visit_attribution") !== null));
  const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem("visit_attribution") || "null"));
  assert.equal(kept.landing, `/services/water-damage-restoration?utm_source=google&utm_medium=cpc&utm_campaign=${CAMPAIGN}&gclid=GCL-${TAG}`);
  assert.equal(kept.utm_campaign, CAMPAIGN);
  assert.equal(kept.device, "laptop");
  assert.match(kept.visit, /^[A-Za-z0-9_-]{22}$/);
  // A later page of the visit keeps the first one's record.
  await gotoSettled(page, site.base + "/estimate");
  assert.deepEqual(await page.evaluate(() => JSON.parse(sessionStorage.getItem("visit_attribution"))), kept);
  assert.doesNotMatch(await page.evaluate(() => document.cookie), /utm|visit|gclid|landing/);
  assert.equal((await context.cookies()).length, 0, "no cookie at all on the public site");
  await hydrated(page);
  await fillEstimate(page, JS_LEAD);
  const post = page.waitForRequest((r) => r.url().endsWith("/api/estimate") && r.method() === "POST");
  await page.getByRole("button", { name: "Request My Free Estimate" }).click();
  const sent = new URLSearchParams((await post).postData());
  assert.equal(sent.get("utm_source"), "google");
  assert.equal(sent.get("utm_campaign"), CAMPAIGN);
  assert.equal(sent.get("gclid"), `GCL-${TAG}`);
  assert.equal(sent.get("landing"), kept.landing);
  assert.equal(sent.get("visit"), kept.visit);
  await page.getByText("Thank you! Your estimate request was received.").waitFor();
  await context.close();
});

test("without JavaScript the server reads the source from the Referer of the form's page", async () => {
  const { context, page } = await newPage(WIDE, { js: false });
  await page.goto(`${site.base}/estimate?utm_source=newsletter&utm_medium=email&utm_campaign=nojs-${TAG}`);
  const hidden = await page.locator("form.estimate-form input[type=hidden]").evaluateAll((els) => els.map((e) => e.name));
  for (const f of ["landing", "referrer", "device", "visit", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "gbraid", "wbraid", "fbclid", "msclkid"]) {
    assert.ok(hidden.includes(f), `hidden field ${f}`);
  }
  await fillEstimate(page, NOJS_LEAD);
  await Promise.all([page.waitForURL(/\/estimate\/thanks/), page.getByRole("button", { name: "Request My Free Estimate" }).click()]);
  await context.close();
});

test("staff add a note and change the status; the timeline shows both with who and when", async () => {
  const { context, page } = await staffPage(WIDE);
  const notes = page.getByRole("button", { name: `Notes and timeline for ${JS_LEAD.name}` });
  await notes.waitFor();
  await notes.click();
  const dialog = page.getByRole("dialog", { name: `Lead: ${JS_LEAD.name}` });
  await dialog.waitFor();
  // Masked, as the list: no full phone or email, no source.
  await dialog.getByText("(770) ***-**42").waitFor();
  assert.equal(await dialog.getByText("555-0142").count(), 0);
  assert.equal(await dialog.getByText(JS_LEAD.email).count(), 0);
  assert.equal(await dialog.getByRole("heading", { name: "Source" }).count(), 0);
  const timeline = dialog.getByRole("list", { name: "Timeline, oldest first" });
  await timeline.getByText("Estimate request received (website)").waitFor();
  assert.equal(await dialog.getByRole("combobox", { name: "Assigned to" }).count(), 0, "staff cannot assign");
  await dialog.getByText("Nobody yet").waitFor();
  // An empty note is refused with the server's message.
  await dialog.getByRole("button", { name: "Add note" }).click();
  await dialog.getByRole("alert").getByText("Please write the note.").waitFor();
  await dialog.getByRole("textbox", { name: "Note" }).fill(`Called back, water is off ${TAG}`);
  await dialog.getByRole("button", { name: "Add note" }).click();
  await page.getByText("The note is on the lead's timeline.").waitFor();
  await timeline.getByText(`${STAFF.name} added a note`).waitFor();
  await timeline.getByText(`Called back, water is off ${TAG}`).waitFor();
  await dialog.getByText(/^First response after /).waitFor();
  await dialog.getByRole("combobox", { name: `Status for ${JS_LEAD.name}` }).selectOption("contacted");
  await page.getByText("Lead status changed to contacted").waitFor();
  await timeline.getByText(`${STAFF.name} changed the status from new to contacted`).waitFor();
  await shoot(page, "staff-lead-dialog", dialog);
  // Escape closes it; the row shows the new status.
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal(await page.getByRole("combobox", { name: `Status for ${JS_LEAD.name}` }).first().inputValue(), "contacted");
  await shoot(page, "staff-leads");
  await context.close();
});

test("admins see the lead's source, assign it, and export with source", async () => {
  const page = await adminSession();
  await page.getByText("Admin Access").waitFor();
  await page.getByRole("button", { name: `Details for ${JS_LEAD.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Lead details: ${JS_LEAD.name}` });
  await dialog.waitFor();
  const source = dialog.locator(".al-source");
  await source.getByText("/services/water-damage-restoration").waitFor();
  for (const [label, value] of [["UTM source", "google"], ["UTM medium", "cpc"], ["UTM campaign", CAMPAIGN], ["Google click id (gclid)", `GCL-${TAG}`], ["Device", "laptop"]]) {
    assert.equal((await source.locator("div", { has: page.locator("dt", { hasText: new RegExp(`^${label.replace(/[()]/g, "\\$&")}$`) }) }).locator("dd").innerText()).trim(), value, label);
  }
  const timeline = dialog.getByRole("list", { name: "Timeline, oldest first" });
  await timeline.getByText(`Called back, water is off ${TAG}`).waitFor();
  await timeline.getByText(`${STAFF.name} changed the status from new to contacted`).waitFor();
  // Assign to staff.
  await dialog.getByRole("combobox", { name: "Assigned to" }).selectOption({ label: `${STAFF.name} (staff)` });
  await page.getByText(`Assigned to ${STAFF.name}`).waitFor();
  await timeline.getByText(`${ADMIN.name} assigned the lead to ${STAFF.name}`).waitFor();
  await shoot(page, "admin-lead-dialog", dialog.getByRole("heading", { name: "Source" }));
  await shoot(page, "admin-lead-timeline", dialog.getByRole("heading", { name: "Timeline" }));
  await page.keyboard.press("Escape");
  // The no-JavaScript lead: its source from the Referer.
  await page.getByRole("button", { name: `Details for ${NOJS_LEAD.name}` }).click();
  const other = page.getByRole("dialog", { name: `Lead details: ${NOJS_LEAD.name}` });
  await other.locator(".al-source").getByText(`nojs-${TAG}`).waitFor();
  assert.equal((await other.locator(".al-source div", { has: page.locator("dt", { hasText: /^Landing page$/ }) }).locator("dd").innerText()).trim(), "/estimate");
  await page.keyboard.press("Escape");
  // Export with source.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export with source" }).click()]);
  assert.equal(download.suggestedFilename(), "leads-export-with-source.csv");
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...rows] = csv.trim().split("\n");
  assert.equal(header, "ID,Date,Name,Phone,Email,City,Damage Type,Status,Emergency,Street Address,ZIP,Insurance Carrier,Message,Landing Page,Referrer,UTM Source,UTM Medium,UTM Campaign,UTM Term,UTM Content,GCLID,GBRAID,WBRAID,FBCLID,MSCLKID,Device,Visit ID");
  assert.ok(rows.some((r) => r.includes(JS_LEAD.name) && r.includes(CAMPAIGN) && r.includes(`GCL-${TAG}`)), csv);
  await shoot(page, "admin-leads");
});

test("'Notify me on this device': the real Push API up to the browser's push service", async () => {
  // Record what the page hands pushManager.subscribe, then let the real
  // call go on.
  const init = () => {
    const real = PushManager.prototype.subscribe;
    PushManager.prototype.subscribe = function (opts) {
      window.__subscribeKey = Array.from(new Uint8Array(opts.applicationServerKey));
      return real.call(this, opts);
    };
  };
  const { context, page } = await staffPage(WIDE, { permissions: ["notifications"], init, allow: (t) => /Push API in incognito mode/.test(t) });
  const card = page.locator(".al-push");
  // The card has read the account's devices (what it shows next to the
  // button depends on them) before the person presses it.
  await card.getByText("No device gets notifications for your account yet.").waitFor();
  const keyAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/push/key");
  await card.getByRole("button", { name: "Notify me on this device" }).click();
  const key = await (await keyAnswer).json();
  assert.equal(key.enabled, true);
  assert.equal(key.maxDevices, 10);
  // Either the browser subscribes (a browser with its push service
  // reachable), or its refusal is shown. Here: Chromium's test contexts
  // are incognito, where it refuses the Push API.
  const outcome = await Promise.race([
    card.getByRole("alert").waitFor().then(() => "refused"),
    card.getByText("On for this device").waitFor().then(() => "subscribed"),
  ]);
  const state = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration("/admin/");
    return { permission: Notification.permission, scope: reg?.scope, active: !!reg?.active, script: reg?.active?.scriptURL, key: window.__subscribeKey };
  });
  assert.equal(state.permission, "granted");
  assert.equal(state.scope, site.base + "/admin/");
  assert.equal(state.script, site.base + "/admin/sw.js");
  assert.ok(state.active, "the admin's service worker is active");
  const b64 = Buffer.from(key.publicKey, "base64url");
  assert.deepEqual(state.key, Array.from(b64), "the browser was given the server's VAPID key");
  console.log(`# push subscription in headless Chromium: ${outcome}${outcome === "refused" ? ` (${await card.getByRole("alert").innerText()})` : ""}`);
  if (outcome === "refused") {
    assert.match(await card.getByRole("alert").innerText(), /^The browser could not subscribe to its push service \(.+\)/);
  } else {
    await card.getByText("This device").waitFor();
  }
  await context.close();
});

test("'Notify me on this device' with the browser's push service stood in for: stored, listed as this device, removed", async () => {
  // Only the browser's push service is replaced: a subscription of FCM's
  // shape with real P-256 keys; everything else is the app's own code.
  const init = () => {
    let sub = null;
    const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    PushManager.prototype.getSubscription = async function () { return sub; };
    PushManager.prototype.subscribe = async function (opts) {
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      const p256dh = b64(await crypto.subtle.exportKey("raw", pair.publicKey));
      const auth = b64(crypto.getRandomValues(new Uint8Array(16)));
      const endpoint = "https://fcm.googleapis.com/fcm/send/e2e-" + b64(crypto.getRandomValues(new Uint8Array(12)));
      sub = { endpoint, options: { applicationServerKey: opts.applicationServerKey, userVisibleOnly: true },
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }), unsubscribe: async () => { sub = null; return true; } };
      return sub;
    };
  };
  const { context, page } = await staffPage(WIDE, { permissions: ["notifications"], init });
  const card = page.locator(".al-push");
  await card.getByText("No device gets notifications for your account yet.").waitFor();
  await shoot(page, "push-card-empty", card);
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/push/subscriptions");
  await card.getByRole("button", { name: "Notify me on this device" }).click();
  assert.equal((await saved).status(), 201);
  // The toast's title, not the card's heading ("Phone notifications On
  // for this device"), which also holds the words.
  await page.getByText("Notifications on", { exact: true }).waitFor();
  await card.getByText("On for this device").waitFor();
  const mine = card.getByRole("list", { name: "Your devices" }).getByRole("listitem");
  assert.equal(await mine.count(), 1);
  assert.match(await mine.first().innerText(), /Chrome on Linux\s*This device/i);
  assert.equal(await card.getByRole("button", { name: "Notify me on this device" }).count(), 0);
  await shoot(page, "push-card-on", card);
  // An admin may list every account's devices.
  const admin = await adminSession();
  await gotoSettled(admin, site.base + "/admin/leads");
  await admin.getByRole("button", { name: "Show every account's devices" }).click();
  const all = admin.getByRole("list", { name: "Every account's devices" });
  await all.getByRole("listitem").filter({ hasText: STAFF.name }).waitFor();
  assert.match(await all.innerText(), /Chrome on Linux/);
  await shoot(admin, "push-all-devices", admin.locator(".al-push"));
  // The server lists it for the account, without the endpoint.
  const api = await apiSession(STAFF, site.base);
  const list = await (await api("/api/admin/push/devices")).json();
  assert.equal(list.devices.length, 1);
  assert.doesNotMatch(JSON.stringify(list), /fcm\.googleapis/);
  // Remove it.
  await card.getByRole("button", { name: /^Remove Chrome on Linux \(this device\)/ }).click();
  await page.getByText("It no longer gets notifications of new leads.").waitFor();
  await card.getByText("No device gets notifications for your account yet.").waitFor();
  await card.getByRole("button", { name: "Notify me on this device" }).waitFor();
  assert.equal((await (await api("/api/admin/push/devices")).json()).devices.length, 0);
  await context.close();
});

test("the admin's service worker shows a push as the server composes it", async () => {
  const { context, page } = await staffPage(WIDE, { permissions: ["notifications"] });
  await until(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration("/admin/"))?.active));
  const cdp = await context.newCDPSession(page);
  const regs = new Promise((resolve) => cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
    const r = e.registrations.find((x) => x.scopeURL === site.base + "/admin/" && !x.isDeleted);
    if (r) resolve(r);
  }));
  await cdp.send("ServiceWorker.enable");
  const reg = await regs;
  let shown = [];
  // Each push is delivered once the one before it is shown, as pushes
  // reach a phone: two handed to the worker back to back while it was
  // still starting lost the second once, beside a loaded machine (the
  // DevTools delivery, not the worker: it never saw the push event).
  const push = async (m) => {
    const before = shown.length;
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: site.base, registrationId: reg.registrationId, data: JSON.stringify(m) });
    await waitFor(`the notification of the push titled '${m.title}'`, async () => {
      shown = await page.evaluate(async () => (await (await navigator.serviceWorker.getRegistration("/admin/")).getNotifications())
        .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url, sticky: n.requireInteraction })));
      return shown.length > before;
    });
  };
  await push({ title: "EMERGENCY: new lead, Water Damage in Marietta", body: "Jess Script · (770) ***-**42", url: "/admin/leads?lead=abc-123", lead: "abc-123", tag: "lead-abc-123", emergency: true });
  // A payload pointing elsewhere still opens the leads manager only.
  await push({ title: "New lead", body: "x", url: "https://evil.example/phish", tag: "lead-x" });
  shown.sort((a, b) => a.tag.localeCompare(b.tag));
  assert.deepEqual(shown, [
    { title: "EMERGENCY: new lead, Water Damage in Marietta", body: "Jess Script · (770) ***-**42", tag: "lead-abc-123", url: "/admin/leads?lead=abc-123", sticky: true },
    { title: "New lead", body: "x", tag: "lead-x", url: "/admin/leads", sticky: false },
  ]);
  await context.close();
});

test("the dashboard shows the first response median and 90th percentile for 7 and 30 days", async () => {
  const page = await adminSession();
  await gotoSettled(page, site.base + "/admin");
  const card = page.locator(".a-card", { has: page.getByRole("heading", { name: "First response time" }) });
  await card.waitFor();
  for (const label of ["Median, 7 days", "90th percentile, 7 days", "Median, 30 days", "90th percentile, 30 days"]) {
    const stat = card.locator(".a-stat", { has: page.locator(".a-stat__label", { hasText: new RegExp(`^${label}$`) }) });
    assert.match(await stat.locator(".a-stat__value").innerText(), /^\d+ (s|min)$|^\d+ h/, label);
  }
  await card.getByText("1 of 2 leads answered, last 7 days").first().waitFor();
  await shoot(page, "dashboard-first-response", card);
});

test("Analytics lists leads by source / campaign and calls by page", async () => {
  const page = await adminSession();
  await gotoSettled(page, site.base + "/admin/analytics");
  const card = page.locator(".a-card", { has: page.getByRole("heading", { name: "Leads by source / campaign" }) });
  await card.waitFor();
  const row = (source, campaign) => card.locator("tbody tr", { has: page.locator("th", { hasText: source }) }).filter({ hasText: campaign });
  await row("google / cpc", CAMPAIGN).waitFor();
  await row("newsletter / email", `nojs-${TAG}`).waitFor();
  assert.match(await row("google / cpc", CAMPAIGN).innerText(), /\b1\b[\s\S]*\b1\b[\s\S]*50\.0%/);
  await shoot(page, "analytics-lead-sources", card);
  await page.getByRole("tab", { name: "Conversions" }).click();
  await page.getByRole("heading", { name: "Calls by page" }).waitFor();
  await shoot(page, "analytics-calls-by-page", page.getByRole("heading", { name: "Calls by page" }));
});

test("System Settings switches the homeowner's acknowledgement", async () => {
  const page = await adminSession();
  await gotoSettled(page, site.base + "/admin/settings");
  const sw = page.getByRole("switch", { name: /^Acknowledgement email/ });
  await sw.waitFor();
  assert.equal(await sw.isChecked(), true, "on by default");
  await sw.uncheck();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await page.getByText("The website now shows the new details.").waitFor();
  await reloadSettled(page);
  await page.getByRole("switch", { name: /^Acknowledgement email/ }).waitFor();
  assert.equal(await page.getByRole("switch", { name: /^Acknowledgement email/ }).isChecked(), false, "saved off");
  await shoot(page, "settings-ack", page.getByRole("heading", { name: "Homeowner Acknowledgement" }));
  await page.getByRole("switch", { name: /^Acknowledgement email/ }).check();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await page.getByText("The website now shows the new details.").waitFor();
});

test("no console errors", async () => {
  await adminCtx?.close();
  assert.deepEqual(problems, []);
});

// A leads-first admin on a 390 × 844 phone: the dashboard opens on the
// leads nobody has answered (emergencies first, with their wait), the
// leads screen shows its first lead card in the first screen, an admin
// calls a homeowner from the row in one tap (the number revealed by the
// server, audited), and a staff member assigned to a lead sees its
// address and message but never its full phone or email.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import http from "node:http";
import { randomInt } from "node:crypto";
import { launch, open, hydrated, until, BASE, gotoSettled } from "./lib.mjs";
import { addUser, openAs, password, signIn as accountSignIn, tag } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const [TAG, Tag] = tag();
const ADMIN = { email: `admin.${TAG}@example.com`, name: `Ada Admin ${Tag}`, password: password() };
const STAFF = { email: `crew.${TAG}@example.com`, name: `Cal Crew ${Tag}`, password: password() };
const digits4 = () => String(randomInt(1000, 10000));
// Posted oldest first: the calm lead, then the emergency. The emergency
// is newer, and still listed first.
const CALM = { first: "Nora", last: `Calm${Tag}`, phone: `(404) 555-${digits4()}`, email: `nora.${TAG}@example.com`, city: "Smyrna",
  street: "", zip: "30080", damageType: "Mold", emergency: "no", notes: "" };
const URGENT = { first: "Omar", last: `Flood${Tag}`, phone: `(770) 555-${digits4()}`, email: `omar.${TAG}@example.com`, city: "Marietta",
  street: `48 Willow Creek Drive ${Tag}`, zip: "30062", damageType: "Water Damage", emergency: "yes", insuranceCarrier: "Acme Mutual",
  notes: `Water coming through the kitchen ceiling ${TAG}` };
const fullName = (l) => `${l.first} ${l.last}`;
const e164 = (p) => "+1" + p.replace(/\D/g, "");
/** secrets are the forms of a full phone or email staff must never get. */
const secrets = [URGENT, CALM].flatMap((l) => [l.phone, l.phone.replace(/\D/g, ""), e164(l.phone), l.phone.slice(-8), l.email]);

/** postEstimate sends the public estimate form, each from its own
 * loopback address so the per-address limit is left to other tests. */
function postEstimate(l) {
  const u = new URL(BASE + "/api/estimate");
  const body = new URLSearchParams({ name: fullName(l), phone: l.phone, email: l.email, city: l.city, street: l.street, zip: l.zip,
    damageType: l.damageType, emergency: l.emergency, insuranceCarrier: l.insuranceCarrier || "", notes: l.notes, website: "" }).toString();
  const loopback = /^(127\.|localhost$)/.test(u.hostname);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: "POST",
      localAddress: loopback ? `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}` : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Accept: "application/json" },
    }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => (res.statusCode === 201 || res.statusCode === 200 ? resolve() : reject(new Error(`estimate ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let browser, admin;
before(async () => {
  addUser(ADMIN, "admin");
  addUser(STAFF, "staff");
  await postEstimate(CALM);
  await postEstimate(URGENT);
  browser = await launch();
});
after(async () => { await browser?.close(); });

/** shoot saves the page (or target) at 390 and 1280 px when SHOTS_DIR is
 * set, toasts closed. */
async function shoot(page, name, target) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const was = page.viewportSize();
  for (const vp of [PHONE, WIDE]) {
    await page.setViewportSize(vp);
    for (const close of await page.locator(".toast button").all()) await close.click({ timeout: 1000 }).catch(() => {});
    await page.locator(".toast").first().waitFor({ state: "detached", timeout: 3000 }).catch(() => {});
    if (target) await target.evaluate((el) => { el.scrollIntoView({ block: "start" }); window.scrollBy(0, -70); });
    else await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/${name}-${vp.width}.png` });
  }
  await page.setViewportSize(was);
}

/** adminPage is the admin's phone, signed in once (with the second
 * factor's set-up) and kept for the tests that follow. */
async function adminPage() {
  if (admin) return admin;
  const o = await open(browser, "/admin", PHONE);
  await hydrated(o.page);
  await accountSignIn(o.page, ADMIN);
  admin = o;
  return o;
}

/** api calls the admin API from page, as the app does (cookie + CSRF header). */
const api = (page, path, init = {}) => page.evaluate(async ([path, init]) => {
  const r = await fetch(path, { ...init, headers: { "Content-Type": "application/json", "X-Requested-With": "fetch" } });
  return { status: r.status, body: await r.json().catch(() => null) };
}, [path, init]);

test("the dashboard opens on the unanswered leads, the emergency first with its wait", async () => {
  const { page, problems } = await adminPage();
  const list = page.getByRole("list", { name: "Leads waiting for an answer, emergencies first" });
  await list.waitFor();
  const items = list.getByRole("listitem");
  await items.filter({ hasText: fullName(URGENT) }).waitFor();
  const texts = await items.allInnerTexts();
  const urgent = texts.findIndex((t) => t.includes(fullName(URGENT)));
  const calm = texts.findIndex((t) => t.includes(fullName(CALM)));
  assert.ok(urgent >= 0 && calm >= 0, texts.join("\n"));
  assert.ok(urgent < calm, "the newer emergency is listed before the older calm lead");
  assert.match(texts[0], /Emergency/i, "the first lead waiting is an emergency");
  assert.match(texts[urgent], /waiting \d+ (s|min)/);
  // Above the fold on the phone, with a Call button, before any tool.
  const box = await items.nth(urgent).boundingBox();
  assert.ok(box && box.y + box.height <= PHONE.height, `the emergency is in the first screen (at ${box?.y})`);
  assert.ok(await items.nth(urgent).getByRole("button", { name: `Call ${fullName(URGENT)}` }).isVisible());
  // Today's figures, from the server.
  const today = page.getByRole("region", { name: "Today's leads" });
  for (const label of ["New leads today", "Answered today", "Emergencies today", "Median first response"]) await today.getByText(label).waitFor();
  // The sidebar names the new leads; Leads comes right after Dashboard.
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  const nav = page.getByRole("navigation", { name: "Admin navigation" });
  const links = await nav.getByRole("link").allInnerTexts();
  assert.equal(links[0], "Dashboard");
  assert.match(links[1], /^Secure Leads Manager/);
  await nav.getByRole("link", { name: /^Secure Leads Manager, \d+ new leads?$/ }).waitFor();
  await page.keyboard.press("Escape");
  await shoot(page, "dashboard");
  assert.deepEqual(problems, []);
});

test("the leads screen: the first lead card is in the first viewport; search and filters fold behind one control", async () => {
  const { page, problems } = await adminPage();
  await gotoSettled(page, BASE + "/admin/leads");
  await hydrated(page);
  const cards = page.getByRole("list", { name: "Leads, newest first" }).getByRole("listitem");
  await cards.first().waitFor();
  const box = await cards.first().boundingBox();
  assert.ok(box && box.y >= 0 && box.y + 120 <= PHONE.height, `the first lead card starts in the first 844 px (at ${box?.y})`);
  const fold = page.getByRole("button", { name: /^Search and filters/ });
  assert.equal(await fold.getAttribute("aria-expanded"), "false");
  assert.equal(await page.getByRole("searchbox", { name: "Search" }).isVisible(), false);
  // The 'Data Loaded' toast does not cover the control.
  const toast = page.locator(".toast", { hasText: "Data Loaded" });
  if (await toast.count()) {
    const t = await toast.boundingBox(), f = await fold.boundingBox();
    assert.ok(!t || !f || t.y >= f.y + f.height || t.y + t.height <= f.y, "the toast is clear of Search and filters");
  }
  await fold.click();
  await page.getByLabel("Emergency", { exact: true }).selectOption("true");
  await page.getByRole("button", { name: "Search and filters 1 active" }).waitFor();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await fold.click();
  await shoot(page, "leads");
  assert.deepEqual(problems, []);
});

test("an admin calls the homeowner from the row: the number is revealed, then tel: opens", async () => {
  const { page, problems } = await adminPage();
  // Record a tel:/sms: navigation instead of leaving the page for a dialler.
  await page.evaluate(() => {
    window.__dialed = [];
    document.addEventListener("click", (e) => {
      const a = e.target instanceof Element ? e.target.closest("a") : null;
      if (a && /^(tel|sms):/.test(a.getAttribute("href") || "")) { window.__dialed.push(a.getAttribute("href")); e.preventDefault(); }
    }, true);
  });
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: fullName(URGENT) }) });
  await card.waitFor();
  assert.ok((await card.innerText()).includes("***"), "the row shows the masked number");
  const [reveal] = await Promise.all([
    page.waitForResponse((r) => /\/api\/admin\/leads\/[^/]+\/reveal$/.test(new URL(r.url()).pathname) && r.request().method() === "POST"),
    card.getByRole("button", { name: `Call ${fullName(URGENT)}` }).click(),
  ]);
  assert.equal(reveal.status(), 200);
  assert.equal((await reveal.json()).phoneHref, "tel:" + e164(URGENT.phone));
  assert.ok(await until(async () => (await page.evaluate(() => window.__dialed)).includes("tel:" + e164(URGENT.phone))), "tel: opened");
  assert.equal(await card.getByRole("link", { name: `Call ${fullName(URGENT)}` }).getAttribute("href"), "tel:" + e164(URGENT.phone));
  await card.getByRole("link", { name: `Text ${fullName(URGENT)}` }).click();
  assert.ok(await until(async () => (await page.evaluate(() => window.__dialed)).includes("sms:" + e164(URGENT.phone))), "sms: opened");
  // The reveal is in the audit log, against this lead.
  const audit = await api(page, "/api/admin/audit?perPage=20");
  // The log reads in sentences: the admin by email, the lead by the
  // homeowner's initials and city.
  const initials = `${URGENT.first[0]}. ${URGENT.last[0]}., ${URGENT.city}`;
  assert.ok(audit.body.entries.some((e) => e.who.includes(ADMIN.email) && e.sentence.includes(`revealed the phone number of ${initials}`)),
    `reveal audited: ${JSON.stringify(audit.body.entries.slice(0, 5))}`);
  // The dialog is ordered for the call; the two kinds of notes are named apart.
  await card.getByRole("button", { name: `Details for ${fullName(URGENT)}` }).click();
  const dialog = page.getByRole("dialog", { name: `Lead details: ${fullName(URGENT)}` });
  await dialog.waitFor();
  const labels = await dialog.locator("dl:not(.al-source) dt").allTextContents();
  assert.deepEqual(labels, ["First name", "Last name", "Phone", "Email", "Emergency", "Damage type", "Street address", "City", "ZIP code",
    "Message from the homeowner", "Insurance carrier", "Claim number", "ID", "Created", "Updated", "Source"]);
  await dialog.getByRole("heading", { name: "Team notes, not shown to the homeowner" }).waitFor();
  await dialog.getByRole("link", { name: `Call ${fullName(URGENT)}` }).waitFor();
  await shoot(page, "lead-dialog", dialog);
  await page.keyboard.press("Escape");
  assert.deepEqual(problems, []);
});

test("staff assigned to a lead see its address and message, never its full phone or email", async () => {
  const { page } = await adminPage();
  const attention = await api(page, "/api/admin/leads/attention");
  const lead = attention.body.waiting.find((l) => l.last_name === URGENT.last);
  assert.ok(lead, "the emergency is waiting");
  const users = await api(page, "/api/admin/users");
  const crew = users.body.users.find((u) => u.email === STAFF.email);
  assert.equal((await api(page, `/api/admin/leads/${lead.id}/assignee`, { method: "PUT", body: JSON.stringify({ userId: crew.id }) })).status, 200);

  const o = await openAs(browser, STAFF, "/admin/leads", PHONE);
  const card = o.page.getByRole("listitem").filter({ has: o.page.getByRole("heading", { name: fullName(URGENT) }) });
  await card.getByText(URGENT.street, { exact: false }).waitFor();
  await card.getByText(URGENT.notes).waitFor();
  assert.equal(await card.getByRole("button", { name: /^Call / }).count(), 0, "staff get no Call button");
  await card.getByRole("button", { name: `Notes and timeline for ${fullName(URGENT)}` }).click();
  const dialog = o.page.getByRole("dialog", { name: `Lead: ${fullName(URGENT)}` });
  await dialog.getByText(URGENT.street).waitFor();
  await shoot(o.page, "staff-lead-dialog", dialog);
  let html = await o.page.content();
  for (const s of secrets) assert.ok(!html.includes(s), `staff's leads screen holds ${s}`);
  await o.page.keyboard.press("Escape");
  // The calm lead, not theirs, shows no address.
  const other = o.page.getByRole("listitem").filter({ has: o.page.getByRole("heading", { name: fullName(CALM) }) });
  assert.ok(!(await other.innerText()).includes("Address"));
  // Their dashboard: the same leads waiting, masked.
  await gotoSettled(o.page, BASE + "/admin");
  await o.page.getByRole("list", { name: "Leads waiting for an answer, emergencies first" }).getByText(fullName(URGENT)).waitFor();
  html = await o.page.content();
  for (const s of secrets) assert.ok(!html.includes(s), `staff's dashboard holds ${s}`);
  await shoot(o.page, "staff-dashboard");
  await o.context.close();
});

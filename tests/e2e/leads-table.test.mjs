// The leads list where the owner reads it: a table from 768 px
// that fits at 1280 px, a card per lead below 768 px, emergencies marked,
// the phone one tap to call and the email one tap to write for an admin
// with full data, and no link to a masked number for staff.
// SHOTS=/some/dir saves screenshots of each view there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, open, hydrated, BASE, PIN, until } from "./lib.mjs";
import { signIn } from "./account.mjs";

const SITE = fileURLToPath(new URL("../../bin/site", import.meta.url));
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };
const WIDE = { width: 1700, height: 900 };

const TAG = Array.from(randomBytes(6), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");
const Tag = TAG[0].toUpperCase() + TAG.slice(1);
const pass = () => randomBytes(12).toString("base64url") + "-Aa1";
const STAFF = { email: `table.staff.${TAG}@example.com`, name: `Tess Staff ${Tag}`, password: pass() };
const ADMIN = { email: `table.admin.${TAG}@example.com`, name: `Owen Owner ${Tag}`, password: pass() };

const d4 = () => String(randomInt(1000, 10000));
// Full data, as long as the form allows in places: a long name, a long
// email, the longest damage type. Oldest first.
const LEADS = [
  { first: "Christopher", last: `Montgomery-Wellington${Tag}`, typed: `678555${d4()}`, email: `christopher.montgomery.${TAG}@example-restoration-customer.com`,
    city: "Lawrenceville", damageType: "Remodeling / Construction", emergency: "yes" },
  { first: "Ava", last: `Lindqvist${Tag}`, typed: `770-555-${d4()}`, email: `ava.${TAG}@example.com`, city: "Sandy Springs", damageType: "Fire & Smoke Damage", emergency: "no" },
  // Ten digits the form accepts but no possible US number: kept as typed, no tel: link.
  { first: "Dana", last: `Whitfield${Tag}`, typed: `123-456-${d4()}`, email: "", city: "Douglasville", damageType: "Storm Damage", emergency: "yes" },
];
for (const l of LEADS) {
  const d = l.typed.replace(/\D/g, "");
  l.name = `${l.first} ${l.last}`;
  l.display = d.startsWith("1") ? l.typed : `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
  l.href = d.startsWith("1") ? null : `tel:+1${d}`;
}
const [chris, ava, dana] = LEADS;

function addUser(u, role) {
  if (!process.env.DATA_DIR) throw new Error("DATA_DIR must name the test server's data folder (scripts/e2e.sh exports it)");
  const r = spawnSync(SITE, ["user", "add", "--email", u.email, "--role", role, "--name", u.name], {
    input: u.password + "\n", encoding: "utf8", timeout: 60_000, env: { ...process.env, ADMIN_PIN: PIN },
  });
  if (r.status !== 0) throw new Error(`bin/site user add ${role} failed (${r.status ?? r.signal}): ${r.stderr || ""}${r.stdout || ""}${r.error || ""}`);
}

/** postEstimate sends the public form from its own loopback address (the
 * per-IP limit stays intact for the other tests). */
function postEstimate(l) {
  const u = new URL(BASE + "/api/estimate");
  const body = new URLSearchParams({ name: l.name, phone: l.typed, email: l.email, city: l.city, street: "", zip: "", damageType: l.damageType,
    emergency: l.emergency, insuranceCarrier: "", notes: "", website: "" }).toString();
  const loopback = /^(127\.|localhost$)/.test(u.hostname);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: "POST",
      localAddress: loopback ? `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}` : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), Accept: "application/json" },
    }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => (res.statusCode === 201 ? resolve() : reject(new Error(`estimate ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let browser;
before(async () => {
  addUser(STAFF, "staff");
  addUser(ADMIN, "admin");
  for (const l of LEADS) {
    await postEstimate(l);
    await new Promise((r) => setTimeout(r, 20));
  }
  browser = await launch();
});
after(async () => { await browser?.close(); });

/** sessions are the saved browser states of the accounts signed in. */
const sessions = new Map();

/** openLeads signs u in at viewport and narrows the list to this run's
 * leads; full turns on 'Show full data'. */
async function openLeads(u, viewport, { full = false } = {}) {
  // The first view signs in at the gate; later ones reuse its cookie (the
  // account session survives a new tab), which spares a code per view.
  const o = await open(browser, "/admin/leads", viewport, { storageState: sessions.get(u.email) });
  const { page } = o;
  await hydrated(page);
  if (!sessions.has(u.email)) {
    await signIn(page, u);
    sessions.set(u.email, await o.context.storageState());
  }
  await page.getByText(u === ADMIN ? "Admin Access" : "Staff Access").waitFor();
  // Below 768 px search and filters fold behind one control.
  const fold = page.getByRole("button", { name: /^Search and filters/ });
  if ((await fold.getAttribute("aria-expanded")) === "false") await fold.click();
  await page.getByRole("searchbox", { name: "Search" }).fill(Tag);
  await page.getByText(/^Showing 1–3 of 3 leads/).waitFor();
  if (full) {
    await page.getByLabel("Show full data").check();
    await page.getByText("Showing 1–3 of 3 leads with full data.").waitFor();
  }
  await page.locator(".al-leads-wrap[aria-busy='false']").waitFor();
  return o;
}

/** overflow is how far the page, and the list's own scroller, reach past
 * their width (0: nothing to scroll sideways). */
const overflow = (page) => page.evaluate(() => {
  const wrap = document.querySelector(".al-leads-wrap");
  return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, list: wrap.scrollWidth - wrap.clientWidth };
});

async function shot(page, name) {
  if (!process.env.SHOTS) return;
  // Toasts close after 5 s; the list is what the picture is of.
  await until(async () => (await page.locator(".toast").count()) === 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(process.env.SHOTS, `${name}-full.png`), fullPage: true });
  await page.locator(".al-summary").evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 70));
  await page.screenshot({ path: join(process.env.SHOTS, `${name}.png`) });
}

/** links are the tel: and mailto: links in the list. */
const listLinks = (page) => page.locator(".al-leads-wrap").locator("a[href^='tel:'], a[href^='mailto:']");

test("admin, full data, 1280 px: the table fits, emergencies stand out, phone and email are links", async () => {
  const { context, page, problems } = await openLeads(ADMIN, LAPTOP, { full: true });
  assert.equal(await page.locator(".al-cards").count(), 0, "a table, not cards, at 1280 px");
  const rows = page.locator("table.al-leads tbody tr");
  assert.deepEqual(await rows.locator("th .al-name__text").allTextContents(), [dana.name, ava.name, chris.name], "newest first");
  assert.deepEqual(await overflow(page), { page: 0, list: 0 }, "nothing scrolls sideways");
  // Every column shown is inside the card, none clipped.
  const clipped = await page.evaluate(() => {
    const box = document.querySelector(".al-leads-wrap").getBoundingClientRect();
    return Array.from(document.querySelectorAll("table.al-leads th, table.al-leads td"))
      .filter((c) => c.getClientRects().length && c.getBoundingClientRect().right > box.right + 0.5).map((c) => c.textContent);
  });
  assert.deepEqual(clipped, []);
  // A date is two short lines at most (it was four).
  const heights = await page.locator("table.al-leads .al-when").evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e.querySelector("span")).lineHeight)));
  assert.ok(heights.every((h) => h < 2.6), `date heights in lines: ${heights}`);

  for (const l of LEADS) {
    const row = rows.filter({ hasText: l.name });
    const text = await row.textContent();
    // City, damage type and emergency are in the row, as columns or folded into the name cell.
    for (const v of [l.display, l.city, l.damageType]) assert.ok(text.includes(v), `${l.first}'s row shows ${v}`);
    const isEmergency = l.emergency === "yes";
    assert.equal(await row.evaluate((r) => r.classList.contains("al-row--emergency")), isEmergency, `${l.first}: emergency class`);
    assert.equal(await row.locator(".al-emergency:visible").count(), isEmergency ? 1 : 0, `${l.first}: one visible Emergency label`);
    if (isEmergency) {
      assert.equal(await row.locator(".al-emergency:visible").textContent(), "Emergency");
      const bg = await row.locator("td").first().evaluate((td) => getComputedStyle(td).backgroundColor);
      assert.notEqual(bg, "rgba(0, 0, 0, 0)", "an emergency row is tinted");
    }
    const tel = row.getByRole("link", { name: l.display });
    if (l.href) {
      assert.equal(await tel.getAttribute("href"), l.href, `${l.first}: tel: link`);
      assert.equal(await row.getByRole("link", { name: l.email }).getAttribute("href"), `mailto:${l.email}`);
    } else {
      assert.equal(await row.locator("a[href^='tel:']").count(), 0, `${l.first}: no tel: link for a number that could not be normalised`);
      assert.ok(text.includes(l.typed));
    }
  }
  assert.equal(await listLinks(page).count(), 4, "2 tel: and 2 mailto: links");
  await shot(page, "admin-full-1280");

  // The details dialog: the formatted number as a link, what was typed under it.
  await page.getByRole("button", { name: `Details for ${chris.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Lead details: ${chris.name}` });
  await dialog.waitFor();
  assert.equal(await dialog.getByRole("link", { name: chris.display }).getAttribute("href"), chris.href);
  assert.equal(await dialog.getByRole("link", { name: chris.email }).getAttribute("href"), `mailto:${chris.email}`);
  assert.ok((await dialog.textContent()).includes(`Typed: ${chris.typed}`));
  if (process.env.SHOTS) await page.screenshot({ path: join(process.env.SHOTS, "admin-details-1280.png") });
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });

  // Collapsing the sidebar widens the table; it still fits.
  await page.keyboard.press("Control+b");
  await until(async () => (await page.locator(".a-shell[data-state='collapsed']").count()) === 1);
  assert.deepEqual(await overflow(page), { page: 0, list: 0 }, "sidebar collapsed");
  await page.keyboard.press("Control+b");
  assert.deepEqual(problems, []);
  await context.close();
});

test("admin, full data, 1700 px: every column has room of its own", async () => {
  const { context, page, problems } = await openLeads(ADMIN, WIDE, { full: true });
  assert.deepEqual(await page.locator("table.al-leads thead th:visible").allTextContents(),
    ["Date", "Name", "Phone", "Email", "City", "Damage type", "Status", "Emergency", "Actions"]);
  assert.equal(await page.locator("table.al-leads .al-folded:visible").count(), 0, "nothing folded into the name cell");
  assert.deepEqual(await overflow(page), { page: 0, list: 0 });
  const row = page.locator("table.al-leads tbody tr", { hasText: chris.name });
  assert.equal(await row.locator(".al-emergency:visible").count(), 1, "the Emergency column marks it");
  await shot(page, "admin-full-1700");
  assert.deepEqual(problems, []);
  await context.close();
});

test("admin, full data, 390 px: one card per lead, nothing scrolls sideways", async () => {
  const { context, page, problems } = await openLeads(ADMIN, PHONE, { full: true });
  assert.equal(await page.locator("table.al-leads").count(), 0, "no table below 768 px");
  const cards = page.locator(".al-cards > li");
  assert.deepEqual(await cards.locator("h3").allTextContents(), [dana.name, ava.name, chris.name]);
  assert.deepEqual(await overflow(page), { page: 0, list: 0 });
  const outside = await cards.evaluateAll((els) => els.flatMap((c) => Array.from(c.querySelectorAll("*")))
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.outerHTML.slice(0, 80)));
  assert.deepEqual(outside, [], "every part of every card is on screen");
  for (const l of LEADS) {
    const card = cards.filter({ hasText: l.name });
    const text = await card.textContent();
    for (const v of [l.display, l.city, l.damageType]) assert.ok(text.includes(v), `${l.first}'s card shows ${v}`);
    const isEmergency = l.emergency === "yes";
    assert.equal(await card.evaluate((c) => c.classList.contains("al-card--emergency")), isEmergency);
    assert.equal(await card.getByText("Emergency", { exact: true }).count(), isEmergency ? 1 : 0);
    if (l.href) {
      const tel = card.getByRole("link", { name: l.display });
      assert.equal(await tel.getAttribute("href"), l.href);
      const box = await tel.boundingBox();
      assert.ok(box.height >= 44, `${l.first}: the call link is a 44 px target (${box.height})`);
      assert.equal(await card.getByRole("link", { name: l.email }).getAttribute("href"), `mailto:${l.email}`);
    } else {
      assert.equal(await card.locator("a[href^='tel:']").count(), 0);
    }
    assert.ok(await card.getByLabel(`Status for ${l.name}`).isVisible());
    assert.ok(await card.getByRole("button", { name: `Details for ${l.name}` }).isVisible());
  }
  await shot(page, "admin-full-390");
  // The details dialog fits the phone too, the number one tap to call.
  await page.getByRole("button", { name: `Details for ${chris.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Lead details: ${chris.name}` });
  await dialog.waitFor();
  assert.equal(await dialog.getByRole("link", { name: chris.display }).getAttribute("href"), chris.href);
  const box = await dialog.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `dialog ${box.x}+${box.width}`);
  if (process.env.SHOTS) await page.screenshot({ path: join(process.env.SHOTS, "admin-details-390.png") });
  await page.keyboard.press("Escape");
  assert.deepEqual(problems, []);
  await context.close();
});

test("admin, masked data: no tel: or mailto: link to a masked value", async () => {
  for (const viewport of [PHONE, LAPTOP]) {
    const { context, page, problems } = await openLeads(ADMIN, viewport);
    assert.match(await page.locator(".al-leads-wrap").textContent(), /\(678\) \*\*\*-\*\*\d\d/);
    assert.equal(await listLinks(page).count(), 0, `${viewport.width} px`);
    assert.deepEqual(await overflow(page), { page: 0, list: 0 });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("staff at 390 and 1280 px: masked, no links, emergencies marked, status still changes", async () => {
  for (const viewport of [PHONE, LAPTOP]) {
    const { context, page, problems } = await openLeads(STAFF, viewport);
    const narrow = viewport.width < 768;
    assert.equal(await page.locator(narrow ? ".al-cards" : "table.al-leads").count(), 1, `${viewport.width} px layout`);
    assert.deepEqual(await overflow(page), { page: 0, list: 0 }, `${viewport.width} px: nothing scrolls sideways`);
    assert.equal(await listLinks(page).count(), 0, "no link to a masked phone or email");
    const list = await page.locator(".al-leads-wrap").textContent();
    for (const l of LEADS) {
      const digits = l.typed.replace(/\D/g, "");
      for (const secret of [l.display, l.typed, digits.slice(-7)]) assert.ok(!list.includes(secret), `staff see ${secret}`);
      assert.ok(list.includes(`(${digits.slice(0, 3)}) ***-**${digits.slice(-2)}`), `${l.first}'s masked number`);
      if (l.email) assert.ok(!list.includes(l.email));
    }
    assert.equal(await page.locator(narrow ? ".al-card--emergency" : ".al-row--emergency").count(), 2, "both emergencies are marked");
    await shot(page, `staff-${viewport.width}`);

    const status = page.getByLabel(`Status for ${ava.name}`);
    const next = narrow ? "scheduled" : "contacted";
    const patched = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().includes("/api/admin/leads/"));
    await status.selectOption(next);
    assert.equal((await patched).status(), 200);
    await page.getByText(`Lead status changed to ${next}`).waitFor();
    assert.ok(await until(async () => (await page.getByLabel(`Status for ${ava.name}`).inputValue()) === next));
    assert.deepEqual(problems, []);
    await context.close();
  }
});

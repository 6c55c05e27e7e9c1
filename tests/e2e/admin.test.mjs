import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, open, hydrated, unlockAdmin, BASE, DESKTOP, MOBILE, gotoSettled, reloadSettled, until } from "./lib.mjs";
import { apiToken } from "./api.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("wrong PIN stays locked with the spec's toast", async () => {
  const { context, page } = await open(browser, "/admin");
  await hydrated(page);
  assert.ok(await page.getByRole("heading", { name: "Admin Access Required" }).isVisible());
  assert.ok(await page.getByText("Enter your PIN to access the admin panel").isVisible());
  await page.getByLabel("PIN").fill("000001");
  await page.getByRole("button", { name: "Unlock" }).click();
  await page.getByText("Access denied").waitFor();
  assert.ok(await page.getByText("Incorrect PIN entered.").first().isVisible());
  assert.ok(await page.getByRole("heading", { name: "Admin Access Required" }).isVisible());
  await context.close();
});

test("unlock, move between admin pages without re-locking, reload locks", async () => {
  const { context, page, problems } = await unlockAdmin(browser, "/admin/settings");
  assert.ok(await page.getByText("Welcome to the admin panel.").isVisible());
  await page.getByRole("heading", { name: "System Settings" }).waitFor();
  const nav = page.getByRole("navigation", { name: "Admin navigation" });
  await nav.getByRole("link", { name: "Photo Upload" }).click();
  await page.getByRole("heading", { name: "Photo Upload" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/admin/upload");
  // The tiles are the server's figures: the route table's county and city
  // pages, the latest audit and scan, and '—' where nothing is measured.
  // The site's own audit and scan may finish while the dashboard loads, so
  // each such tile shows the figure from just before or just after.
  const token = await apiToken();
  const read = async (path) => (await fetch(BASE + path, { headers: { Authorization: "Bearer " + token } })).json();
  const seoTile = (audit) => (audit.run ? `${audit.run.score}%` : "—");
  const secTile = (sec) => (sec.scan ? String(sec.vulnerabilities.filter((v) => v.status === "open").length) : "—");
  const before = { seo: seoTile(await read("/api/admin/seo-audit")), sec: secTile(await read("/api/admin/security")) };
  await nav.getByRole("link", { name: "Dashboard" }).click();
  await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
  const { routes } = await read("/api/admin/routes");
  const tile = (l) => page.locator(".a-stat").filter({ has: page.getByText(l, { exact: true }) }).locator(".a-stat__value");
  await page.locator(".a-stat__value", { hasText: /^…$/ }).first().waitFor({ state: "detached" });
  assert.equal(await tile("Location Pages").innerText(), String(routes.filter((r) => ["county", "city", "city-profile"].includes(r.component)).length));
  // Page Speed is '—' until real visitors report Core Web Vitals (earlier
  // test files may have sent some), then spec 5's score of the p75s.
  const vitals = await read("/api/admin/vitals");
  if (vitals.samples === 0) {
    assert.equal(await tile("Page Speed").innerText(), "—", "no invented number before real visitors are measured");
  } else {
    const points = { good: 100, "needs-improvement": 60, poor: 20 };
    const score = Math.round(vitals.overall.reduce((s, o) => s + points[o.status], 0) / vitals.overall.length);
    assert.equal(await tile("Page Speed").innerText(), String(score), "the score of the measured p75s");
  }
  const after = { seo: seoTile(await read("/api/admin/seo-audit")), sec: secTile(await read("/api/admin/security")) };
  const seo = await tile("SEO Score").innerText();
  assert.ok([before.seo, after.seo].includes(seo), `SEO Score ${seo}: the server's figure was ${before.seo} before and ${after.seo} after`);
  const issues = await tile("Security Issues").innerText();
  assert.ok([before.sec, after.sec].includes(issues), `Security Issues ${issues}: the server's figure was ${before.sec} before and ${after.sec} after`);
  await page.getByText("How these figures are computed").click();
  assert.ok(await page.getByText(/county pages \(under \/service-areas\/\)/).isVisible());
  // Back button stays inside the unlocked app.
  await page.goBack();
  await page.getByRole("heading", { name: "Photo Upload" }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem("admin_authenticated")), "true");
  // A full reload locks again.
  await reloadSettled(page);
  await hydrated(page);
  await page.getByRole("heading", { name: "Admin Access Required" }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem("admin_authenticated")), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test("Ctrl+B toggles the sidebar and the state is kept in a cookie", async () => {
  const { context, page } = await unlockAdmin(browser);
  const shell = page.locator(".a-shell");
  assert.equal(await shell.getAttribute("data-state"), "expanded");
  await page.keyboard.press("Control+b");
  assert.equal(await shell.getAttribute("data-state"), "collapsed");
  const cookies = await context.cookies();
  const c = cookies.find((c) => c.name === "sidebar_state");
  assert.equal(c?.value, "false");
  assert.ok(c.expires - Date.now() / 1000 > 6.9 * 86400, "cookie lasts 7 days");
  const sidebarWidth = async (w) => {
    let got;
    await until(async () => (got = await page.locator(".a-sidebar").evaluate((el) => el.getBoundingClientRect().width)) === w);
    assert.equal(got, w, "sidebar width");
  };
  await sidebarWidth(48); // icon-only sidebar is 3rem
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  assert.equal(await shell.getAttribute("data-state"), "expanded");
  await sidebarWidth(256); // expanded sidebar is 16rem
  await context.close();
});

test("below 768 px the sidebar is a drawer", async () => {
  const { context, page } = await unlockAdmin(browser, "/admin", MOBILE);
  const sidebar = page.locator("#admin-sidebar");
  assert.equal(await sidebar.isVisible(), false);
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  assert.ok(await sidebar.isVisible());
  assert.equal(await sidebar.evaluate((el) => el.getBoundingClientRect().width), 288, "drawer is 18rem");
  await page.keyboard.press("Escape");
  assert.equal(await sidebar.isVisible(), false);
  await context.close();
});

test("upload a photo, see it in the admin grid and on /portfolio, then delete it", async () => {
  const { context, page, problems } = await unlockAdmin(browser, "/admin/upload");
  await page.getByRole("heading", { name: "Photo Upload" }).waitFor();
  const select = page.getByRole("button", { name: "Select Photos & Videos" });
  assert.equal(await select.isDisabled(), true, "disabled while the project name is empty");
  await page.getByLabel("Project name").fill("  Kitchen Repair Test  ");
  assert.equal(await select.isDisabled(), false);
  await page.locator('input[type="file"]').setInputFiles({ name: "kitchen.jpg", mimeType: "image/jpeg", buffer: readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url)) });
  await page.getByText("kitchen.jpg uploaded successfully!").waitFor();
  const grid = page.locator(".a-media__item");
  await grid.first().waitFor();
  assert.ok((await grid.first().textContent()).includes("Kitchen Repair Test"));
  assert.match(await page.getByRole("heading", { name: /Uploaded media \(\d+\)/ }).textContent(), /\(\d+\)/);

  // The public portfolio shows it (the cache was re-rendered).
  const pub = await context.newPage();
  await gotoSettled(pub, BASE + "/portfolio");
  assert.ok(await pub.getByText("Kitchen Repair Test").first().isVisible());
  const img = pub.locator('.slide img[alt^="Kitchen Repair Test"]').first();
  assert.equal(await img.getAttribute("loading"), "lazy");
  assert.ok(await img.getAttribute("width"));
  await pub.close();

  // Delete: the dialog cannot be dismissed by clicking outside.
  const item = page.locator(".a-media__item", { hasText: "Kitchen Repair Test" }).first();
  await item.getByRole("button", { name: /Delete/ }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor();
  await page.mouse.click(5, 5);
  assert.ok(await dialog.isVisible(), "outside click does not dismiss");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await page.getByText("Photo deleted successfully").waitFor();
  assert.equal(await dialog.isVisible(), false);
  assert.equal(await page.locator(".a-media__item", { hasText: "Kitchen Repair Test" }).count(), 0);
  const pub2 = await context.newPage();
  await gotoSettled(pub2, BASE + "/portfolio");
  assert.equal(await pub2.getByText("Kitchen Repair Test").count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a batch stops at the first failing file and shows what was stored", async () => {
  const { context, page } = await unlockAdmin(browser, "/admin/upload");
  await page.getByLabel("Project name").fill("Batch Failure Test");
  const jpg = readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url));
  await page.locator('input[type="file"]').setInputFiles([
    { name: "first.jpg", mimeType: "image/jpeg", buffer: jpg },
    { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is a text file pretending to be a photo") },
    { name: "third.jpg", mimeType: "image/jpeg", buffer: jpg },
  ]);
  await page.getByText("first.jpg uploaded successfully!").waitFor();
  await page.getByText(/^Upload failed: notes\.jpg: this file is not a photo or video/).waitFor();
  await page.getByRole("button", { name: "Select Photos & Videos" }).waitFor();
  assert.equal(await page.getByText("third.jpg uploaded successfully!").count(), 0, "the batch stopped");
  const items = page.locator(".a-media__item", { hasText: "Batch Failure Test" });
  assert.equal(await items.count(), 1, "the file stored before the failure is shown");
  await items.first().getByRole("button", { name: /Delete/ }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await page.getByText("Photo deleted successfully").waitFor();
  await context.close();
});

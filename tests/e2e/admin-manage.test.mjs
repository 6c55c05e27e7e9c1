// Admin screens: Content Management, Location Pages and Security Scanner
// (spec 2.4); Schema Management is tested in admin-schema.test.mjs, content
// editing in depth in admin-content.test.mjs. Each test opens its screen
// through the sidebar (the PIN for the tools; an editor account for the
// content screens, which the PIN cannot open), checks the spec's texts and
// works the screen's actions and tabs by keyboard.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, BASE, DESKTOP, MOBILE, unlockAdmin, PIN, gotoSettled, waitFor } from "./lib.mjs";
import { apiToken } from "./api.mjs";
import { apiSession, newEditor, openAs } from "./account.mjs";

/** server reads an admin endpoint with a token of its own. */
let token;
async function server(path) {
  token ??= await apiToken();
  const r = await fetch(BASE + path, { headers: { Authorization: "Bearer " + token } });
  assert.equal(r.status, 200, path);
  return r.json();
}

let browser, editor, asEditor;
before(async () => {
  browser = await launch();
  editor = newEditor();
  asEditor = await apiSession(editor);
});
after(async () => { await browser?.close(); });

/** unlock opens /admin unlocked (the shared helper in lib.mjs). */
const unlock = (viewport = DESKTOP) => unlockAdmin(browser, "/admin", viewport);

/** viaSidebar clicks a sidebar entry (opening the drawer on small screens)
 * and waits for the screen's single h1. */
async function viaSidebar(page, label, heading, path) {
  const sidebar = page.locator("#admin-sidebar");
  if (await page.locator('.a-shell[data-mobile="true"]').count()) {
    // Keyboard opens the drawer (also the path a keyboard user takes).
    await page.getByRole("button", { name: "Toggle sidebar" }).focus();
    await page.keyboard.press("Enter");
    await sidebar.getByRole("link", { name: label, exact: true }).waitFor();
  }
  await sidebar.getByRole("link", { name: label, exact: true }).click();
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  assert.equal(new URL(page.url()).pathname, path);
  assert.equal(await page.locator("h1").count(), 1, "exactly one h1");
}


/** selectedTab is the label of the selected tab. */
async function selectedTab(page) {
  return page.getByRole("tab", { selected: true }).innerText();
}

async function noOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

test("Content Management and Redirects need an admin or editor account: the PIN is pointed to the account sign-in, and reads Location Pages' figures without editing them", async () => {
  const { context, page, problems } = await unlock();
  const labels = await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link").allInnerTexts();
  for (const l of ["Content Management", "Redirects"]) assert.ok(!labels.includes(l), `the PIN's sidebar lists ${l}`);
  assert.ok(labels.includes("Location Pages"), "the PIN's sidebar lacks Location Pages");
  await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link", { name: "Location Pages" }).click();
  await page.getByRole("heading", { name: "Counties and Cities" }).waitFor();
  assert.ok(await page.getByText("Editing these pages, and adding a city, needs an admin or editor account").isVisible());
  assert.equal(await page.getByRole("link", { name: /^Add City/ }).count(), 0, "the PIN is offered Add City");
  assert.equal(await page.getByRole("link", { name: /^Edit County Page/ }).count(), 0, "the PIN is offered an edit");
  // Reached inside the app (Back to an old address): which sign-in opens it.
  await page.evaluate(() => { history.pushState(null, "", "/admin/content"); dispatchEvent(new PopStateEvent("popstate")); });
  await page.getByRole("heading", { name: "Not available with your sign-in" }).waitFor();
  assert.ok(await page.getByText("Content Management needs an admin or editor account.").isVisible());
  assert.ok(await page.getByRole("button", { name: "Sign in with your account" }).isVisible());
  for (const [path, title] of [["/admin/content", "Content Management"], ["/admin/redirects", "Redirects"]]) {
    await gotoSettled(page, BASE + path);
    // A reload locks the PIN session (spec 4): the gate asks for an account.
    await page.getByText(`The ${title} screen needs an account sign-in.`).waitFor();
    assert.ok(await page.getByLabel("Email", { exact: true }).evaluate((el) => el === document.activeElement), "the account form has the focus");
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("Content Management: the site's content by kind, each with its state, for an editor", async () => {
  const { context, page, problems } = await openAs(browser, editor, "/admin");
  await viaSidebar(page, "Content Management", "Content Management", "/admin/content");
  assert.equal(await page.getByText("not available yet").count(), 0, "no placeholder note");
  assert.ok(await page.getByRole("button", { name: "Create New Blog Post" }).isEnabled());
  const tabs = await page.getByRole("tab").allInnerTexts();
  assert.deepEqual(tabs, ["Blog posts", "Categories", "Services", "Counties", "Cities", "Fixed city pages", "Info pages", "Home page", "Words across the site", "FAQs"]);
  const posts = (await (await asEditor("/api/admin/content?perPage=200&kind=article")).json()).items;
  const list = page.getByRole("list", { name: "Blog posts" });
  await list.waitFor();
  assert.equal(await list.locator("> li").count(), posts.length, "every post");
  // Services by keyboard: the tabs move with the arrows.
  await page.getByRole("tab", { name: "Blog posts" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Services");
  const services = page.getByRole("list", { name: "Services" });
  await services.waitFor();
  const water = services.locator("> li").filter({ hasText: "Water Damage Restoration" });
  assert.ok(await water.getByText("Published", { exact: true }).isVisible());
  assert.equal(await water.getByRole("link", { name: /^View live/ }).getAttribute("href"), "/services/water-damage-restoration");
  await water.getByRole("link", { name: "Edit Water Damage Restoration" }).click();
  await page.getByRole("heading", { level: 1, name: "Water Damage Restoration" }).waitFor();
  assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Water Damage Restoration");
  assert.equal(await page.getByRole("group", { name: "FAQs" }).locator(".ac-pair").count() > 0, true, "the FAQs as question and answer groups");
  assert.ok(await noOverflow(page));
  assert.deepEqual(problems, []);
  await context.close();
});

test("Location Pages: figures from the route table and the sitemap, with how they are computed; each page opens in the editor", async () => {
  const { routes } = await server("/api/admin/routes");
  const sitemap = await (await fetch(BASE + "/sitemap.xml")).text();
  const countyPages = routes.filter((r) => r.component === "county");
  const cityPages = routes.filter((r) => r.component === "city" || r.component === "city-profile");
  const loc = await (await asEditor("/api/admin/locations")).json();
  assert.equal(loc.summary.cityPages, cityPages.length);
  const { context, page, problems } = await openAs(browser, editor, "/admin");
  await viaSidebar(page, "Location Pages", "Location Pages", "/admin/locations");
  const stat = (label) => page.locator(".a-stat").filter({ has: page.getByText(label, { exact: true }) }).locator(".a-stat__value");
  assert.equal(await stat("Counties").innerText(), String(countyPages.length));
  // Cities counts each city once (Atlanta has two pages, ADR 021).
  assert.equal(await stat("Cities").innerText(), String(loc.summary.cities));
  assert.equal(await stat("URLs in Sitemap").innerText(), String((sitemap.match(/<loc>/g) || []).length), "what /sitemap.xml lists");
  // textContent: the stat value is shown capitalised by CSS ("Not Checked").
  assert.match((await stat("Local Schema").textContent()).trim(), /^(Active|Inactive|Not checked)$/);
  assert.equal(await page.getByText("Sample figures", { exact: false }).count(), 0, "no sample notice");
  const how = page.locator("details.a-how");
  for (const t of ["County pages on the site", "Cities with a page, each counted once", "Every address the sitemap lists"]) {
    assert.ok(await how.getByText(t, { exact: false }).isVisible(), t);
  }
  for (const c of countyPages) {
    const name = c.path.split("/").pop();
    const card = page.locator(".a-card").filter({ has: page.locator(`a[href="${c.path}"]`) });
    assert.equal(await card.count(), 1, name);
  }
  for (const c of ["Fulton", "DeKalb", "Cobb", "Gwinnett", "Clayton", "Douglas", "Henry", "Cherokee"]) {
    assert.ok(await page.getByRole("heading", { name: new RegExp(`^${c} County`) }).isVisible(), c);
  }
  const cityLinks = page.locator('.am-cities > li > a[href^="/areas/"]');
  assert.equal(await cityLinks.count(), loc.summary.cities, "every city is listed once");
  const allHrefs = await page.locator('.am-cities a[href^="/areas/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.deepEqual([...new Set(allHrefs)].sort(), cityPages.map((r) => r.path).sort(), "every city page is linked");
  assert.equal(await page.getByRole("link", { name: /^Douglasville/ }).getAttribute("href"), "/areas/douglas/douglasville");
  assert.equal(await page.getByText(/not available yet/).count(), 0, "no placeholder note");
  for (const name of ["Edit County Page", "Add City"]) {
    const all = page.getByRole("link", { name: new RegExp(`^${name}`) });
    assert.equal(await all.count(), countyPages.length, `${name} per county`);
  }
  // An edit link for every city page (Atlanta's two included).
  await page.getByRole("link", { name: "Edit Douglasville" }).waitFor();
  const edits = page.getByRole("link", { name: /^Edit (?!County)/ });
  assert.equal(await edits.count(), loc.summary.cityPages, "an edit link per city page");
  assert.match(await edits.first().getAttribute("href"), /^\/admin\/content\?item=/);
  await page.getByRole("link", { name: "Edit County Page Douglas County page" }).click();
  await page.getByRole("heading", { level: 1, name: "Douglas" }).waitFor();
  assert.equal(await page.locator(".ac-meta").getByRole("link", { name: /^View live/ }).getAttribute("href"), "/service-areas/douglas");
  assert.deepEqual(problems, []);
  await context.close();
});

test("Security Scanner: the server's checks of itself, vulnerabilities with statuses, hardening, Run Full Scan waits 3 s", async () => {
  const rep = await server("/api/admin/security");
  assert.ok(rep.scan, "the boot scan has run");
  const { context, page, problems } = await unlock();
  await viaSidebar(page, "Security", "Security Scanner", "/admin/security");
  await page.locator("footer.am-footer time").first().waitFor();
  assert.equal(await page.getByText(/^Sample data/).count(), 0, "no sample notice");
  const value = (l) => page.locator(".a-stat", { has: page.locator(".a-stat__label", { hasText: new RegExp(`^${l}$`) }) }).locator(".a-stat__value").innerText();
  // Security score is the share of passing checks among those run.
  const run = rep.checks.filter((c) => c.status !== "not-checked");
  const passing = run.filter((c) => c.status === "pass").length;
  assert.equal(await value("Passed Checks"), `${passing}/${run.length}`);
  assert.equal(await value("Security Score"), `${Math.round((passing / run.length) * 100)}%`);
  assert.equal(await page.locator(".a-tabs__panel .am-list > li").count(), rep.checks.length, "every check is listed");
  for (const t of ["Last checked:", "Recommendation:"]) assert.ok(await page.getByText(t).first().isVisible(), t);
  // What this test server really is: the tests' published PIN fails, HTTP on 127.0.0.1 warns,
  // nothing ships to compare versions with.
  const check = (name) => page.locator(".am-list > li", { has: page.locator(".am-list__title", { hasText: name }) });
  assert.equal(await check("Admin PIN strength").locator(".a-badge").first().textContent(), "fail");
  await check("Admin PIN strength").getByText(/a PIN published in this project's tests/).waitFor();
  assert.equal(await check("HTTPS and HSTS").locator(".a-badge").first().textContent(), "warning");
  assert.equal(await check("Go module versions").locator(".a-badge").first().textContent(), "not checked");
  assert.equal(await check("Security headers on public pages").locator(".a-badge").first().textContent(), "pass");
  assert.ok(!(await page.content()).includes(PIN), "the real PIN is never shown");

  // Footer: next automated scan 24 hours after the last scan.
  const times = page.locator("footer.am-footer time");
  const [last, next] = await Promise.all([0, 1].map((i) => times.nth(i).getAttribute("datetime")));
  assert.equal(Date.parse(next) - Date.parse(last), 24 * 3600 * 1000);
  assert.equal(Date.parse(last), Date.parse(rep.scan.startedAt));

  // Tabs by keyboard. Vulnerabilities are the failed checks, with a status the admin sets.
  await page.getByRole("tab", { name: "Security Overview" }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Vulnerabilities");
  const failed = rep.checks.filter((c) => c.status === "fail");
  assert.equal(await page.locator(".a-tabs__panel .am-list > li").count(), rep.vulnerabilities.length);
  assert.ok(rep.vulnerabilities.length >= failed.length);
  assert.ok(await page.getByText("admin-pin", { exact: true }).isVisible());
  const status = page.getByLabel("Status of Admin PIN strength");
  assert.equal(await status.inputValue(), "open");
  const openBefore = Number(await value("Open Vulnerabilities"));
  assert.equal(openBefore, rep.vulnerabilities.filter((v) => v.status === "open").length);
  await status.selectOption("acknowledged");
  await page.getByText("Status Updated", { exact: true }).waitFor();
  await waitFor("the open count to drop", async () => Number(await value("Open Vulnerabilities")) === openBefore - 1);
  assert.equal(await page.getByLabel("Status of Admin PIN strength").inputValue(), "acknowledged");
  assert.equal((await server("/api/admin/overview")).tiles.find((t) => t.label === "Security Issues").value, String(openBefore - 1), "the dashboard counts open ones");
  await page.getByLabel("Status of Admin PIN strength").selectOption("open");
  await waitFor("the open count to come back (reopened)", async () => Number(await value("Open Vulnerabilities")) === openBefore);

  await page.getByRole("tab", { name: "Vulnerabilities" }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Monitoring");
  assert.ok(await page.locator(".a-tabs__panel .a-stat").count() > 0);
  assert.equal(await page.locator(".a-tabs__panel .a-stat", { hasText: "Open vulnerabilities" }).count(), 1);
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Security Hardening");
  const toggle = page.getByRole("button", { name: "Show Configuration" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  assert.ok(!(await page.getByText(rep.config.backupEncryption, { exact: true }).isVisible()));
  await toggle.focus();
  await page.keyboard.press("Enter");
  const hide = page.getByRole("button", { name: "Hide Configuration" });
  assert.equal(await hide.getAttribute("aria-expanded"), "true");
  const panel = page.locator("#" + (await hide.getAttribute("aria-controls")).replace(/:/g, "\\:"));
  const text = await panel.innerText();
  for (const t of ["Admin PIN", "••••••", "Session timeout", rep.config.sessionTimeout, "API rate limit", rep.config.apiRateLimit, "Backup encryption", rep.config.backupEncryption, "Not encrypted by the site. Backups go to"]) {
    assert.ok(text.includes(t), t);
  }
  assert.ok(text.includes("30 minutes without use"), "the configured ADMIN_TOKEN_TTL");
  await hide.click();
  assert.ok(await panel.isHidden());
  await page.getByRole("tab", { name: "Security Hardening" }).focus();
  await page.keyboard.press("Home");
  assert.equal(await selectedTab(page), "Security Overview");

  // Run Full Scan: 'Scanning...' for 3 s at least, then the stamp and a new scan time.
  const t0 = Date.now();
  await page.getByRole("button", { name: "Run Full Scan" }).click();
  const busy = page.getByRole("button", { name: "Scanning..." });
  await busy.waitFor();
  assert.ok(await busy.isDisabled());
  await page.getByText(/^Last updated: /).waitFor();
  const took = Date.now() - t0;
  assert.ok(took >= 2900, `waited ${took} ms`);
  assert.ok(await page.getByRole("button", { name: "Run Full Scan" }).isEnabled());
  assert.ok(Date.parse(await times.nth(0).getAttribute("datetime")) > Date.parse(last), "last scan time moved");
  const after = await server("/api/admin/security");
  assert.equal(after.scan.trigger, "manual");
  const run2 = after.checks.filter((c) => c.status !== "not-checked");
  assert.equal(await value("Passed Checks"), `${run2.filter((c) => c.status === "pass").length}/${run2.length}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the screens fit a 412 px screen without sideways scrolling", async () => {
  const check = async (page, screens) => {
    for (const [label, h1, path] of screens) {
      await viaSidebar(page, label, h1, path);
      assert.ok(await noOverflow(page), `${path} overflows at 412 px`);
      for (const tab of await page.getByRole("tab").all()) {
        await tab.focus();
        await page.keyboard.press("Enter");
        const show = page.getByRole("button", { name: "Show Configuration" });
        if (await show.count()) { await show.focus(); await page.keyboard.press("Enter"); }
        assert.ok(await noOverflow(page), `${path} tab ${await tab.innerText()} overflows at 412 px`);
      }
    }
  };
  {
    const { context, page, problems } = await unlock(MOBILE);
    await check(page, [["Schema Management", "Schema Management", "/admin/schema"], ["Security", "Security Scanner", "/admin/security"]]);
    assert.deepEqual(problems, []);
    await context.close();
  }
  {
    const { context, page, problems } = await openAs(browser, editor, "/admin", MOBILE);
    await check(page, [["Content Management", "Content Management", "/admin/content"], ["Location Pages", "Location Pages", "/admin/locations"], ["Redirects", "Redirects", "/admin/redirects"]]);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

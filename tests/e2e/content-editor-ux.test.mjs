// An editor a non-developer enjoys (ADR 049), on a phone (390 px): a new
// post opens with no problems shown; Bold applies to the selected words
// (never an empty pair), Link makes the selected words a link; the
// preview carries the "Draft preview, not live" bar; the live post has
// <strong> and <a> and no literal **. The service icon picker and the
// business hours picker are worked by touch. SHOTS_DIR=/some/dir saves
// the editor, the pickers and the preview bar at 390 and 1280 px.
//
// Run against the test server (scripts/serve-test.sh): BASE_URL and
// DATA_DIR name it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { BASE, launch, gotoSettled, hydrated, open as openPage } from "./lib.mjs";
import { apiSession, newEditor, openAs, signIn, tag } from "./account.mjs";
import { adminApi, settingsAdmin } from "./settings-admin.mjs";

const [TAG, Tag] = tag();
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;
const TITLE = `Wet Outlets ${Tag}`;
const SLUG = `wet-outlets-${TAG}`;

let browser, editor, api;

before(async () => {
  editor = newEditor();
  api = await apiSession(editor, BASE);
  browser = await launch();
});
after(async () => { await browser?.close(); });

/** shots saves the page at 390 and 1280 px (full page), then goes back
 * to the phone's width. */
async function shots(page, name, { full = true } = {}) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  for (const vp of [PHONE, WIDE]) {
    await page.setViewportSize(vp);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: `${SHOTS}/${name}-${vp.width}.png`, fullPage: full });
  }
  await page.setViewportSize(PHONE);
}

/** shotOf saves one element at 390 and 1280 px, cut from a full-page
 * capture (an element taller than the screen is not stitched). */
async function shotOf(page, locator, name) {
  if (!SHOTS) return;
  for (const vp of [PHONE, WIDE]) {
    await page.setViewportSize(vp);
    // From the top, so the sticky header is drawn where it belongs.
    await page.evaluate(() => { window.scrollTo(0, 0); return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); });
    const box = await locator.boundingBox();
    const scrollY = await page.evaluate(() => window.scrollY);
    const pad = 8;
    await page.screenshot({ path: `${SHOTS}/${name}-${vp.width}.png`, fullPage: true,
      clip: { x: Math.max(0, box.x - pad), y: Math.max(0, box.y + scrollY - pad), width: Math.min(vp.width, box.width + 2 * pad), height: box.height + 2 * pad } });
  }
  await page.setViewportSize(PHONE);
}

/** watch collects a page's errors and hydration warnings. */
function watch(page) {
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

const noOverflow = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

/** select selects text in a text area, as a finger or a mouse does. */
const select = (area, from, to) => area.evaluate((el, [a, b]) => { el.focus(); el.setSelectionRange(a, b); }, [from, to]);

test("a post written on a phone with Bold on a selection and a Link: no problems before typing, a preview bar, and the live post has <strong> and <a>", async () => {
  const { context, page } = await openAs(browser, editor, "/admin/content?kind=article", PHONE);
  const problems = watch(page);
  await page.getByRole("button", { name: "Create New Blog Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Blog Post" });
  await dialog.getByLabel("Title", { exact: true }).fill(TITLE);
  await dialog.getByLabel("Slug", { exact: true }).fill(SLUG);
  await dialog.getByRole("button", { name: "Add blog post" }).click();
  await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
  const id = new URL(page.url()).searchParams.get("item");

  // A new, empty form shows no problems: the server has them, the owner
  // has not typed yet.
  const detail = await (await api(`/api/admin/content/${id}`)).json();
  assert.ok(detail.problems.some((p) => p.hard), "the server does find hard problems on the empty post");
  await page.getByRole("region", { name: "Article body preview" }).waitFor();
  assert.equal(await page.getByRole("heading", { name: /block(s)? publishing/ }).count(), 0, "no problems summary before typing");
  assert.equal(await page.locator(".ac-notes").count(), 0, "no problem beside any field before typing");
  // Derived SEO texts and the reading time are shown as the server's.
  await page.locator("#f-seoTitle-derived").getByText(`“${TITLE}”`).waitFor();
  assert.equal(await page.getByLabel("SEO title").getAttribute("placeholder"), TITLE);
  assert.equal(await page.getByLabel("Reading time (minutes)").count(), 0, "the reading time is not typed");
  await shots(page, "editor-new");

  await page.getByLabel("Excerpt", { exact: true }).fill("Water near an outlet is an emergency: what to do before the crew arrives.");
  await page.getByLabel("Category", { exact: true }).selectOption({ label: "Restoration" });

  const body = page.getByLabel("Article body", { exact: true });
  const toolbar = page.getByRole("toolbar", { name: "Article body formatting" });
  await body.fill("Call right away if water reaches an outlet.");
  // Bold on the selected words.
  await select(body, 5, 15);
  await toolbar.getByRole("button", { name: "Bold" }).click();
  assert.equal(await body.inputValue(), "Call **right away** if water reaches an outlet.");
  // Bold on an empty line writes nothing and says why.
  await body.evaluate((el) => { el.focus(); el.setSelectionRange(el.value.length, el.value.length); });
  await page.keyboard.press("Enter");
  await toolbar.getByRole("button", { name: "Bold" }).click();
  await page.getByRole("status").filter({ hasText: "Type the line first, or select words, then press Bold." }).waitFor();
  assert.ok(!(await body.inputValue()).includes("****"), "no empty pair");
  // A link on the selected words.
  await page.keyboard.type("Read our water guide before you touch anything.");
  const line2 = (await body.inputValue()).indexOf("our water guide");
  await select(body, line2, line2 + "our water guide".length);
  await toolbar.getByRole("button", { name: "Link" }).click();
  const linkForm = page.getByRole("group", { name: "Add a link" });
  assert.equal(await linkForm.getByLabel("Words to show").inputValue(), "our water guide");
  await linkForm.getByLabel("Address").fill("javascript:alert(1)");
  await linkForm.getByRole("button", { name: "Add link" }).click();
  await linkForm.getByText(/Use a web address/).waitFor();
  await linkForm.getByLabel("Address").fill("/services/water-damage-restoration");
  await shots(page, "editor-link", { full: false });
  await linkForm.getByRole("button", { name: "Add link" }).click();
  await linkForm.waitFor({ state: "detached" });
  assert.equal(await body.inputValue(), "Call **right away** if water reaches an outlet.\nRead [our water guide](/services/water-damage-restoration) before you touch anything.");
  // Bold on the cursor's line, then Enter inside it keeps both halves bold.
  await body.evaluate((el) => { el.focus(); el.setSelectionRange(el.value.length, el.value.length); });
  await page.keyboard.type("\nTurn off the breaker first");
  await toolbar.getByRole("button", { name: "Bold" }).click();
  const value = await body.inputValue();
  assert.ok(value.endsWith("\n**Turn off the breaker first**"), value);
  const at = value.lastIndexOf("the breaker");
  await select(body, at, at);
  await page.keyboard.press("Enter");
  assert.ok((await body.inputValue()).endsWith("\n**Turn off **\n**the breaker first**"), await body.inputValue());
  for (const line of (await body.inputValue()).split("\n")) assert.equal((line.match(/\*\*/g) || []).length % 2, 0, `every ** has its partner: ${line}`);

  // The live preview draws what the public page will.
  const preview = page.getByRole("region", { name: "Article body preview" });
  await preview.locator("strong", { hasText: "right away" }).waitFor();
  assert.equal(await preview.getByRole("link", { name: "our water guide" }).getAttribute("href"), "/services/water-damage-restoration");
  assert.ok(!(await preview.innerText()).includes("**"), "no marks in the preview");
  assert.ok(await noOverflow(page), "no sideways scrolling at 390 px");
  await shots(page, "editor-body");

  // Saved: the reading time is the server's.
  const put = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().includes(`/api/admin/content/${id}`));
  await page.getByRole("button", { name: "Save draft" }).click();
  assert.equal((await put).status(), 200);
  await page.getByRole("status").filter({ hasText: /^Draft saved at/ }).waitFor();
  assert.equal(await page.getByRole("heading", { name: /block(s)? publishing/ }).count(), 0, "nothing blocks publishing");
  assert.equal((await (await api(`/api/admin/content/${id}`)).json()).draft.readTime, 1);

  // The preview: the real page with the draft bar.
  const [tab] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: /^Preview/ }).click()]);
  const tabProblems = watch(tab);
  await tab.waitForLoadState("load");
  const bar = tab.getByRole("complementary", { name: "Draft preview" });
  await bar.getByText("Draft preview, not live").waitFor();
  await tab.setViewportSize(PHONE);
  assert.ok(await bar.isVisible());
  assert.ok(await noOverflow(tab), "the bar does not widen the page at 390 px");
  const box = await bar.boundingBox();
  assert.ok(box && box.y <= 1 && box.width <= 391, `the bar is at the top, within the screen: ${JSON.stringify(box)}`);
  await tab.locator(".prose strong", { hasText: "right away" }).waitFor();
  await shots(tab, "preview-bar", { full: false });
  assert.deepEqual(tabProblems.filter((p) => !/401|403/.test(p)), []);
  await tab.close();

  // Publish, and the live post.
  const pub = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`/api/admin/content/${id}/publish`));
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  assert.equal((await pub).status(), 200, await (await pub).text());
  const live = await openPage(browser, `/blog/${SLUG}`, PHONE);
  await hydrated(live.page);
  const prose = live.page.locator(".post .prose").first();
  assert.equal(await prose.locator("strong").first().innerText(), "right away");
  assert.equal(await prose.getByRole("link", { name: "our water guide" }).getAttribute("href"), "/services/water-damage-restoration");
  assert.deepEqual(await prose.locator("p.prose__bold strong, strong").allInnerTexts(), ["right away", "Turn off", "the breaker first"]);
  assert.ok(!(await prose.innerText()).includes("**"), "no literal ** on the live post");
  assert.equal(await live.page.getByText("Draft preview, not live").count(), 0, "no draft bar on the live page");
  await live.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test("a service's icon is picked by sight; an icon the site cannot draw is refused", async () => {
  const list = await (await api("/api/admin/content?perPage=200&kind=service")).json();
  const item = list.items.find((i) => i.slug === "roof-repair");
  const { context, page } = await openAs(browser, editor, `/admin/content?item=${item.id}`, PHONE);
  const problems = watch(page);
  const picker = page.getByRole("group", { name: "Icon", exact: true });
  await picker.waitFor();
  const before = await page.locator(".ac-icon--on input").getAttribute("value");
  assert.ok(before, "the service's icon is chosen");
  await picker.getByText("Star", { exact: true }).click();
  assert.ok(await picker.getByRole("radio", { name: "Star" }).isChecked());
  assert.ok(await noOverflow(page));
  await shotOf(page, picker, "icon-picker");
  // Put it back: the picker changed only the form.
  await page.locator(`.ac-icon input[value="${before}"]`).check({ force: true });
  assert.equal(await page.locator(".ac-bar__state").innerText(), "No unsaved changes");
  // The server refuses a typed name it cannot draw.
  const d = await (await api(`/api/admin/content/${item.id}`)).json();
  const saved = await api(`/api/admin/content/${item.id}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: d.version, data: { ...d.draft, icon: "water-drop" } }) });
  const after = await saved.json();
  assert.ok(after.problems.some((p) => p.field === "icon" && p.hard), JSON.stringify(after.problems));
  const back = await api(`/api/admin/content/${item.id}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: after.version, data: d.draft }) });
  assert.equal(back.status, 200);
  assert.deepEqual(problems, []);
  await context.close();
});

test("business hours are chosen day by day and saved in the stored format", async () => {
  const admin = await adminApi(BASE);
  const original = await (await admin("/api/admin/settings")).json();
  const { context, page, problems } = await openPage(browser, "/admin/settings", PHONE);
  await hydrated(page);
  await signIn(page, settingsAdmin());
  await page.getByRole("heading", { name: "System Settings" }).waitFor();
  const hours = page.getByRole("group", { name: "Business hours" });
  await hours.waitFor();
  // Monday to Friday open, Saturday 9 to 1.
  for (const [i, day] of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].entries()) {
    const box = hours.getByRole("checkbox", { name: day });
    if (!(await box.isChecked())) await box.check();
    await hours.getByLabel(`${day} opens at`).fill("08:00");
    await hours.getByLabel(`${day} closes at`).fill(i === 4 ? "17:00" : "18:00");
  }
  await hours.getByRole("checkbox", { name: "Saturday" }).check();
  await hours.getByLabel("Saturday opens at").fill("09:00");
  await hours.getByLabel("Saturday closes at").fill("13:00");
  const sunday = hours.getByRole("checkbox", { name: "Sunday" });
  if (await sunday.isChecked()) await sunday.uncheck();
  await hours.getByLabel("Saturday closes at").fill("08:00");
  await hours.getByText("Saturday: the closing time must be after the opening time.").waitFor();
  await hours.getByLabel("Saturday closes at").fill("13:00");
  assert.ok(await noOverflow(page));
  await shotOf(page, hours, "hours-picker");
  const put = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/settings" && r.request().method() === "PUT");
  await page.getByRole("button", { name: "Save Settings" }).click();
  assert.equal((await put).status(), 200);
  const saved = await (await admin("/api/admin/settings")).json();
  assert.equal(saved.businessHours, "Mo-Th 08:00-18:00; Fr 08:00-17:00; Sa 09:00-13:00");
  // Put the settings back as they were.
  const r = await admin("/api/admin/settings", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...saved, businessHours: original.businessHours }) });
  assert.equal(r.status, 200, await r.text());
  assert.deepEqual(problems.filter((p) => !/401/.test(p)), []);
  await context.close();
});

test("while another preview renders, the SEO checks wait and come by themselves, without another save", async () => {
  const list = await (await api("/api/admin/content?perPage=200&kind=service")).json();
  const item = list.items.find((i) => i.slug === "roof-repair");
  const { context, page } = await openAs(browser, editor, "/admin/content?kind=service", PHONE);
  // The server's answer while the one render slot is taken (web/editor's
  // withRender), for the first request only.
  let asked = 0;
  await page.route(`**/api/admin/content/${item.id}/guidance`, (route) => {
    asked++;
    if (asked === 1) return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ message: "Another preview is being rendered. Try again in a moment." }) });
    return route.continue();
  });
  await page.goto(`${BASE}/admin/content?item=${item.id}`);
  const checks = page.locator(".ac-checks");
  await checks.locator(".ac-checklist li").first().waitFor();
  assert.ok(asked >= 2, `the checks were asked for ${asked} time(s)`);
  assert.equal(await checks.locator(".a-error").count(), 0, "no 'could not be run' once they came");
  await context.close();
});

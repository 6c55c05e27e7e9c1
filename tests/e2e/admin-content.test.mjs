// Content editing in the browser: an editor signs in, writes a
// post with a cover photo, previews it, schedules it a minute ahead and
// sees it on /blog, in sitemap.xml and at an IndexNow recorder (only its
// URL and the lists it changed); renames it and publishes, and the old
// address answers 301; two tabs save the same page and the second keeps
// its text; Location Pages opens the editor; Redirects and the 404
// monitor. The kind tabs and the body toolbar are worked by keyboard.
//
// The file runs its own site (startSite): the publish job's first run and
// the IndexNow baseline are timed from its boot, and INDEXNOW_ENDPOINT
// points it at the recorder here. SHOTS_DIR=/some/dir saves screenshots
// of every screen at 390 and 1280 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFileSync } from "node:fs";
import { launch, hydrated, until, startSite, expectedNoSession, gotoSettled, reloadSettled } from "./lib.mjs";
import { addUser, apiSession, fillAccount, password, tag } from "./account.mjs";

const [TAG, Tag] = tag();
const EDITOR = { email: `editor.${TAG}@example.com`, name: `Eddie ${Tag}`, password: password() };
const POST = { title: `Burst Pipe: The First Hour ${Tag}`, slug: `burst-pipe-first-hour-${TAG}` };
const RENAMED = `burst-pipe-what-to-do-${TAG}`;
const ALT = "A dried-out kitchen after a burst pipe, cabinets back in place";
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;

let site, browser, recorder, api, editorState, postId;
/** submissions are the IndexNow payloads the recorder received. */
const submissions = [];

before(async () => {
  recorder = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      try { submissions.push({ at: Date.now(), ...JSON.parse(body) }); } catch { submissions.push({ at: Date.now(), raw: body }); }
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => recorder.listen(0, "127.0.0.1", r));
  site = await startSite({
    INDEXNOW_ENDPOINT: `http://127.0.0.1:${recorder.address().port}/indexnow`,
    INDEXNOW_KEY: `e2e-content-key-${TAG}`,
    INDEXNOW_DEBOUNCE: "1s",
  });
  addUser(EDITOR, "editor", site.data);
  api = await apiSession(EDITOR, site.base);
  browser = await launch();
});
after(async () => {
  if (process.env.SITE_LOG) (await import("node:fs")).writeFileSync(process.env.SITE_LOG, site?.log() || "");
  await browser?.close();
  site?.stop();
  recorder?.close();
});

/** open loads a path of the test's site, recording console errors, page
 * errors and hydration warnings; storageState starts signed in. */
async function open(path, viewport = WIDE, storageState = editorState) {
  const context = await browser.newContext({ viewport, storageState });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (expectedNoSession(m)) return;
    if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await gotoSettled(page, site.base + path);
  return { context, page, problems };
}

/** signedIn opens a path as the editor (the first time through the gate;
 * then with the session's cookie, as a new tab would). */
async function signedIn(path, viewport = WIDE) {
  const o = await open(path, viewport);
  await hydrated(o.page);
  if (!editorState) {
    const res = await fillAccount(o.page, EDITOR);
    assert.equal((await res.json()).stage, "full", "an editor signs in with a password");
    editorState = await o.context.storageState();
  }
  await o.page.locator("#admin-main").waitFor();
  return o;
}

async function shot(page, name) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  await page.screenshot({ path: `${SHOTS}/content-${name}-${page.viewportSize().width}.png`, fullPage: true });
}

const noOverflow = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
const selectedTab = (page) => page.getByRole("tab", { selected: true }).innerText();

/** viaSidebar opens a screen from the sidebar (the drawer on a phone). */
async function viaSidebar(page, label, heading) {
  if ((page.viewportSize()?.width || 0) < 768) {
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
  }
  await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link", { name: label, exact: true }).click();
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

/** saveDraft presses Save draft and waits for the server's answer. */
async function saveDraft(page) {
  const res = page.waitForResponse((r) => r.request().method() === "PUT" && /\/api\/admin\/content\//.test(r.url()));
  await page.getByRole("button", { name: "Save draft" }).click();
  return res;
}

/** fieldNotes are the problems shown beside a control (by its id). */
const notes = (page, id) => page.locator(`#${id}-notes`);

/** fetchRaw asks the site without following redirects. */
const fetchRaw = (path) => fetch(site.base + path, { redirect: "manual" });

test("an editor writes a post with a cover photo, previews it, schedules it a minute ahead; it appears on /blog, in sitemap.xml and at IndexNow", async () => {
  // A photo in the media library (the Photo Upload API), not project
  // work: the site's first project would change every page's menu and
  // send every page to IndexNow, and on a busy machine that batch can
  // leave after the post's. And a 404 for the monitor.
  const fd = new FormData();
  fd.append("file", new Blob([readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url))], { type: "image/jpeg" }), `kitchen-${TAG}.jpg`);
  const up = await api(`/api/admin/media?portfolio=false&project=${encodeURIComponent("Kitchen " + Tag)}`, { method: "POST", body: fd });
  assert.equal(up.status, 201, await up.clone().text());
  const photo = await up.json();
  for (let i = 0; i < 3; i++) assert.equal((await fetchRaw(`/old-storm-page-${TAG}`)).status, 404);

  const { context, page, problems } = await signedIn("/admin");
  // The editor's sidebar: content and photos, no leads, no tools.
  const labels = await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link").allInnerTexts();
  assert.deepEqual(labels, ["Dashboard", "Photo Upload", "Jobs", "Content Management", "Location Pages", "Redirects", "Testimonials", "Sessions"]);
  await viaSidebar(page, "Content Management", "Content Management");
  assert.equal(new URL(page.url()).pathname, "/admin/content");

  // The kind tabs, by keyboard.
  assert.equal(await selectedTab(page), "Blog posts");
  await page.getByRole("list", { name: "Blog posts" }).waitFor();
  await page.getByRole("tab", { name: "Blog posts" }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await selectedTab(page), "Categories");
  await page.getByRole("list", { name: "Categories" }).locator(".am-list__title", { hasText: "Restoration" }).waitFor();
  assert.ok(await page.getByRole("button", { name: "New category" }).isVisible());
  await page.keyboard.press("End");
  assert.equal(await selectedTab(page), "FAQs");
  await page.getByRole("list", { name: "FAQs" }).locator(".am-list__title", { hasText: "Home page FAQ" }).waitFor();
  await page.keyboard.press("ArrowLeft");
  assert.equal(await selectedTab(page), "Words across the site");
  await page.keyboard.press("Home");
  assert.equal(await selectedTab(page), "Blog posts");
  assert.equal(new URL(page.url()).search, "?kind=article", "the tab is in the address");
  const first = page.getByRole("list", { name: "Blog posts" }).locator("li").first();
  assert.ok(await first.getByText("Published", { exact: true }).isVisible());
  assert.match(await first.innerText(), /Last change by .+, \w{3} \d+, \d{4}/);
  assert.ok(await first.getByRole("link", { name: /^View live/ }).isVisible());

  // Create New Blog Post: a draft, not on the site.
  await page.getByRole("button", { name: "Create New Blog Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Blog Post" });
  await dialog.getByLabel("Title", { exact: true }).fill(POST.title);
  assert.equal(await dialog.getByLabel("Slug", { exact: true }).inputValue(), `burst-pipe-the-first-hour-${TAG}`, "a slug is offered from the title");
  await dialog.getByLabel("Slug", { exact: true }).fill(POST.slug);
  await dialog.getByRole("button", { name: "Add blog post" }).click();
  await page.getByRole("heading", { level: 1, name: POST.title }).waitFor();
  postId = new URL(page.url()).searchParams.get("item");
  assert.ok(postId, "the editor's address names the item");
  assert.equal((await fetchRaw(`/blog/${POST.slug}`)).status, 404, "a draft is not public");
  // The server's problems, beside their fields, once a field is left
  // (never on the new, empty form): hard ones block publishing.
  assert.equal(await page.getByRole("heading", { name: /block(s)? publishing/ }).count(), 0, "no problems before a word is typed");
  await page.getByLabel("Excerpt", { exact: true }).focus();
  await page.getByLabel("Category", { exact: true }).focus();
  await page.getByRole("heading", { name: /problem blocks publishing/ }).waitFor();
  assert.match(await notes(page, "f-excerpt").innerText(), /Error: Excerpt is empty\. Publishing is blocked until this is fixed\./);
  assert.equal(await page.locator("#f-excerpt").getAttribute("aria-invalid"), "true");

  // The text.
  await page.getByLabel("Excerpt", { exact: true }).fill("What to do in the first hour after a pipe bursts: stop the water, stay safe, save what you can.");
  await page.getByLabel("Category", { exact: true }).selectOption({ label: "Restoration" });

  // The body, with the toolbar by keyboard: it is one tab stop before the text.
  const body = page.getByLabel("Article body", { exact: true });
  await body.focus();
  await page.keyboard.type("Shut off the water");
  await page.keyboard.press("Shift+Tab");
  const toolbar = page.getByRole("toolbar", { name: "Article body formatting" });
  assert.ok(await toolbar.getByRole("button", { name: /Heading/ }).first().evaluate((el) => el === document.activeElement), "the toolbar's first button has the focus");
  await page.keyboard.press("Enter");
  assert.equal(await body.inputValue(), "## Shut off the water");
  assert.ok(await body.evaluate((el) => el === document.activeElement), "the focus is back in the text");
  await page.keyboard.press("End");
  await page.keyboard.type("\nFind the main valve, usually where the water line enters the house.\nTurn it clockwise");
  await page.keyboard.press("Shift+Tab");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
  assert.ok(await toolbar.getByRole("button", { name: /List item/ }).evaluate((el) => el === document.activeElement), "arrows move in the toolbar");
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.type("\nDo not touch wet outlets");
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("End");
  await page.keyboard.press("Space");
  assert.equal(await body.inputValue(), "## Shut off the water\nFind the main valve, usually where the water line enters the house.\n- Turn it clockwise\n❌ Do not touch wet outlets");
  // The live preview is the public article body.
  const preview = page.getByRole("region", { name: "Article body preview" });
  await preview.getByRole("heading", { level: 2, name: "Shut off the water" }).waitFor();
  assert.equal(await preview.locator("li").innerText(), "Turn it clockwise");
  assert.match(await preview.locator("p.warn").innerText(), /Do not touch wet outlets/);

  // SEO texts with live counts.
  await page.getByLabel("SEO title").fill("Burst Pipe? The First Hour, Step by Step");
  assert.equal(await page.locator("#f-seoTitle-count").innerText(), "40/60 characters");
  await page.getByLabel("Meta description").fill("A burst pipe floods a room in minutes. What to do in the first hour, from shutting off the water to calling a restoration crew.");
  assert.match(await page.locator("#f-metaDescription-count").innerText(), /^\d+\/160 characters$/);

  // The cover photo from the media library; the server requires alt text.
  await page.getByRole("button", { name: "Choose photo for the cover photo" }).click();
  const picker = page.getByRole("dialog", { name: "Choose the cover photo" });
  await picker.getByRole("button", { name: new RegExp(`^Kitchen ${Tag} project photo`) }).click();
  await picker.waitFor({ state: "detached" });
  const thumb = page.locator(".ac-image__thumb img");
  await thumb.waitFor();
  assert.ok((await thumb.getAttribute("src")).startsWith("/media/"), "the library's photo");
  assert.equal(await thumb.getAttribute("width"), String(photo.width));
  assert.equal(await page.getByLabel("Alt text (required)").inputValue(), "", "no alt text is invented");
  assert.equal((await saveDraft(page)).status(), 200);
  await notes(page, "f-image-alt").getByText("Alt text is required: say what the photo shows. Publishing is blocked until this is fixed.").waitFor();
  await shot(page, "editor-problems");
  await page.getByLabel("Alt text (required)").fill(ALT);
  await page.getByLabel("Caption (optional)").fill("Drying done in three days");
  assert.equal((await saveDraft(page)).status(), 200);
  await page.getByRole("status").filter({ hasText: /^Draft saved at/ }).waitFor();
  assert.equal(await notes(page, "f-image-alt").count(), 0, "the alt problem is gone");
  assert.equal(await page.getByRole("heading", { name: /block(s)? publishing/ }).count(), 0, "nothing blocks publishing");
  // The SEO audit's rules, run by the server on the draft's render.
  const checks = page.locator(".ac-checks");
  await checks.getByText("Content length", { exact: true }).waitFor();
  assert.ok(await checks.getByText("H1 heading", { exact: true }).isVisible());

  // The draft holds the photo, its alt text and caption. (The public
  // pages do not show hero and cover photos yet: see the report.)
  const stored = await (await api(`/api/admin/content/${postId}`)).json();
  assert.deepEqual(stored.draft.image, { media: photo.id, alt: ALT, caption: "Drying done in three days" });

  // Preview: the real page, in a new tab, private.
  const [tab] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: /^Preview/ }).click()]);
  await tab.waitForLoadState();
  assert.equal(new URL(tab.url()).pathname, `/admin/preview/${postId}`);
  await tab.getByRole("heading", { level: 1, name: POST.title }).waitFor();
  assert.match(await tab.locator('meta[name="robots"]').getAttribute("content"), /noindex/);
  await tab.close();

  // Schedule it a minute ahead, in the browser's time zone.
  const at = await page.evaluate(() => {
    const d = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
    const p = (n) => String(n).padStart(2, "0");
    return { local: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`, ms: d.getTime() };
  });
  await page.getByLabel("Publish at").fill(at.local);
  const sched = page.waitForResponse((r) => r.url().endsWith(`/api/admin/content/${postId}/schedule`));
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  const sent = JSON.parse((await sched).request().postData());
  assert.match(sent.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/, "RFC 3339 with the browser's offset");
  assert.equal(Date.parse(sent.at), at.ms);
  await page.locator(".ac-meta").getByText(/^Scheduled for /).waitFor();
  assert.ok(await page.getByRole("button", { name: "Unschedule" }).isVisible());
  const scheduledAt = Date.now();
  await page.getByRole("link", { name: "Blog posts" }).click();
  const row = page.getByRole("list", { name: "Blog posts" }).locator("li").filter({ hasText: POST.title });
  await row.getByText(/^Scheduled for /).waitFor();
  await shot(page, "list");

  // The publish job makes it live (every 30 s, after a minute from boot).
  assert.ok(await until(async () => (await (await fetch(site.base + "/blog")).text()).includes(`/blog/${POST.slug}`), 200_000), "the post is on /blog");
  const live = await fetch(site.base + `/blog/${POST.slug}`);
  assert.equal(live.status, 200);
  assert.ok((await live.text()).includes("Do not touch wet outlets"), "the public post");
  const sitemap = await (await fetch(site.base + "/sitemap.xml")).text();
  assert.ok(sitemap.includes(`${site.base}/blog/${POST.slug}</loc>`), "in sitemap.xml");
  // IndexNow got the post and the lists it changed, nothing else.
  const jobLog = () => site.log().split("\n").filter((l) => /render cache|warm-up render failed|job=indexnow|refreshed/.test(l)).join("\n");
  assert.ok(await until(() => submissions.some((s) => (s.urlList || []).includes(`${site.base}/blog/${POST.slug}`))),
    `submitted to IndexNow; the site's warm-ups and IndexNow runs:\n${jobLog()}`);
  const batch = submissions.find((s) => (s.urlList || []).includes(`${site.base}/blog/${POST.slug}`));
  assert.ok(batch.at >= scheduledAt);
  const paths = batch.urlList.map((u) => new URL(u).pathname);
  console.log("# IndexNow batch:", paths.join(" "));
  assert.ok(paths.includes("/blog"), "the blog index, which lists it");
  for (const p of paths) {
    assert.ok(p === `/blog/${POST.slug}` || p === "/blog" || p === "/" || p === "/sitemap" || /^\/blog\/[a-z0-9-]+$/.test(p) || /^\/blog\/category\//.test(p),
      `IndexNow got ${p}, which the post does not change; the site's warm-ups and IndexNow runs:\n${jobLog()}`);
  }
  assert.equal(batch.key, `e2e-content-key-${TAG}`);
  assert.ok(submissions.filter((s) => s.at >= scheduledAt).every((s) => s === batch), "one batch");

  await reloadSettled(page);
  await row.getByText("Published", { exact: true }).waitFor();
  await row.getByRole("link", { name: /^View live/ }).waitFor();
  assert.ok(await noOverflow(page));
  assert.deepEqual(problems, []);
  await context.close();

  // The public post hydrates without a warning.
  const pub = await open(`/blog/${POST.slug}`, WIDE, undefined);
  await hydrated(pub.page);
  assert.deepEqual(pub.problems, []);
  await pub.context.close();
});

test("renamed and published, the old address answers 301; the history shows the change; Redirects lists it and the 404 monitor adds one", async () => {
  assert.ok(postId, "the first test made the post");
  const { context, page, problems } = await signedIn(`/admin/content?item=${postId}`);
  await page.getByRole("heading", { level: 1, name: POST.title }).waitFor();
  await page.getByLabel("Slug", { exact: true }).fill(RENAMED);
  assert.equal(await page.getByRole("status").filter({ hasText: "Unsaved changes" }).count(), 1);
  const pub = page.waitForResponse((r) => r.url().endsWith(`/api/admin/content/${postId}/publish`));
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  assert.equal((await pub).status(), 200, "saved, then published");
  await page.getByText(`Published: /blog/${RENAMED}`).first().waitFor();
  const old = await fetchRaw(`/blog/${POST.slug}`);
  assert.equal(old.status, 301);
  assert.equal(old.headers.get("location"), `/blog/${RENAMED}`);
  assert.equal((await fetch(site.base + `/blog/${RENAMED}`)).status, 200);

  // History: two versions, the newest first, with the slug's change.
  await page.getByRole("button", { name: "Show history" }).click();
  const versions = page.locator(".ac-rev");
  await versions.first().waitFor();
  assert.equal(await versions.count(), 2);
  assert.match(await versions.first().locator(".ac-rev__title").innerText(), /^Version 2$/);
  assert.match(await versions.first().locator(".ac-rev__meta").innerText(), new RegExp(`by ${EDITOR.name}`));
  const slugChange = versions.first().locator(".ac-changes > li").filter({ has: page.locator(".ac-changes__field", { hasText: /^Slug$/ }) });
  assert.match(await slugChange.locator(".ac-diff__del").innerText(), new RegExp(POST.slug), "the old slug, removed");
  assert.match(await slugChange.locator(".ac-diff__add").innerText(), new RegExp(RENAMED));
  // The first version, published over nothing, is folded until asked for.
  const first = versions.last();
  assert.match(await first.locator(".ac-rev__title").innerText(), /^Version 1$/);
  const fold = first.locator("details.ac-rev__first");
  assert.match(await fold.locator("summary").innerText(), /^The first version: \d+ fields as published$/);
  assert.equal(await first.locator(".ac-changes").isVisible(), false);
  await fold.locator("summary").click();
  assert.ok(await first.locator(".ac-changes").isVisible());
  assert.equal(await versions.first().locator("details").count(), 0, "a later version is never folded");
  await versions.first().scrollIntoViewIfNeeded();
  await shot(page, "history");

  // Redirects: the automatic one; the 404 monitor's path gets one by hand.
  await viaSidebar(page, "Redirects", "Redirects");
  const redirects = page.getByRole("table", { name: "Redirects" });
  const monitor = page.getByRole("table", { name: /^Top 404 paths/ });
  const auto = redirects.getByRole("row").filter({ has: page.getByRole("rowheader", { name: `/blog/${POST.slug}`, exact: true }) });
  await auto.waitFor();
  assert.match(await auto.innerText(), new RegExp(`/blog/${RENAMED}[\\s\\S]*auto[\\s\\S]*${EDITOR.name}`, "i"));
  // The monitor's counts are written every 30 s.
  const missing = `/old-storm-page-${TAG}`;
  assert.ok(await until(async () => {
    const r = await api("/api/admin/not-found?q=" + encodeURIComponent(missing));
    return (await r.json()).paths.some((p) => p.path === missing);
  }), "the 404 is counted");
  await reloadSettled(page);
  const row = monitor.getByRole("row").filter({ has: page.getByRole("rowheader", { name: missing, exact: true }) });
  await row.waitFor();
  assert.equal(await row.locator('td[data-label="Hits"]').innerText(), "3", "its hits");
  await row.getByRole("button", { name: `Add redirect from ${missing}` }).click();
  assert.equal(await page.getByLabel("From", { exact: true }).inputValue(), missing, "From is filled in");
  assert.ok(await page.getByLabel("To", { exact: true }).evaluate((el) => el === document.activeElement));
  // The server refuses a redirect off the site.
  await page.getByLabel("To", { exact: true }).fill("https://elsewhere.example/storm");
  await page.getByRole("button", { name: "Add redirect", exact: true }).click();
  await page.getByRole("alert").filter({ hasText: /^To: / }).waitFor();
  await page.getByLabel("To", { exact: true }).fill(`/blog/${RENAMED}`);
  await page.getByRole("button", { name: "Add redirect", exact: true }).click();
  await page.getByText("Redirect added", { exact: true }).waitFor();
  const manual = redirects.getByRole("row").filter({ has: page.getByRole("rowheader", { name: missing, exact: true }) });
  await manual.waitFor();
  assert.match(await manual.innerText(), /manual/i);
  await row.waitFor({ state: "detached" });
  assert.equal((await fetchRaw(missing)).headers.get("location"), `/blog/${RENAMED}`);
  await shot(page, "redirects");
  // Delete, after a confirmation.
  await manual.getByRole("button", { name: `Delete the redirect from ${missing}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this redirect?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await page.getByText("Redirect deleted", { exact: true }).waitFor();
  // The toast comes with the answer; the list is read again after it.
  await manual.waitFor({ state: "detached" });
  assert.equal((await fetchRaw(missing)).status, 404);
  assert.ok(await noOverflow(page));
  // The refused redirect's 422, which Chromium logs as a failed request.
  assert.deepEqual(problems.filter((p) => !/status of 422 \(Unprocessable Entity\)/.test(p)), []);
  await context.close();
});

test("two tabs save the same page: the second gets the conflict, keeps its text, and can copy it or reload the first's", async () => {
  const about = (await (await api("/api/admin/content?perPage=200&kind=page")).json()).items.find((it) => it.slug === "privacy");
  const { context, page: a, problems } = await signedIn(`/admin/content?item=${about.id}`);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.base });
  const b = await context.newPage();
  b.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await gotoSettled(b, site.base + `/admin/content?item=${about.id}`);
  for (const p of [a, b]) await p.getByRole("heading", { level: 1, name: "Privacy Policy" }).waitFor();

  await a.getByLabel("Title", { exact: true }).fill("Privacy Policy (first tab)");
  assert.equal((await saveDraft(a)).status(), 200);
  await b.getByLabel("Title", { exact: true }).fill("Privacy Policy (second tab)");
  await b.getByLabel("Page body", { exact: true }).press("Control+End");
  await b.keyboard.type("\nA sentence only the second tab wrote.");
  assert.equal((await saveDraft(b)).status(), 409);
  const alert = b.getByRole("alert").filter({ hasText: "someone else changed this page" });
  await alert.waitFor();
  assert.match(await alert.innerText(), new RegExp(`This page was changed by ${EDITOR.name} at .+\\. Reload it to see their version, or copy your text first\\.`));
  assert.ok(await alert.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)), "the focus goes to the message");
  // Nothing typed is lost.
  assert.equal(await b.getByLabel("Title", { exact: true }).inputValue(), "Privacy Policy (second tab)");
  assert.ok((await b.getByLabel("Page body", { exact: true }).inputValue()).endsWith("A sentence only the second tab wrote."));
  await alert.getByRole("button", { name: "Copy my text" }).click();
  const kept = b.getByLabel("Your text, not saved");
  await kept.waitFor();
  assert.ok((await kept.inputValue()).includes("A sentence only the second tab wrote."));
  assert.ok((await b.evaluate(() => navigator.clipboard.readText())).includes("Privacy Policy (second tab)"), "on the clipboard");
  await shot(b, "conflict");
  await alert.getByRole("button", { name: "Reload their version" }).click();
  await alert.waitFor({ state: "detached" });
  assert.equal(await b.getByLabel("Title", { exact: true }).inputValue(), "Privacy Policy (first tab)", "their version");
  assert.ok((await kept.inputValue()).includes("Privacy Policy (second tab)"), "my text stays on screen");
  // Now the second tab's save is based on the current version.
  await b.getByLabel("Title", { exact: true }).fill("Privacy Policy");
  assert.equal((await saveDraft(b)).status(), 200);
  assert.deepEqual(problems, []);
  await context.close();
});

test("text typed and not saved survives a reload or a new sign-in in the same tab", async () => {
  const terms = (await (await api("/api/admin/content?perPage=200&kind=page")).json()).items.find((it) => it.slug === "terms");
  const { context, page, problems } = await signedIn(`/admin/content?item=${terms.id}`);
  await page.getByRole("heading", { level: 1, name: "Terms of Use" }).waitFor();
  await page.getByLabel("Title", { exact: true }).fill("Terms of Use (typed, not saved)");
  // The browser asks before leaving with unsaved changes; the person says leave.
  page.on("dialog", (d) => d.accept());
  await reloadSettled(page);
  await page.getByText("Your unsaved changes are back. Save them when ready.").waitFor();
  assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Terms of Use (typed, not saved)");
  // Saved, nothing is kept any more: a reload shows the saved page.
  assert.equal((await saveDraft(page)).status(), 200);
  await reloadSettled(page);
  await page.getByRole("heading", { level: 1 }).waitFor();
  assert.equal(await page.getByText("Your unsaved changes are back").count(), 0);
  assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Terms of Use (typed, not saved)");
  assert.deepEqual(problems, []);
  await context.close();
});

test("Location Pages opens the editor: Edit County Page, a city's Edit, and Add City makes a draft in that county", async () => {
  const { context, page, problems } = await signedIn("/admin");
  await viaSidebar(page, "Location Pages", "Location Pages");
  const fulton = page.locator(".a-card").filter({ has: page.getByRole("heading", { name: /^Fulton County/ }) });
  await fulton.getByRole("link", { name: "Edit County Page Fulton County page" }).click();
  await page.getByRole("heading", { level: 1, name: "Fulton" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/admin/content");
  assert.ok(await page.getByText("County profile", { exact: true }).isVisible(), "the county's profile fields");
  await page.goBack();
  await page.getByRole("heading", { level: 1, name: "Location Pages" }).waitFor();
  await fulton.getByRole("link", { name: "Edit Roswell" }).click();
  await page.getByRole("heading", { level: 1, name: "Roswell" }).waitFor();
  assert.equal(await page.getByLabel("Slug", { exact: true }).inputValue(), "roswell");
  // Unsaved changes ask before leaving.
  await page.getByLabel("Introduction", { exact: true }).fill("Changed, not saved.");
  page.once("dialog", (d) => { assert.match(d.message(), /unsaved changes/); d.dismiss(); });
  await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link", { name: "Location Pages", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Roswell" }).waitFor();
  assert.equal(await page.getByLabel("Introduction", { exact: true }).inputValue(), "Changed, not saved.", "still editing");
  page.once("dialog", (d) => d.accept());
  await page.getByRole("navigation", { name: "Admin navigation" }).getByRole("link", { name: "Location Pages", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Location Pages" }).waitFor();

  const cobb = page.locator(".a-card").filter({ has: page.getByRole("heading", { name: /^Cobb County/ }) });
  await cobb.getByRole("link", { name: "Add City to Cobb County" }).click();
  const dialog = page.getByRole("dialog", { name: "New city" });
  await dialog.waitFor();
  assert.ok(await until(async () => (await dialog.getByLabel("County").inputValue()) === "cobb"), "the county is chosen");
  await dialog.getByLabel("City name").fill(`Vinings ${Tag}`);
  assert.equal(await dialog.getByText(/^Address: /).innerText(), `Address: /areas/cobb/vinings-${TAG}`);
  await dialog.getByRole("button", { name: "Add city" }).click();
  await page.getByRole("heading", { level: 1, name: `Vinings ${Tag}` }).waitFor();
  assert.ok(await page.locator(".ac-meta").getByText("Draft", { exact: true }).isVisible());
  await viaSidebar(page, "Location Pages", "Location Pages");
  const drafts = cobb.getByRole("list", { name: "Cobb County cities not on the site" });
  await drafts.locator("li", { hasText: `Vinings ${Tag}` }).getByText("Draft", { exact: true }).waitFor();
  await shot(page, "locations");
  assert.ok(await noOverflow(page));
  assert.deepEqual(problems, []);
  await context.close();
});

test("every changed screen at 390 and 1280 px: no sideways scroll, nothing hidden under the header", async () => {
  const post = (await (await api(`/api/admin/content?perPage=200&kind=article`)).json()).items.find((it) => it.slug === RENAMED);
  assert.ok(post, "the renamed post");
  for (const viewport of [PHONE, WIDE]) {
    const { context, page, problems } = await signedIn("/admin/content", viewport);
    await page.getByRole("list", { name: "Blog posts" }).waitFor();
    assert.ok(await noOverflow(page), `list at ${viewport.width}`);
    await shot(page, "list");
    // A draft with problems.
    const created = await api("/api/admin/content", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ kind: "article", data: { slug: `draft-${viewport.width}-${TAG}`, title: `A draft at ${viewport.width} px`, publishDate: "2026-01-02" } }) });
    const draft = await created.json();
    await gotoSettled(page, site.base + `/admin/content?item=${draft.id}`);
    // Its problems show once a publish is tried, not when it opens.
    await page.getByRole("button", { name: "Save draft" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: /problems block publishing/ }).count(), 0, "no problems before anything is tried");
    const tried = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`/api/admin/content/${draft.id}/publish`));
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    assert.equal((await tried).status(), 422);
    await page.getByRole("heading", { name: /problems block publishing/ }).waitFor();
    assert.ok(await noOverflow(page), `editor at ${viewport.width}`);
    // A problem's link brings its field into view, below the sticky header.
    await page.locator(".ac-summary a").filter({ hasText: "Meta description is empty" }).click();
    const box = await page.locator("#f-metaDescription").boundingBox();
    const header = await page.locator(".a-topbar").boundingBox();
    const bar = await page.locator(".ac-bar").boundingBox();
    assert.ok(box.y >= header.y + header.height && box.y + box.height <= bar.y, `the field is in view (${box.y}, header ${header.height}, bar ${bar.y})`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "editor-problems");
    // A conflict: the page changed on the server since it was opened.
    await page.getByLabel("Excerpt", { exact: true }).fill("Typed in the browser.");
    const cur = await (await api(`/api/admin/content/${draft.id}`)).json();
    await api(`/api/admin/content/${draft.id}`, { method: "PUT", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ version: cur.version, data: { ...cur.draft, excerpt: "Saved elsewhere." } }) });
    assert.equal((await saveDraft(page)).status(), 409);
    await page.getByRole("button", { name: "Copy my text" }).click();
    await page.getByLabel("Your text, not saved").waitFor();
    assert.ok(await noOverflow(page), `conflict at ${viewport.width}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "conflict");
    // History.
    page.once("dialog", (d) => d.accept());
    await gotoSettled(page, site.base + `/admin/content?item=${post.id}`);
    await page.getByRole("button", { name: "Show history" }).click();
    await page.locator(".ac-rev").first().waitFor();
    assert.ok(await noOverflow(page), `history at ${viewport.width}`);
    await page.locator(".ac-history").scrollIntoViewIfNeeded();
    await shot(page, "history");
    // Location Pages and Redirects.
    await viaSidebar(page, "Location Pages", "Location Pages");
    await page.locator(".am-county__foot").first().waitFor();
    assert.ok(await noOverflow(page), `locations at ${viewport.width}`);
    await shot(page, "locations");
    await viaSidebar(page, "Redirects", "Redirects");
    await page.getByRole("table", { name: "Redirects" }).getByRole("rowheader", { name: `/blog/${POST.slug}`, exact: true }).waitFor();
    assert.ok(await noOverflow(page), `redirects at ${viewport.width}`);
    await shot(page, "redirects");
    // The conflict's 409 and the tried publish's 422, which Chromium logs
    // as failed requests.
    assert.deepEqual(problems.filter((p) => !/status of (409 \(Conflict\)|422 \(Unprocessable Entity\))/.test(p)), []);
    await context.close();
  }
});

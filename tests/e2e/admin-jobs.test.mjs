// The Jobs screen on a phone (390 px): an editor starts a job, adds a
// photo taken in Marietta as "before"; the screen suggests Marietta and
// the month the photo was taken, the editor uses both, writes the story
// and publishes. The stored photo has no EXIF, and no answer of the Jobs
// API carries a coordinate. A staff account starts a job and adds photos
// but has no Publish button, and the server refuses its publish.
// SHOTS_DIR=/some/dir saves the screen at 390 and 1280 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { BASE, launch } from "./lib.mjs";
import { addUser, apiSession, newEditor, openAs, password, tag } from "./account.mjs";

const [, Tag] = tag();
const TITLE = `Burst pipe in a finished basement ${Tag}`;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;
const MARIETTA = readFileSync(new URL("./fixtures/marietta-gps.jpg", import.meta.url));
// The photo's place, exact and rounded: neither may reach a browser.
const LEAKS = ["33.95", "84.54", "84.55", "\"lat", "\"lng", "geo"];

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let browser, editor;

/** axe lists the WCAG 2.2 A/AA violations on the page (as checkers.test.mjs). */
async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] }, resultTypes: ["violations"] });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
  });
}

before(async () => {
  editor = newEditor();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function shot(page, name) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize().width}.png`, fullPage: true });
}

/** watchLeaks collects every Jobs and media API answer the page receives. */
function watchLeaks(page) {
  const found = [];
  page.on("response", async (r) => {
    const p = new URL(r.url()).pathname;
    if (!p.startsWith("/api/admin/work") && !p.startsWith("/api/admin/media")) return;
    const body = await r.text().catch(() => "");
    for (const l of LEAKS) if (body.includes(l)) found.push(`${p} carries ${l}`);
  });
  return found;
}

test("an editor adds a Marietta photo to a job; the screen suggests Marietta and the month; publishing puts it on the site", async () => {
  const { context, page, problems } = await openAs(browser, editor, "/admin/jobs", PHONE);
  const leaks = watchLeaks(page);
  await page.getByRole("heading", { level: 1, name: "Jobs" }).waitFor();
  await page.getByLabel("Job title").fill(TITLE);
  await page.getByRole("button", { name: "Start the job" }).click();
  await page.getByRole("heading", { name: TITLE }).waitFor();
  await page.getByText("Add photos and the city they were taken in is suggested here.").waitFor();

  // The photo, as "before".
  await page.getByLabel("Add as").selectOption("before");
  const sent = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/admin/media");
  await page.getByLabel("Photos or videos").setInputFiles({ name: "IMG_0412.jpg", mimeType: "image/jpeg", buffer: MARIETTA });
  const res = await sent;
  assert.equal(res.status(), 201, await res.text());
  const photo = await res.json();
  await page.getByText("The photos were taken near").waitFor();
  assert.equal(await page.locator(".aj-hint strong").first().textContent(), "Marietta");
  assert.equal(await page.getByLabel("Phase of photo 1").inputValue(), "before");

  // The stored photo has no EXIF.
  const img = Buffer.from(await (await fetch(BASE + "/media/" + photo.path)).arrayBuffer());
  assert.ok(img.length > 0 && img[0] === 0xff && img[1] === 0xd8, "the original is served as a JPEG");
  assert.ok(!img.includes(Buffer.from("Exif\0")), "the served photo carries no EXIF");

  // Publishing is not possible yet: no city, no month.
  await page.getByText("Before it goes on the site, the job needs a city and a month.").waitFor();
  assert.ok(await page.getByRole("button", { name: "Publish the job" }).isDisabled());

  // Use the suggestions, pick the damage type, write the story.
  await page.getByRole("button", { name: "Use Marietta" }).click();
  assert.match(await page.getByLabel("City").locator("option:checked").textContent(), /^Marietta \(where the photos were taken\)$/);
  await page.getByRole("button", { name: "Use October 2026" }).click();
  assert.equal(await page.getByLabel("Month of the work").inputValue(), "2026-10");
  const service = page.getByLabel("Damage type");
  const firstService = await service.locator("option").nth(1).getAttribute("value");
  await service.selectOption(firstService);
  await page.getByLabel("The story (optional)").fill("A pipe burst behind the basement wall overnight.");
  await page.getByText("8 words.").waitFor();
  await page.getByLabel("Homeowner's name (optional)").fill("Pat Doe");
  await page.getByLabel("The homeowner agreed to show their name").check();
  assert.deepEqual(await axe(page), [], "the job's screen at 390 px");
  await shot(page, "jobs-edit");
  await page.getByText("Save your changes first.").waitFor();
  const saved = page.waitForResponse((r) => r.request().method() === "PUT" && /\/api\/admin\/work\/[^/]+$/.test(new URL(r.url()).pathname));
  await page.getByRole("button", { name: "Save the job" }).click();
  assert.equal((await saved).status(), 200);

  const pub = page.waitForResponse((r) => r.url().endsWith("/publish"));
  await page.getByRole("button", { name: "Publish the job" }).click();
  assert.equal((await pub).status(), 200);
  await page.getByRole("button", { name: "Take off the site" }).waitFor();

  // Back in the list: the city, the month, the status, the photo count.
  await page.getByRole("button", { name: "Back to all jobs" }).click();
  const row = page.getByRole("row", { name: new RegExp(TITLE) });
  await row.waitFor();
  const text = await row.textContent();
  for (const want of ["Marietta", "October 2026", "On the site", "1"]) assert.ok(text.includes(want), `the row says ${want}: ${text}`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), "no sideways scrolling at 390 px");
  await shot(page, "jobs-list");
  assert.deepEqual(leaks, []);
  assert.deepEqual(problems, []);
  await context.close();

  const wide = await openAs(browser, editor, "/admin/jobs", WIDE);
  await wide.page.getByRole("row", { name: new RegExp(TITLE) }).waitFor();
  await shot(wide.page, "jobs-list");
  await wide.page.getByRole("button", { name: TITLE }).click();
  await wide.page.getByText("The photos were taken near").waitFor();
  assert.ok(await wide.page.getByRole("button", { name: "Take off the site" }).isVisible());
  await shot(wide.page, "jobs-edit");
  await wide.context.close();
});

test("staff start jobs and add photos; publishing is refused them", async () => {
  const [t, T] = tag();
  const staff = { email: `staff.${t}@example.com`, name: `Staff ${T}`, password: password() };
  addUser(staff, "staff");
  const call = await apiSession(staff);
  const created = await call("/api/admin/work", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: `Roof leak ${T}` }) });
  assert.equal(created.status, 201, await created.clone().text());
  const job = await created.json();
  assert.equal(job.mayPublish, false);
  const refused = await call(`/api/admin/work/${job.id}/publish`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: job.version }) });
  assert.equal(refused.status, 403);

  // A photo already in the library, added to the job from it as "after".
  const fd = new FormData();
  fd.append("caption", "");
  fd.append("alt", `Dry roof deck ${T}`);
  fd.append("file", new Blob([MARIETTA], { type: "image/jpeg" }), "roof.jpg");
  const up = await call("/api/admin/media?portfolio=false", { method: "POST", body: fd });
  assert.equal(up.status, 201, await up.clone().text());

  const { context, page, problems } = await openAs(browser, staff, "/admin/jobs", PHONE);
  await page.getByRole("button", { name: `Roof leak ${T}` }).click();
  await page.getByText("An editor or the owner's admin account publishes jobs.").waitFor();
  assert.equal(await page.getByRole("button", { name: "Publish the job" }).count(), 0);
  await page.getByLabel("Add as").selectOption("after");
  await page.getByRole("button", { name: "Add from the photo library" }).click();
  const dialog = page.getByRole("dialog", { name: "Add from the photo library" });
  await dialog.waitFor();
  const added = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/photos"));
  await dialog.getByRole("button", { name: new RegExp(`^Add to the job\\W+Dry roof deck ${T}$`) }).click();
  assert.equal((await added).status(), 200);
  await dialog.waitFor({ state: "detached" });
  await page.getByText("The photos were taken near").waitFor();
  assert.deepEqual(await axe(page), [], "staff's job screen at 390 px");
  assert.equal(await page.getByLabel("Phase of photo 1").inputValue(), "after");
  await page.getByText("The photos were taken near").waitFor();
  assert.ok(await page.getByLabel("The lead it came from (optional)").isVisible(), "staff may link the lead");
  assert.deepEqual(problems, []);
  await context.close();
});

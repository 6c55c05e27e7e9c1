// Photos where they belong: an editor writes a post on a phone
// (390 px), uploads its cover photo from the editor's photo field with
// alt text, without leaving the editor, and publishes. The post shows the
// cover; the photo is in the photo library but NOT in the portfolio (the
// Portfolio page, the home page's gallery). On the library screen the
// owner can show it in the portfolio with one tap (naming its project)
// and take it out again. SHOTS_DIR=/some/dir saves the photo field and
// the library at 390 and 1280 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BASE, launch, hydrated, open, until } from "./lib.mjs";
import { newEditor, openAs, tag } from "./account.mjs";

const [TAG, Tag] = tag();
const POST = { title: `Ceiling Leak After a Storm ${Tag}`, slug: `ceiling-leak-after-storm-${TAG}` };
const ALT = `Water-stained ceiling drywall cut open over a living room ${Tag}`;
const CAPTION = "The wet drywall came out the same day";
const PROJECT = `Storm Ceiling ${Tag}`;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;
const JPEG = readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url));

let browser, editor, photo, postId;

before(async () => {
  editor = newEditor();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function shot(page, name, fullPage = true) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize().width}.png`, fullPage });
}

/** stem is a stored photo's key without its extension: the original and
 * every WebP variant start with it. */
const stem = (p) => p.replace(/\.[a-z]+$/, "");

/** pageShows reports whether a public page, as served, names the photo
 * in any img's src or srcset (the gallery, a hero, a cover). */
async function pageShows(path, p) {
  const html = await (await fetch(BASE + path)).text();
  return html.includes(stem(p.path));
}

const noOverflow = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

test("an editor uploads a post's cover from the photo field on a phone, publishes; the cover is on the post and not in the portfolio", async () => {
  const { context, page, problems } = await openAs(browser, editor, "/admin/content?kind=article", PHONE);
  await page.getByRole("button", { name: "Create New Blog Post" }).click();
  const create = page.getByRole("dialog", { name: "Create New Blog Post" });
  await create.getByLabel("Title", { exact: true }).fill(POST.title);
  await create.getByLabel("Slug", { exact: true }).fill(POST.slug);
  await create.getByRole("button", { name: "Add blog post" }).click();
  await page.getByRole("heading", { level: 1, name: POST.title }).waitFor();
  postId = new URL(page.url()).searchParams.get("item");

  // The words.
  await page.getByLabel("Excerpt", { exact: true }).fill("A storm pushed water under the shingles. How we found the wet drywall, dried the attic and closed the ceiling in a week.");
  const category = page.getByLabel("Category", { exact: true });
  if (await category.count()) await category.selectOption({ label: "Restoration" });
  const reading = page.getByLabel("Reading time (minutes)");
  if (await reading.count()) await reading.fill("3");
  await page.getByLabel("SEO title").fill(`Ceiling Leak After a Storm ${Tag}`);
  await page.getByLabel("Meta description").fill("A storm pushed water under the shingles. How we found the wet drywall, dried the attic and closed the ceiling in a week.");
  await page.getByLabel("Article body", { exact: true }).fill("## Find the wet drywall\nA moisture meter shows how far the water went.\n## Dry the attic\nFans and a dehumidifier run for three days.");

  // The cover photo, uploaded in place: the picker offers the upload first.
  await page.getByRole("button", { name: "Choose photo for the cover photo" }).click();
  const picker = page.getByRole("dialog", { name: "Choose the cover photo" });
  const upload = picker.getByRole("group", { name: "Upload a new photo" });
  await upload.waitFor();
  await picker.getByText(/photo library/).first().waitFor();
  assert.equal(await picker.getByRole("link", { name: "Photo Upload" }).count(), 0, "the picker no longer sends the owner away");
  // Without alt text nothing is sent.
  await upload.locator('input[type="file"]').setInputFiles({ name: "IMG_2231.jpg", mimeType: "image/jpeg", buffer: JPEG });
  await upload.getByText("IMG_2231.jpg").waitFor();
  await upload.getByRole("button", { name: "Upload and use this photo" }).click();
  await upload.getByRole("alert").filter({ hasText: "Write the alt text first" }).waitFor();
  await upload.getByLabel("Alt text of the new photo (required)").fill(ALT);
  assert.equal(await upload.getByRole("alert").count(), 0, "the message goes once the alt text is written");
  await upload.getByLabel("Caption of the new photo (optional)").fill(CAPTION);
  await shot(page, "photo-field-upload", false);
  const sent = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/admin/media");
  await upload.getByRole("button", { name: "Upload and use this photo" }).click();
  const res = await sent;
  assert.equal(res.status(), 201, await res.text());
  assert.equal(new URL(res.url()).searchParams.get("portfolio"), "false", "the editor's upload is for the library");
  photo = await res.json();
  assert.equal(photo.portfolio, false, "the server stored it as not project work");
  assert.match(photo.path, /^projects\/library\//);
  await picker.waitFor({ state: "detached" });

  // The field holds the new photo with the alt text and caption written in the picker.
  const thumb = page.locator(".ac-image__thumb img");
  await thumb.waitFor();
  assert.ok((await thumb.getAttribute("src")).startsWith("/media/projects/library/"));
  assert.equal(await page.getByLabel("Alt text (required)").inputValue(), ALT);
  assert.equal(await page.getByLabel("Caption (optional)").inputValue(), CAPTION);
  assert.ok(await page.getByText(/^Photo library, uploaded /).isVisible());
  assert.ok(await noOverflow(page), "no sideways scrolling at 390 px");
  await page.locator(".ac-image").scrollIntoViewIfNeeded();
  await shot(page, "photo-field", false);

  // Publish (it saves first).
  const pub = page.waitForResponse((r) => r.url().endsWith("/publish") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const pubRes = await pub;
  assert.equal(pubRes.status(), 200, await pubRes.text());
  await page.getByText(`Published: /blog/${POST.slug}`).first().waitFor();
  assert.deepEqual(problems, []);
  await context.close();

  // The post shows the cover, with its alt text and caption.
  const post = await open(browser, `/blog/${POST.slug}`, PHONE);
  assert.equal(post.res.status(), 200);
  const cover = post.page.locator(`img[alt="${ALT}"]`);
  await cover.waitFor();
  assert.ok((await cover.getAttribute("src")).includes(stem(photo.path)), "the cover is the uploaded photo");
  assert.ok(await until(() => cover.evaluate((img) => img.complete && img.naturalWidth > 0)), "the cover loads");
  assert.ok(await post.page.getByText(CAPTION).isVisible());
  await hydrated(post.page);
  assert.deepEqual(post.problems, []);
  await post.context.close();

  // Not in the portfolio: neither the Portfolio page nor the home gallery.
  for (const path of ["/portfolio", "/"]) {
    const o = await open(browser, path, PHONE);
    await o.page.locator("#portfolio").waitFor();
    const names = await o.page.locator("#portfolio img").evaluateAll((imgs) => imgs.map((i) => `${i.getAttribute("src")} ${i.getAttribute("srcset") || ""}`).join("\n"));
    assert.ok(!names.includes(stem(photo.path)), `${path}'s gallery shows the cover photo`);
    assert.equal(await o.page.locator("#portfolio").getByText(ALT).count(), 0);
    assert.equal(await pageShows(path, photo), false, `${path} names the cover photo`);
    await o.context.close();
  }
});

test("on the library screen the cover is a library photo; one tap (with a project name) shows it in the portfolio, another takes it out", async () => {
  assert.ok(photo, "the first test uploaded the photo");
  const { context, page, problems } = await openAs(browser, editor, "/admin/upload", PHONE);
  await page.getByRole("heading", { name: "Photo Upload" }).waitFor();
  await page.getByText(/shows only the ones marked as project work/).waitFor();
  const item = page.locator(".a-media__item").filter({ has: page.locator(`img[alt="${ALT}"]`) });
  await item.waitFor();
  assert.ok(await item.getByText("Photo library", { exact: true }).isVisible(), "no project: the library's badge");
  const toggle = item.getByRole("switch", { name: /In the portfolio/ });
  assert.equal(await toggle.isChecked(), false);
  await page.locator(".a-upload__summary").waitFor();
  assert.ok(await noOverflow(page), "no sideways scrolling at 390 px");
  await shot(page, "library");

  // One tap: it has no project yet, so the screen asks which.
  await toggle.click();
  await item.getByLabel("Which project is it?").fill(PROJECT);
  const marked = page.waitForResponse((r) => r.url().endsWith(`/api/admin/media/${photo.id}/portfolio`));
  await item.getByRole("button", { name: "Show in the portfolio" }).click();
  assert.equal((await marked).status(), 200);
  await page.getByText(`Shown in the portfolio under ${PROJECT}`).waitFor();
  assert.equal(await toggle.isChecked(), true);
  assert.ok(await item.getByText(PROJECT, { exact: true }).isVisible());
  assert.ok(await until(() => pageShows("/portfolio", photo)), "/portfolio shows the photo marked as project work");
  assert.ok(await until(() => pageShows("/", photo)), "the home gallery shows it too");

  // Another tap takes it out; it stays in the library.
  const unmarked = page.waitForResponse((r) => r.url().endsWith(`/api/admin/media/${photo.id}/portfolio`));
  await toggle.click();
  assert.equal((await unmarked).status(), 200);
  await page.getByText("Taken out of the portfolio (still in your photo library)").waitFor();
  assert.equal(await toggle.isChecked(), false);
  assert.ok(await until(async () => !(await pageShows("/portfolio", photo))), "/portfolio no longer shows it");
  assert.ok(await until(async () => !(await pageShows("/", photo))), "the home gallery no longer shows it");
  assert.equal(await page.locator(".a-media__item").filter({ has: page.locator(`img[alt="${ALT}"]`) }).count(), 1, "still in the library");
  assert.deepEqual(problems, []);
  await context.close();

  if (SHOTS) {
    // The library and the photo field at 1280 px.
    const wide = await openAs(browser, editor, "/admin/upload", WIDE);
    await wide.page.locator(".a-media__item").filter({ has: wide.page.locator(`img[alt="${ALT}"]`) }).waitFor();
    await shot(wide.page, "library");
    await wide.context.close();
    const ed = await openAs(browser, editor, `/admin/content?item=${postId}`, WIDE);
    await ed.page.getByRole("heading", { level: 1, name: POST.title }).waitFor();
    await ed.page.locator(".ac-image__thumb img").waitFor();
    await ed.page.locator(".ac-image").scrollIntoViewIfNeeded();
    await shot(ed.page, "photo-field", false);
    await ed.page.getByRole("button", { name: "Change photo of the cover photo" }).click();
    await ed.page.getByRole("dialog", { name: "Choose the cover photo" }).getByRole("list", { name: "Photos" }).waitFor();
    await shot(ed.page, "photo-field-upload", false);
    await ed.context.close();
  }
});

// Content that saves and cannot hurt the site, on a phone: an
// editor changes an answer of the home page's FAQ block (a block that
// could not be saved before), publishes it and reads it on the home page;
// an info page's address is shown, not editable, and the server refuses
// a new one. SHOTS_DIR=/some/dir saves the FAQ editor at 390 and 1280 px.
//
// Run against a test server: BASE_URL and DATA_DIR from scripts/serve-test.sh.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, until, BASE } from "./lib.mjs";
import { apiSession, newEditor, openAs, tag } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;
const [TAG] = tag();

let browser, editor, api;
before(async () => {
  editor = newEditor();
  api = await apiSession(editor);
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** itemOf finds an item of a kind by slug through the API. */
async function itemOf(kind, slug) {
  const r = await api(`/api/admin/content?perPage=200&kind=${kind}`);
  assert.equal(r.status, 200);
  const it = (await r.json()).items.find((i) => i.slug === slug);
  assert.ok(it, `${kind} ${slug}`);
  return it;
}

async function shot(page, name) {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll(".toast__close").forEach((b) => b.click()));
  await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize().width}.png`, fullPage: true });
}

test("on a phone, an editor changes an answer of the home page's FAQ, publishes it, and the home page shows it", async () => {
  const faq = await itemOf("faq", "home");
  const { context, page } = await openAs(browser, editor, `/admin/content?item=${faq.id}`, PHONE);
  await page.getByRole("heading", { level: 1, name: "Home page FAQ" }).waitFor();
  const first = page.getByRole("group", { name: "FAQ 1", exact: true });
  // The answer keeps its words (other tests read them: the response time
  // it names), with a mark added.
  const field = first.getByLabel("Answer", { exact: true });
  const answer = `${(await field.inputValue()).trim()} (${TAG})`;
  await field.fill(answer);
  // Saved as it is: the block is a list, and the server takes it.
  const saved = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith(`/api/admin/content/${faq.id}`));
  await page.getByRole("button", { name: "Save draft" }).click();
  const res = await saved;
  assert.equal(res.status(), 200, await res.text());
  const published = page.waitForResponse((r) => r.url().endsWith(`/api/admin/content/${faq.id}/publish`));
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  assert.equal((await published).status(), 200);
  await page.getByText(/^Published/).first().waitFor();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), "no sideways scroll at 390 px");
  await shot(page, "faq-editor");
  await page.setViewportSize(WIDE);
  await shot(page, "faq-editor");
  await context.close();

  // Live: the home page shows the new answer (re-rendered on publish).
  let home = "";
  await until(async () => (home = await (await fetch(BASE + "/")).text()).includes(TAG));
  assert.ok(home.includes(answer), "the published answer is on the home page");
});

test("an info page's address is shown, not editable; the server refuses a new one", async () => {
  const about = await itemOf("page", "about");
  const { context, page } = await openAs(browser, editor, `/admin/content?item=${about.id}`, PHONE);
  await page.getByLabel("Title", { exact: true }).waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Address" }).count(), 0, "no address field to type in");
  await page.getByText("An info page's address is fixed.").waitFor();
  await context.close();

  const cur = await (await api(`/api/admin/content/${about.id}`)).json();
  const r = await api(`/api/admin/content/${about.id}`, {
    method: "PUT", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ version: cur.version, data: { ...cur.draft, slug: `about-us-${TAG}` } }),
  });
  assert.equal(r.status, 422);
  assert.match((await r.json()).error, /address cannot change/);
  const after = await (await api(`/api/admin/content/${about.id}`)).json();
  assert.equal(after.version, cur.version, "nothing saved");
});

// A lead's files and the homeowner's messages (ADR 067), end to end at
// 390 px: the owner attaches an estimate on the lead's screen; the
// homeowner opens their private link, sees it, and sends a photo and a
// message with the plain form; the owner's open lead screen shows the
// photo and the message without a reload. The insurer's read-only view
// lists the same files and has no form. Run against a site: BASE_URL and
// DATA_DIR (scripts/serve-test.sh). The links are the product's own:
// the homeowner's from the thank-you screen's booking link (the
// estimate's answer), the insurer's from the owner's API.
// SHOTS_DIR=/some/dir saves screenshots.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { launch, hydrated, BASE, gotoSettled, postFromOwnAddress, waitFor } from "./lib.mjs";
import { addUser, apiSession, password, signIn, tag } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOTS_DIR;
const shoot = (page, name) => SHOTS ? page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true }) : null;
const [t, T] = tag();
const CREW = { email: `crew.files.${t}@example.com`, name: `Crew ${T}`, password: password() };
const OWNER = { email: `owner.files.${t}@example.com`, name: `Owner ${T}`, password: password() };
const LAST = `Files${T}`;
const MESSAGE = `The stain on the ceiling grew overnight (${t}).`;
const KITCHEN = fileURLToPath(new URL("./fixtures/kitchen.jpg", import.meta.url));

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("the homeowner sends a photo and a message; the owner's lead screen shows them live", async () => {
  if (!process.env.DATA_DIR) throw new Error("DATA_DIR must name the test server's data folder");
  addUser(OWNER, "admin");
  const post = await postFromOwnAddress("/api/estimate", { name: `Maria ${LAST}`, phone: "(470) 555-0199", email: `maria.${t}@example.com`, city: "Marietta",
    street: "12 Elm St", zip: "30060", damageType: "Water Damage", emergency: "no", insuranceCarrier: "", notes: "Leak " + t, website: "" });
  assert.equal(post.status, 201, post.text);
  // The thank-you screen's booking link is the homeowner's page's.
  const home = JSON.parse(post.text).booking?.match(/^\/my\/([A-Za-z0-9_-]{22})\/booking$/)?.[1];
  assert.ok(home, "the estimate's answer links to the homeowner's page");
  // A staff account (no second factor to enrol) issues the insurer's link.
  addUser(CREW, "staff");
  const api = await apiSession(CREW);
  const found = await (await api(`/api/admin/leads?q=${LAST}`)).json();
  const leadId = found.leads?.[0]?.id;
  assert.ok(leadId, "the lead is listed");
  const issued = await api(`/api/admin/leads/${leadId}/links`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ days: 30 }) });
  assert.equal(issued.status, 201);
  const claim = new URL((await issued.json()).url).pathname.split("/")[2];

  // The owner, on a phone, opens the lead and attaches an estimate.
  const octx = await browser.newContext({ viewport: PHONE });
  const owner = await octx.newPage();
  const problems = [];
  owner.on("pageerror", (e) => problems.push(e.message));
  let navigations = 0;
  owner.on("framenavigated", (f) => { if (f === owner.mainFrame()) navigations++; });
  await gotoSettled(owner, BASE + "/admin/leads");
  await hydrated(owner);
  await signIn(owner, OWNER);
  await waitFor("the leads screen to say Live", () => owner.locator('[data-live="on"]').count());
  await owner.getByRole("button", { name: `Details for Maria ${LAST}` }).click();
  const dialog = owner.getByRole("dialog", { name: `Lead details: Maria ${LAST}` });
  await dialog.waitFor();
  const files = dialog.getByRole("region", { name: "Files the homeowner sees" });
  await files.getByText("No files yet.").waitFor();
  await files.getByLabel("Document").selectOption("estimate");
  await files.locator("input[type=file]").setInputFiles({ name: "Estimate 1042.pdf", mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n") });
  await files.getByRole("button", { name: "Add document" }).click();
  await files.getByText("Estimate 1042").waitFor();
  const navigated = navigations;

  // The homeowner, on their phone: the estimate, then a photo and a message.
  const hctx = await browser.newContext({ viewport: PHONE });
  const page = await hctx.newPage();
  page.on("pageerror", (e) => problems.push(e.message));
  const first = await page.goto(`${BASE}/my/${home}`);
  assert.equal(first.status(), 200);
  const headers = first.headers();
  assert.equal(headers["cache-control"], "no-store");
  assert.equal(headers["referrer-policy"], "no-referrer");
  assert.match(headers["x-robots-tag"] || "", /noindex/);
  await page.getByText("Estimate", { exact: true }).waitFor();
  const pdf = await page.request.get(BASE + await page.getByRole("link", { name: /Download.*Estimate/ }).getAttribute("href"));
  assert.match(pdf.headers()["content-disposition"], /^attachment;/);
  assert.equal(pdf.headers()["x-content-type-options"], "nosniff");
  await page.getByLabel("Photos of the damage").setInputFiles(KITCHEN);
  await page.getByLabel(/A message/).fill(MESSAGE);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("status").filter({ hasText: "it reached our team" }).waitFor();
  assert.match(page.url(), /files=sent/);
  await page.getByRole("list", { name: "Your photos" }).getByRole("img").first().waitFor();
  await shoot(page, "c-homeowner-390");
  await page.setViewportSize(WIDE);
  await shoot(page, "c-homeowner-1280");

  // The owner's screen follows without a reload: the photo and the message.
  await files.getByRole("img", { name: /Photo, sent by the homeowner/ }).waitFor();
  await dialog.getByText(MESSAGE).waitFor();
  await dialog.getByText("The homeowner sent a photo and a message").waitFor();
  assert.equal(navigations, navigated, "the owner's page did not reload");
  await files.scrollIntoViewIfNeeded();
  if (SHOTS) await owner.screenshot({ path: `${SHOTS}/c-owner-390.png` });

  // The insurer's view: the same files, no form; its post is refused.
  const actx = await browser.newContext({ viewport: PHONE });
  const adj = await actx.newPage();
  assert.equal((await adj.goto(`${BASE}/claim/${claim}`)).status(), 200);
  await adj.getByText("Estimate", { exact: true }).waitFor();
  await adj.getByRole("list", { name: "The homeowner's photos" }).waitFor();
  assert.equal(await adj.locator("form, textarea, input[type=file]").count(), 0, "the insurer's view sends nothing");
  const refused = await adj.request.post(`${BASE}/claim/${claim}/messages`, { form: { message: "hi" }, maxRedirects: 0 });
  assert.ok([404, 405].includes(refused.status()), `adjuster's post: ${refused.status()}`);
  const asHomeowner = await adj.request.post(`${BASE}/my/${claim}/messages`, { form: { message: "hi" }, maxRedirects: 0 });
  assert.equal(asHomeowner.status(), 404);
  await shoot(adj, "c-adjuster-390");
  await adj.setViewportSize(WIDE);
  await shoot(adj, "c-adjuster-1280");
  assert.deepEqual(problems, []);
  await Promise.all([octx.close(), hctx.close(), actx.close()]);
});

// Every customer asked for a review (issue 33, ADR 063), end to end: the
// owner sets the delay to 0 on the Testimonials screen, a crew lead marks
// a lead completed through the admin API, the mail server (a fake here)
// gets one review request, the homeowner opens its feedback link, leaves
// words with consent, the owner approves them on a phone, and the city's
// page shows the quote. The file runs its own site (startSite): it needs
// SMTP_URL and GOOGLE_PLACE_ID.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, hydrated, startSite, gotoSettled, waitFor } from "./lib.mjs";
import { addUser, apiSession, password, signIn, tag } from "./account.mjs";
import { smtpFake, decodeQP } from "./smtp-fake.mjs";

const PHONE = { width: 390, height: 844 };
const [t, T] = tag();
const OWNER = { email: `owner.${t}@example.com`, name: `Owner ${T}`, password: password() };
const CREW = { email: `crew.${t}@example.com`, name: `Crew ${T}`, password: password() };
const HOMEOWNER = `maria.${t}@example.com`;
const QUOTE = `The crew dried our basement in two days and kept us told at every step (${t}).`;
const SHOTS = process.env.SHOT_DIR;


const reviewRequests = (fake) => fake.messages.filter((m) => /^Subject: How did we do\?/m.test(m.body) && m.to.includes(HOMEOWNER));

const require = createRequire(import.meta.url);
let browser, site, smtp, crew, feedbackPath;
before(async () => {
  smtp = smtpFake();
  const port = await smtp.listen();
  site = await startSite({ SMTP_URL: `smtp://127.0.0.1:${port}`, LEAD_NOTIFY_TO: "office@example.com", GOOGLE_PLACE_ID: "ChIJ-e2e-place" });
  addUser(OWNER, "admin", site.data);
  addUser(CREW, "staff", site.data);
  crew = await apiSession(CREW, site.base);
  browser = await launch();
});
after(async () => {
  if (process.env.SITE_LOG) (await import("node:fs")).writeFileSync(process.env.SITE_LOG, site?.log() || "");
  await browser?.close();
  site?.stop();
  smtp?.srv.close();
});

/** page opens a path of the test's site at a width, recording errors. */
async function page(path, viewport = PHONE) {
  const context = await browser.newContext({ viewport });
  const p = await context.newPage();
  const problems = [];
  p.on("pageerror", (e) => problems.push(e.message));
  p.on("console", (m) => { if (m.type() === "error" && !/401|Unauthorized/.test(m.text())) problems.push(m.text()); });
  await gotoSettled(p, site.base + path);
  return { context, page: p, problems };
}

test("a completed job gets one review request, and the homeowner's words reach the city page through moderation", async () => {
  // The owner sets the delay to 0 on the Testimonials screen.
  const owner = await page("/admin/testimonials");
  await hydrated(owner.page);
  await signIn(owner.page, OWNER);
  await owner.page.getByRole("heading", { name: "Testimonials", level: 1 }).waitFor();
  const delay = owner.page.getByLabel("Minutes to wait after a job is marked completed");
  await delay.waitFor();
  assert.equal(await delay.inputValue(), "120");
  await owner.page.getByText("Messages link to").waitFor();
  await delay.fill("0");
  const saved = owner.page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/review-requests" && r.request().method() === "PUT");
  await owner.page.getByRole("button", { name: "Save", exact: true }).click();
  assert.equal((await saved).status(), 200);
  await owner.page.getByText("Customers are now asked right away.").waitFor();

  // A visitor's lead; the crew marks it completed.
  const res = await fetch(site.base + "/api/estimate", {
    method: "POST", headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Maria Gonzalez", phone: "(770) 555-0199", email: HOMEOWNER, city: "Smyrna",
      damageType: "Water Damage", emergency: "no", website: "" }).toString(),
  });
  assert.equal(res.status, 201, await res.text());
  const list = await (await crew(`/api/admin/leads?q=Maria`)).json();
  const lead = list.leads.find((l) => l.city === "Smyrna");
  assert.ok(lead, "the lead is listed: " + JSON.stringify(list).slice(0, 300));
  for (const status of ["completed", "scheduled", "completed"]) {
    const r = await crew(`/api/admin/leads/${lead.id}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ status }) });
    assert.equal(r.status, 200, await r.text());
  }

  // One review request reaches the mail server.
  while (reviewRequests(smtp).length === 0) await smtp.changed();
  const body = decodeQP(reviewRequests(smtp)[0].body);
  assert.match(body, /https:\/\/search\.google\.com\/local\/writereview\?placeid=ChIJ-e2e-place/);
  assert.match(body, /^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/feedback\/[A-Za-z0-9_-]{43}\/stop>$/m);
  const link = body.match(/http:\/\/127\.0\.0\.1:\d+(\/feedback\/[A-Za-z0-9_-]{43})\r\n/)[1];
  feedbackPath = link;

  // The homeowner leaves words with consent, on a phone, without a
  // fixed wait: the form posts and the thanks replaces it.
  const home = await page(link);
  await home.page.getByRole("heading", { name: "How did we do?", level: 1 }).waitFor();
  assert.ok(await home.page.getByRole("link", { name: "Review us on Google" }).isVisible());
  await home.page.getByLabel("Your words").fill(QUOTE);
  await home.page.getByLabel(/You may publish my words/).check();
  if (SHOTS) await home.page.screenshot({ path: `${SHOTS}/feedback-390.png`, fullPage: true });
  await Promise.all([home.page.waitForURL("**" + link), home.page.getByRole("button", { name: "Send" }).click()]);
  await home.page.getByText("Thank you! Your words reached us.").waitFor();
  assert.ok(await home.page.getByRole("link", { name: "Review us on Google" }).isVisible(), "the Google link stays after sending");
  assert.deepEqual(home.problems, []);

  // The owner approves it on the phone.
  await owner.page.reload({ waitUntil: "load" });
  await hydrated(owner.page);
  const row = owner.page.getByText(QUOTE).first();
  await row.waitFor();
  const done = owner.page.waitForResponse((r) => /\/api\/admin\/testimonials\//.test(new URL(r.url()).pathname));
  await owner.page.getByRole("button", { name: /^Approve/ }).first().click();
  assert.equal((await done).status(), 200);
  await owner.page.getByText("It now shows on the Smyrna page.").waitFor();
  if (SHOTS) await owner.page.screenshot({ path: `${SHOTS}/testimonials-390.png`, fullPage: true });
  assert.deepEqual(owner.problems, []);

  // The city page shows the quote, as text, with no review markup.
  await waitFor("the quote on the city page", async () => (await (await fetch(site.base + "/areas/cobb/smyrna")).text()).includes(QUOTE));
  const city = await page("/areas/cobb/smyrna");
  await city.page.getByText(QUOTE).waitFor();
  await city.page.getByText("Maria, Smyrna").waitFor();
  const ld = await city.page.locator('script[type="application/ld+json"]').allTextContents();
  assert.ok(!ld.some((s) => /"Review"|"AggregateRating"|reviewBody/.test(s)), "review structured data from a testimonial");
  assert.equal(reviewRequests(smtp).length, 1, "one review request, though the status went completed, scheduled, completed");
  for (const o of [owner, home, city]) await o.context.close();
});

/** axe runs axe-core (WCAG 2.2 A and AA) on the page as it is now. */
async function axe(p) {
  await p.evaluate(readFileSync(require.resolve("axe-core/axe.min.js"), "utf8"));
  return p.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] }, resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

test("the feedback page, its thanks and its opt-out are valid HTML and axe finds nothing at 390 and 1280 px", async () => {
  assert.ok(feedbackPath, "the first test found a feedback link");
  // The city page first: sending the words again sends them back to the
  // owner, off the page.
  const check = async (path, viewport) => {
    const o = await page(path, viewport);
    await hydrated(o.page);
    assert.deepEqual(await axe(o.page), [], `${path} at ${viewport.width} px`);
    if (SHOTS && path.endsWith("/stop")) await o.page.screenshot({ path: `${SHOTS}/feedback-stop-${viewport.width}.png`, fullPage: true });
    if (SHOTS && path === feedbackPath) await o.page.screenshot({ path: `${SHOTS}/feedback-${viewport.width}.png` });
    if (SHOTS && path.startsWith("/areas")) await o.page.locator("section.testimonials").screenshot({ path: `${SHOTS}/city-testimonials-${viewport.width}.png` });
    assert.deepEqual(o.problems, []);
    await o.context.close();
  };
  const city = await (await fetch(site.base + "/areas/cobb/smyrna")).text();
  assert.ok(city.includes(QUOTE));
  for (const viewport of [PHONE, { width: 1280, height: 900 }]) await check("/areas/cobb/smyrna", viewport);
  const pages = {
    city,
    form: await (await fetch(site.base + feedbackPath)).text(),
    thanks: await (await fetch(site.base + feedbackPath, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ text: QUOTE, consent: "yes" }).toString() })).text(),
    stop: await (await fetch(site.base + feedbackPath + "/stop")).text(),
  };
  const dir = mkdtempSync(join(tmpdir(), "vnu-feedback-"));
  try {
    const files = Object.entries(pages).map(([name, html]) => {
      const f = join(dir, name + ".html");
      writeFileSync(f, html);
      return f;
    });
    const r = spawnSync("java", ["-XX:TieredStopAtLevel=1", "-Xss8m", "-jar", require.resolve("vnu-jar/build/dist/vnu.jar"), "--errors-only", "--format", "json", "--exit-zero-always", ...files], { encoding: "utf8", timeout: 300_000 });
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
    const errors = JSON.parse(r.stderr).messages.filter((m) => m.type === "error" || m.subType === "fatal");
    assert.deepEqual(errors.map((m) => `${m.url.split("/").pop()}:${m.lastLine}: ${m.message}`), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const viewport of [PHONE, { width: 1280, height: 900 }]) {
    for (const path of [feedbackPath, feedbackPath + "/stop"]) await check(path, viewport);
  }
});

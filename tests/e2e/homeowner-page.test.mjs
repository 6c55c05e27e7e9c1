// The homeowner's own page (ADR 065), end to end at 390 px: a visitor
// asks for an estimate, the acknowledgement (a fake mail server) carries
// the link to their job's page, which shows the timeline; the crew
// changes the status and records drying, and the page and an email
// follow; an insurer's link shows the timeline with no contact and no
// messaging, and dies when revoked. The file runs its own site
// (startSite): it needs SMTP_URL. SHOT_DIR keeps screenshots.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { launch, hydrated, startSite, gotoSettled } from "./lib.mjs";
import { addUser, apiSession, password, signIn, tag } from "./account.mjs";
import { smtpFake, decodeQP } from "./smtp-fake.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const [t, T] = tag();
const CREW = { email: `crew.${t}@example.com`, name: `Dana ${T}`, password: password() };
const HOMEOWNER = `maria.${t}@example.com`;
const SHOTS = process.env.SHOT_DIR;

const require = createRequire(import.meta.url);
let browser, site, smtp, crew, homeLink, claimLink;
before(async () => {
  smtp = smtpFake();
  const port = await smtp.listen();
  site = await startSite({ SMTP_URL: `smtp://127.0.0.1:${port}`, LEAD_NOTIFY_TO: "office@example.com" });
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

const toHomeowner = (subject) => smtp.messages.filter((m) => m.to.includes(HOMEOWNER) && new RegExp(`^Subject: ${subject}`, "m").test(m.body));

/** mail waits for the n-th message of a subject to the homeowner. */
async function mail(subject, n = 1) {
  while (toHomeowner(subject).length < n) await smtp.changed();
  return decodeQP(toHomeowner(subject)[n - 1].body);
}

const homePath = (body) => body.match(/http:\/\/127\.0\.0\.1:\d+(\/my\/[A-Za-z0-9_-]{22})\r\n/)[1];

/** open opens a path at a width, recording errors. */
async function open(path, viewport = PHONE) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  const res = await gotoSettled(page, site.base + path);
  return { context, page, problems, res };
}

async function shots(path, name) {
  if (!SHOTS) return;
  for (const v of [PHONE, WIDE]) {
    const o = await open(path, v);
    await o.page.screenshot({ path: `${SHOTS}/a-${name}-${v.width}.png`, fullPage: true });
    await o.context.close();
  }
}

const json = (body) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

test("the acknowledgement links to the job's page; status and steps show there and are emailed; an insurer's link is read-only and dies when revoked", async () => {
  const res = await fetch(site.base + "/api/estimate", {
    method: "POST", headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Maria Gonzalez", phone: "(770) 555-0199", email: HOMEOWNER, city: "Smyrna",
      damageType: "Water Damage", emergency: "no", website: "" }).toString(),
  });
  assert.equal(res.status, 201, await res.text());

  // The acknowledgement carries the link; the page shows the timeline.
  const ack = await mail("We received your request");
  const path = homePath(ack);
  assert.match(ack, new RegExp(`Stop them here: http://127\\.0\\.0\\.1:\\d+${path}/stop`, "i"));
  const home = await open(path);
  assert.equal(home.res.status(), 200);
  assert.equal(home.res.headers()["cache-control"], "no-store");
  assert.equal(home.res.headers()["referrer-policy"], "no-referrer");
  await home.page.getByRole("heading", { name: "Your job with us", level: 1 }).waitFor();
  await home.page.getByText("We received your request").waitFor();
  await home.page.getByText("Shut off the water at the main valve", { exact: false }).waitFor();
  const call = home.page.getByRole("link", { name: /\d{3}.*\d{4}/ }).filter({ has: home.page.locator("xpath=self::a[starts-with(@href, 'tel:')]") });
  assert.ok(await call.count() > 0, "a tap-to-call link");
  await shots(path, "home-received");

  // The crew schedules the visit: an email with a fresh link, and the
  // page follows.
  const list = await (await crew(`/api/admin/leads?q=Maria`)).json();
  const lead = list.leads.find((l) => l.city === "Smyrna");
  assert.ok(lead, "the lead is listed");
  let r = await crew(`/api/admin/leads/${lead.id}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ status: "scheduled" }) });
  assert.equal(r.status, 200, await r.text());
  const update = await mail("An update on your job");
  assert.match(update, /Your visit is scheduled\./);
  const path2 = homePath(update);
  assert.notEqual(path2, path, "each message carries its own link");
  await home.page.reload();
  await home.page.getByText("Visit scheduled").waitFor();
  await shots(path2, "home-scheduled");

  // Drying: day 1 on the page, and an email.
  r = await crew(`/api/admin/leads/${lead.id}/progress`, json({ step: "drying_started" }));
  assert.equal(r.status, 201, await r.text());
  assert.match(await mail("An update on your job", 2), /drying has started/);
  await home.page.reload();
  await home.page.getByText("Drying, day 1").waitFor();
  await shots(path, "home-drying");
  assert.deepEqual(home.problems, []);

  // An insurer's link: the timeline, no contact, no messaging, no opt-out.
  r = await crew(`/api/admin/leads/${lead.id}/links`, json({ days: 30 }));
  assert.equal(r.status, 201);
  const issued = await r.json();
  const claimPath = new URL(issued.url).pathname;
  const claim = await open(claimPath);
  await claim.page.getByRole("heading", { name: "Claim file", level: 1 }).waitFor();
  await claim.page.getByText("Drying, day 1").waitFor();
  await claim.page.getByText("The homeowner's request reached us").waitFor();
  const text = await claim.page.locator("main, body").first().innerText();
  for (const not of [HOMEOWNER, "Maria", "Stop updates", "Who is coming"]) assert.ok(!text.includes(not), `the insurer's view shows ${not}`);
  assert.equal(await claim.page.locator("main form, main textarea").count(), 0, "no messaging on the insurer's view");
  await shots(claimPath, "claim");
  const links = await (await crew(`/api/admin/leads/${lead.id}/links`)).json();
  assert.equal(links.items.find((l) => l.id === issued.link.id).opens >= 1, true, "the insurer's opens are counted");
  assert.ok(links.homeOpens >= 1, "the homeowner's opens are counted");
  r = await crew(`/api/admin/leads/${lead.id}/links/${issued.link.id}`, { method: "DELETE" });
  assert.equal(r.status, 200);
  const dead = await claim.page.reload();
  assert.equal(dead.status(), 404);
  await claim.page.getByText("Oops! Page not found").waitFor();

  // The crew's side on a phone: the lead's dialog records a step and
  // lists the insurer's link as revoked.
  const admin = await open(`/admin/leads?lead=${encodeURIComponent(lead.id)}`);
  await hydrated(admin.page);
  await signIn(admin.page, CREW);
  await admin.page.getByRole("heading", { name: "Homeowner's page" }).waitFor();
  await admin.page.getByText(/Revoked: made/).waitFor();
  const stepped = admin.page.waitForResponse((x) => new URL(x.url()).pathname.endsWith("/progress"));
  await admin.page.getByRole("button", { name: "Work started" }).click();
  assert.equal((await stepped).status(), 201);
  await admin.page.getByText("Work started: on the timeline").first().waitFor();
  if (SHOTS) await admin.page.getByRole("heading", { name: "Homeowner's page" }).locator("xpath=..").screenshot({ path: `${SHOTS}/a-admin-390.png` });
  assert.deepEqual(admin.problems.filter((p) => !/401|Unauthorized/.test(p)), []);
  await admin.context.close();
  await home.page.reload();
  await home.page.getByText("Work in progress").waitFor();

  // Completed: the page says so.
  r = await crew(`/api/admin/leads/${lead.id}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ status: "completed" }) });
  assert.equal(r.status, 200);
  await home.page.reload();
  await home.page.getByText("Work completed").waitFor();
  await shots(path, "home-completed");
  for (const o of [home, claim]) await o.context.close();
  homeLink = path;
  r = await crew(`/api/admin/leads/${lead.id}/links`, json({ days: 1 }));
  claimLink = new URL((await r.json()).url).pathname;
});

/** axe runs axe-core (WCAG 2.2 A and AA) on the page as it is now. */
async function axe(p) {
  await p.evaluate(readFileSync(require.resolve("axe-core/axe.min.js"), "utf8"));
  return p.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] }, resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

test("the job page, its opt-out page and the insurer's view: valid HTML, and axe finds nothing at 390 and 1280 px", async () => {
  assert.ok(homeLink && claimLink, "the first test made the links");
  const dir = mkdtempSync(join(tmpdir(), "vnu-job-home-"));
  try {
    const files = [];
    for (const [name, path] of [["home", homeLink], ["stop", homeLink + "/stop"], ["claim", claimLink]]) {
      const f = join(dir, name + ".html");
      writeFileSync(f, await (await fetch(site.base + path)).text());
      files.push(f);
    }
    const r = spawnSync("java", ["-XX:TieredStopAtLevel=1", "-Xss8m", "-jar", require.resolve("vnu-jar/build/dist/vnu.jar"), "--errors-only", "--format", "json", "--exit-zero-always", ...files], { encoding: "utf8", timeout: 300_000 });
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
    const errors = JSON.parse(r.stderr).messages.filter((m) => m.type === "error" || m.subType === "fatal");
    assert.deepEqual(errors.map((m) => `${m.url.split("/").pop()}:${m.lastLine}: ${m.message}`), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const viewport of [PHONE, WIDE]) {
    for (const path of [homeLink, homeLink + "/stop", claimLink]) {
      const o = await open(path, viewport);
      assert.equal(o.res.status(), 200, path);
      assert.deepEqual(await axe(o.page), [], `${path} at ${viewport.width} px`);
      if (SHOTS && path.endsWith("/stop")) await o.page.screenshot({ path: `${SHOTS}/a-home-stop-${viewport.width}.png`, fullPage: true });
      assert.deepEqual(o.problems, []);
      await o.context.close();
    }
  }
});

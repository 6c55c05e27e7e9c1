// Local proof, end to end on the real site (issue 33's "done means"): an
// editor puts two photos a phone took a kilometre off Marietta Square into
// a job; the server suggests Marietta; the job is published. Then, as a
// visitor and a crawler see it:
// - Marietta's page and a neighbour within the distance (Smyrna) show the
//   job under "Recent work near", and Douglasville, 30 km away, does not;
// - the job has its own page, with the before/after comparison;
// - every photo the site serves of it carries no EXIF;
// - no page of the sitemap, the job page and its JSON-LD carry the
//   photo's coordinates, exact or rounded.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { BASE, CEILING, waitFor } from "./lib.mjs";
import { apiSession, newEditor, tag } from "./account.mjs";
import { kitchenAt, hasEXIF } from "./exif.mjs";

// A house off Marietta Square; the server keeps 33.96, -84.54.
const LAT = 33.9587, LNG = -84.5363;
// The exact position, and the rounded one as digits a page could print.
const LEAKS = [/33\.958/, /84\.536/, /33\.96(?!\d)/, /84\.54(?![0-9])/];
const [, T] = tag();
const TITLE = `Burst pipe off Marietta Square ${T}`;
const STORY = ("The supply line to an upstairs bathroom split while the family was away for the weekend, and water ran through the ceiling into the kitchen below. " +
  "Our crew shut off the water, extracted the standing water, opened the wet drywall and set dehumidifiers and air movers. " +
  "After four days of drying and daily moisture readings we replaced the drywall, repainted, and reinstalled the cabinets.");

let call, job;

before(async () => {
  call = await apiSession(newEditor());
});
after(async () => {
  // The job leaves the site so other tests see the pages as they were.
  if (job) {
    const cur = await (await call(`/api/admin/work/${job.id}`)).json();
    if (cur.status === "published") await call(`/api/admin/work/${job.id}/unpublish`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: cur.version }) });
  }
});

const json = (body) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

async function upload(phase, alt) {
  const fd = new FormData();
  fd.append("caption", "");
  fd.append("alt", alt);
  fd.append("file", new Blob([kitchenAt(LAT, LNG)], { type: "image/jpeg" }), `IMG_${phase}.jpg`);
  const r = await call(`/api/admin/media?job=${job.id}&phase=${phase}`, { method: "POST", body: fd });
  assert.equal(r.status, 201, await r.clone().text());
  return r.json();
}

async function page(path) {
  const r = await fetch(BASE + path);
  return { status: r.status, html: await r.text() };
}

test("a Marietta photo's job shows near Marietta, not in Douglasville, with no EXIF and no coordinate anywhere", async () => {
  const created = await call("/api/admin/work", json({ title: TITLE }));
  assert.equal(created.status, 201, await created.clone().text());
  job = await created.json();
  await upload("before", `Wet kitchen ceiling ${T}`);
  await upload("after", `Repaired kitchen ceiling ${T}`);

  // The server read the place before it stripped the photos: Marietta,
  // and the month they were taken.
  job = await (await call(`/api/admin/work/${job.id}`)).json();
  const choices = await (await call("/api/admin/work/choices")).json();
  const city = choices.cities.find((c) => c.id === job.suggestedCityId);
  assert.equal(city?.name, "Marietta", `suggested ${JSON.stringify(job.suggestedCityId)}`);
  assert.equal(job.suggestedMonth, "2026-10");
  const water = choices.services.find((s) => /water/i.test(s.title));
  const saved = await call(`/api/admin/work/${job.id}`, {
    method: "PUT", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ version: job.version, title: TITLE, cityId: job.suggestedCityId, month: job.suggestedMonth, service: water.id, story: STORY, leadId: "", customerName: "", nameConsent: false }),
  });
  assert.equal(saved.status, 200, await saved.clone().text());
  job = await saved.json();
  assert.equal(job.hasPage, true, "two photos and 60 words make a page");
  const pub = await call(`/api/admin/work/${job.id}/publish`, json({ version: job.version }));
  assert.equal(pub.status, 200, await pub.clone().text());
  job = await pub.json();

  // The pages are rendered again after the publish: wait for Marietta's.
  let marietta;
  await waitFor("Marietta's page to show the job", async () => {
    marietta = await page("/areas/cobb/marietta");
    return marietta.html.includes(TITLE);
  }, 2 * CEILING);
  assert.match(marietta.html, /Recent work near Marietta/);

  const smyrna = await page("/areas/cobb/smyrna");
  assert.equal(smyrna.status, 200);
  assert.ok(smyrna.html.includes(TITLE), "Smyrna, 9 km away, shows the job");
  for (const far of ["/areas/douglas/douglasville", "/areas/douglas/villa-rica"]) {
    const p = await page(far);
    assert.equal(p.status, 200, far);
    assert.ok(!p.html.includes(TITLE), `${far}, 30 km away, does not show the job`);
  }

  // The job's own page: the comparison, and the city named, not the place.
  const sitemap = await (await fetch(BASE + "/sitemap.xml")).text();
  const jobURL = [...sitemap.matchAll(/<loc>[^<]*?(\/portfolio\/[a-z0-9-]+)<\/loc>/g)].map((m) => m[1]).find((p) => marietta.html.includes(`href="${p}"`));
  assert.ok(jobURL, "the job page is in the sitemap and linked from Marietta's page");
  const jp = await page(jobURL);
  assert.equal(jp.status, 200);
  assert.ok(jp.html.includes(TITLE));
  assert.match(jp.html, /Before/);
  assert.match(jp.html, /"contentLocation"/);
  assert.match(jp.html, /Marietta/);

  // Every photo of the job the site serves, every size: no EXIF.
  const srcs = new Set();
  for (const m of jp.html.matchAll(/(?:src|srcset)="([^"]+)"/g)) {
    for (const part of m[1].split(",")) {
      const u = part.trim().split(/\s+/)[0];
      if (u.startsWith("/media/")) srcs.add(u.replaceAll("&amp;", "&"));
    }
  }
  assert.ok(srcs.size >= 2, `the job page serves its photos: ${[...srcs]}`);
  for (const u of srcs) {
    const r = await fetch(BASE + u);
    assert.equal(r.status, 200, u);
    const bytes = Buffer.from(await r.arrayBuffer());
    assert.ok(!hasEXIF(bytes), `${u} carries EXIF`);
  }

  // No page carries the coordinates: every page of the sitemap, the job
  // page, the portfolio and the HTML sitemap, HTML, props and JSON-LD.
  const paths = new Set([jobURL, "/portfolio", "/sitemap", "/search?q=Marietta"]);
  for (const m of sitemap.matchAll(/<loc>https?:\/\/[^/<]+([^<]*)<\/loc>/g)) paths.add(m[1] || "/");
  const leaks = [];
  for (const p of paths) {
    const { html } = await page(p);
    // Only the numbers a page prints: not asset hashes or SVG paths.
    const text = html.replace(/<svg[\s\S]*?<\/svg>/g, "").replace(/\/(?:assets|static|media)\/[^"' ]+/g, "");
    for (const re of LEAKS) if (re.test(text)) leaks.push(`${p} matches ${re}`);
  }
  assert.deepEqual(leaks, [], `${paths.size} pages checked`);
});

// Jobs on the public site (issue 33, ADR 062): the before/after comparison
// works with the keyboard and is a slider to assistive technology, keeps
// its box while it hydrates and moves, and without JavaScript shows the
// two photos side by side with their captions; city pages show the jobs
// near them and no others.
//
// The file runs a site of its own with a fixed list of published jobs
// (tests/jobsite: the real server and pages, the jobs read from a list
// instead of the store, whose half of the issue is built apart).
// SHOT_DIR=/some/dir saves screenshots there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, gotoSettled, hydrated, startSite, CEILING } from "./lib.mjs";

const JOB = "/portfolio/marietta-kitchen-leak";
const SHOTS = process.env.SHOT_DIR;
let browser, site, BASE;

before(async () => {
  const root = new URL("../../", import.meta.url).pathname;
  execFileSync("go", ["build", "-o", "bin/jobsite", "./tests/jobsite"], { cwd: root, stdio: "inherit" });
  site = await startSite({}, { bin: "bin/jobsite" });
  BASE = site.base;
  browser = await launch();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => { await browser?.close(); site?.stop(); });

async function openPage(path, { js = true, width = 1280 } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(m.text()); });
  // Record every layout shift from the start, as Lighthouse would.
  await context.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__shifts.push({ value: e.value, input: e.hadRecentInput }); })
      .observe({ type: "layout-shift", buffered: true });
  });
  const res = await gotoSettled(page, BASE + path);
  return { context, page, problems, res };
}

const compareHydrated = async (page) => {
  const end = Date.now() + CEILING;
  while (Date.now() < end) {
    if (await page.evaluate(() => document.querySelector('[data-island="compare"]')?.dataset.hydrate === "done")) return;
    await page.waitForTimeout(50);
  }
  throw new Error("the comparison did not hydrate");
};

test("the comparison is a slider the keyboard moves, and nothing shifts", async () => {
  const { context, page, problems, res } = await openPage(JOB);
  assert.equal(res.status(), 200);
  const stage = page.locator(".ba__stage");
  const box0 = await stage.boundingBox();
  // The box keeps the after photo's proportions (1200 x 900) before React.
  assert.ok(Math.abs(box0.height - box0.width * 0.75) < 2, `stage ${box0.width}x${box0.height}`);
  await hydrated(page);
  await compareHydrated(page);
  const slider = page.getByRole("slider", { name: "Slide to compare before and after" });
  assert.equal(await slider.count(), 1);
  assert.equal(await slider.inputValue(), "50");
  await slider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await slider.inputValue(), "55");
  assert.equal(await slider.getAttribute("aria-valuetext"), "After 55%");
  assert.equal(await stage.evaluate((el) => el.style.getPropertyValue("--ba-pos")), "55%");
  // The after photo is revealed up to the handle: its clip leaves 45% out.
  const clip = await page.locator(".ba__side--after").evaluate((el) => getComputedStyle(el).clipPath);
  assert.match(clip, /inset\(0(px)? 45% 0(px)? 0(px)?\)/);
  await page.keyboard.press("End");
  assert.equal(await slider.inputValue(), "100");
  await page.keyboard.press("Home");
  assert.equal(await slider.inputValue(), "0");
  await page.keyboard.press("ArrowLeft"); // stays at the end
  assert.equal(await slider.inputValue(), "0");
  const box1 = await stage.boundingBox();
  assert.deepEqual([box1.width, box1.height], [box0.width, box0.height], "the comparison's box moved");
  const shifts = await page.evaluate(() => window.__shifts.filter((s) => !s.input).reduce((a, s) => a + s.value, 0));
  assert.ok(shifts < 0.01, `layout shift ${shifts}`);
  // The photos are sized and the comparison's are loaded first.
  for (const img of await page.locator(".ba__side img").all()) {
    assert.equal(await img.getAttribute("width"), "1200");
    assert.equal(await img.getAttribute("height"), "900");
    assert.equal(await img.getAttribute("loading"), "eager");
  }
  for (const img of await page.locator(".job-photo img").all()) assert.equal(await img.getAttribute("loading"), "lazy");
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/job-compare-1280.png` });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("without JavaScript the two photos sit side by side with their captions", async () => {
  const { context, page, res } = await openPage(JOB, { js: false, width: 390 });
  assert.equal(res.status(), 200);
  const before = await page.locator(".ba__side--before").boundingBox();
  const after = await page.locator(".ba__side--after").boundingBox();
  assert.ok(before && after && before.width > 100 && after.width > 100, "both photos show");
  assert.ok(before.x + before.width <= after.x + 1, `before ends at ${before.x + before.width}, after starts at ${after.x}`);
  assert.ok(Math.abs(before.y - after.y) < 1, "side by side, on one row");
  assert.equal(await page.locator(".ba__side--before figcaption").innerText(), "Before");
  assert.equal(await page.locator(".ba__side--after figcaption").innerText(), "After");
  assert.equal(await page.locator(".ba__range").isVisible(), false, "a slider that cannot move is hidden");
  // Nothing clips the after photo.
  assert.equal(await page.locator(".ba__side--after").evaluate((el) => getComputedStyle(el).clipPath), "none");
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/job-nojs-390.png`, fullPage: true });
  await context.close();
});

test("Marietta and a neighbour show the job; Douglasville does not", async () => {
  for (const [path, shows] of [["/areas/cobb/marietta", true], ["/areas/cobb/kennesaw", true], ["/areas/douglas/douglasville", false]]) {
    const { context, page, res } = await openPage(path, { width: 390 });
    assert.equal(res.status(), 200, path);
    const card = page.locator("#recent-work .job-card", { hasText: "Kitchen leak dried in two days" });
    assert.equal(await card.count(), shows ? 1 : 0, path);
    if (shows) {
      assert.equal(await card.getByRole("link", { name: /See this job/ }).getAttribute("href"), JOB);
      // The Smyrna job has no page: a card without a link.
      const thin = page.locator("#recent-work .job-card", { hasText: "Storm tarp in Smyrna" });
      if (await thin.count()) assert.equal(await thin.locator('a[href^="/portfolio/"]').count(), 0);
      if (SHOTS && path.endsWith("marietta")) {
        await page.locator("#recent-work").scrollIntoViewIfNeeded();
        await page.locator("#recent-work").screenshot({ path: `${SHOTS}/city-jobs-390.png` });
      }
    }
    // No page carries the job's coordinates.
    const html = await page.content();
    for (const d of ["33.96", "84.53"]) assert.ok(!html.includes(d), `${path} carries ${d}`);
    await context.close();
  }
});

const require = createRequire(import.meta.url);

test("the job page and the pages with cards pass the Nu Html Checker and axe", async () => {
  const paths = [JOB, "/areas/cobb/marietta", "/areas/cobb/smyrna", "/service-areas/cobb", "/services/water-damage-restoration", "/portfolio"];
  const dir = mkdtempSync(join(tmpdir(), "vnu-jobs-"));
  try {
    const files = [];
    for (const [i, p] of paths.entries()) {
      const res = await fetch(BASE + p);
      assert.equal(res.status, 200, p);
      const f = join(dir, `p${i}.html`);
      writeFileSync(f, await res.text());
      files.push(f);
    }
    const vnu = require.resolve("vnu-jar/build/dist/vnu.jar");
    const r = spawnSync("java", ["-XX:TieredStopAtLevel=1", "-Xss8m", "-jar", vnu, "--errors-only", "--format", "json", "--exit-zero-always", ...files], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr?.slice(0, 2000));
    const errors = JSON.parse(r.stderr).messages.filter((m) => m.type === "error" || m.subType === "fatal");
    assert.deepEqual(errors.map((m) => `${paths[Number(/p(\d+)\.html$/.exec(m.url)?.[1])]}:${m.lastLine ?? ""}: ${m.message}`), [], "HTML errors");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  for (const p of [JOB, "/areas/cobb/marietta"]) {
    const { context, page } = await openPage(p, { width: 390 });
    await hydrated(page);
    if (p === JOB) await compareHydrated(page);
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const res = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] }, resultTypes: ["violations"] });
      return res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
    assert.deepEqual(violations, [], p);
    await context.close();
  }
});

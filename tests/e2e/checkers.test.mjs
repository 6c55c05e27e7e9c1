// The web's own checkers: the Nu Html Checker (vnu-jar, from
// npm, run with the machine's Java) over every page of the sitemap, the
// 404 page, search, the estimate pages and the admin shell; axe-core
// (WCAG 2.2 A and AA) in Chromium on every kind of public page at 390
// and 1280 px and on every admin screen and tab each kind of session may
// open. Both must find nothing. A finding that is the checker's own bug
// is listed below with its reason, never silenced wholesale.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { launch, open, hydrated, unlockAdmin, BASE } from "./lib.mjs";
import { addUser, apiSession, newEditor, openAs, password, signIn, tag } from "./account.mjs";
import { walk } from "./admin-walk.mjs";

const require = createRequire(import.meta.url);
const VNU = require.resolve("vnu-jar/build/dist/vnu.jar");
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };

/** KNOWN are the checkers' own bugs: what they report of valid code. */
const KNOWN = [
  // vnu's CSS validator predates CSS container queries (Baseline since
  // 2023): the leads table's container query (styles/admin-leads.css).
  { re: /^CSS: “container”: Property “container” doesn't exist\.$/, why: "vnu does not know CSS container queries" },
  { re: /^CSS: Unrecognized at-rule “@container”\.?$/, why: "vnu does not know CSS container queries" },
];

/** run runs a command to its end and returns its exit status and output. */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => { stdout += d; });
    child.stderr.setEncoding("utf8").on("data", (d) => { stderr += d; });
    child.on("error", (error) => resolve({ status: null, error, stdout, stderr }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** sitemapPaths are the paths of every page in /sitemap.xml. */
async function sitemapPaths() {
  const xml = await (await fetch(BASE + "/sitemap.xml")).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

test("the Nu Html Checker finds no error on any page", async () => {
  const paths = [...await sitemapPaths(), "/no-such-page-here", "/search?q=water+damage", "/estimate", "/estimate/thanks", "/admin", "/admin/leads"];
  assert.ok(paths.length > 100, `the sitemap lists ${paths.length} pages`);
  const dir = mkdtempSync(join(tmpdir(), "vnu-"));
  try {
    const files = [];
    const where = new Map();
    for (const [i, p] of paths.entries()) {
      const res = await fetch(BASE + p, { redirect: "manual" });
      assert.ok([200, 404].includes(res.status), `${p}: ${res.status}`);
      const f = join(dir, `p${i}.html`);
      writeFileSync(f, await res.text());
      files.push(f);
      where.set(pathToFileURL(f).href, p);
    }
    // vnu writes its JSON report to stderr. It runs without blocking this
    // process: beside other work it can take over two minutes, and with
    // the event loop stopped that long fetch kept its idle connections
    // past the server's idle timeout and the next test's request went out
    // on a closed one ("fetch failed").
    // Java's first JIT tier only: for one run over about 145 pages it
    // spent 9 CPU-s where the optimising tier spent 20, in the same time.
    const r = await run("java", ["-XX:TieredStopAtLevel=1", "-Xss8m", "-jar", VNU, "--errors-only", "--format", "json", "--exit-zero-always", ...files]);
    assert.equal(r.status, 0, `vnu: ${r.error || r.stderr.slice(0, 2000)}`);
    const { messages } = JSON.parse(r.stderr);
    const errors = messages.filter((m) => m.type === "error" || m.subType === "fatal");
    const known = errors.filter((m) => KNOWN.some((k) => k.re.test(m.message)));
    const real = errors.filter((m) => !known.includes(m));
    const whys = [...new Set(known.map((m) => KNOWN.find((k) => k.re.test(m.message)).why))];
    console.log(`Nu Html Checker over ${paths.length} pages: ${errors.length} errors, ${known.length} of them the checker's own (${whys.join("; ") || "none"}), ${real.length} to fix`);
    assert.deepEqual(real.map((m) => `${where.get(m.url) || m.url}:${m.lastLine ?? ""}: ${m.message}`), [], "HTML errors");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** axe runs axe-core on the page as it is now (WCAG 2.2 A and AA) and
 * returns each violation as "rule: target (summary)". page.evaluate runs
 * outside the page's Content-Security-Policy. */
async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  const vs = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] }, resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ") + (n.failureSummary ? ` (${n.failureSummary.split("\n").slice(1).join(" ").trim()})` : "")) }));
  });
  return vs.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n}`));
}

/** publicKinds is one page of each kind: the first sitemap path of each
 * shape (first segment and depth), with search and the 404 page. */
async function publicKinds() {
  const seen = new Map();
  for (const p of await sitemapPaths()) {
    const parts = p.split("/").filter(Boolean);
    const shape = parts.length === 0 ? "/" : parts[0] + "/" + parts.length;
    if (!seen.has(shape)) seen.set(shape, p);
  }
  return [...seen.values(), "/search?q=water+damage", "/estimate", "/no-such-page-here"];
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

for (const [name, viewport] of [["390", PHONE], ["1280", LAPTOP]]) {
  test(`axe finds no WCAG 2.2 A/AA violation on any kind of public page at ${name} px`, async () => {
    const found = [];
    const kinds = await publicKinds();
    for (const p of kinds) {
      const { context, page } = await open(browser, p, viewport);
      try {
        await hydrated(page).catch((e) => { throw new Error(`${p} at ${name} px: ${e.message}`); });
        // Lay out every deferred section, as a reader scrolling would.
        await page.evaluate(() => document.querySelectorAll(".section").forEach((s) => s.classList.add("is-rendered")));
        for (const v of await axe(page)) found.push(`${p}: ${v}`);
      } finally {
        await context.close();
      }
    }
    console.log(`axe at ${name} px over ${kinds.length} kinds of public page: ${found.length} violations`);
    assert.deepEqual(found, []);
  });
}

/** scanAdmin walks every screen and tab of a session with axe. */
async function scanAdmin(page, who) {
  const found = [];
  const opened = await walk(page, who, async (where) => {
    for (const v of await axe(page)) found.push(`${where}: ${v}`);
  });
  return { found: [...new Set(found)], opened };
}

function check(who, { found, opened }, atLeast) {
  assert.ok(opened.length >= atLeast, `${who} opened only ${opened.join(", ")}`);
  console.log(`axe over ${opened.length} admin screens of ${who}: ${found.length} violations`);
  assert.deepEqual(found, [], `${who}: accessibility violations`);
}

test("axe finds no violation on the PIN's admin screens at 390 px", async () => {
  const { context, page } = await unlockAdmin(browser, "/admin", PHONE);
  try { check("the PIN", await scanAdmin(page, "PIN"), 8); } finally { await context.close(); }
});

for (const [name, viewport] of [["390", PHONE], ["1280", LAPTOP]]) {
  test(`axe finds no violation on an admin's screens at ${name} px`, async () => {
    const [t, T] = tag();
    const u = { email: `axe.${t}@example.com`, name: `Axel Checker ${T}`, password: password() };
    addUser(u, "admin");
    const { context, page } = await open(browser, "/admin", viewport);
    try {
      await hydrated(page);
      await signIn(page, u);
      // The gate itself, signed in: checked on the way.
      check("an admin", await scanAdmin(page, "admin"), 14);
    } finally {
      await context.close();
    }
  });
}

test("axe finds no violation on staff's and an editor's screens at 390 px", async () => {
  const [t, T] = tag();
  const staff = { email: `axe.staff.${t}@example.com`, name: `Sam Axe ${T}`, password: password() };
  addUser(staff, "staff");
  await apiSession(staff);
  for (const [who, u, atLeast] of [["staff", staff, 3], ["an editor", newEditor(), 4]]) {
    const { context, page } = await openAs(browser, u, "/admin", PHONE);
    try { check(who, await scanAdmin(page, who), atLeast); } finally { await context.close(); }
  }
});

test("axe finds no violation on the sign-in screen at 390 px", async () => {
  const { context, page } = await open(browser, "/admin", PHONE);
  try {
    await hydrated(page);
    const found = await axe(page);
    console.log(`axe on the admin sign-in: ${found.length} violations`);
    assert.deepEqual(found, []);
  } finally {
    await context.close();
  }
});

// Plain words on every admin screen (item 4): signed in as each
// kind of session (the PIN, an admin, staff, an editor), the test opens
// every screen of admin/screens.json the session may open, and every tab
// of tabbed screens, and fails when the visible text, or a title or
// aria-label, carries a developer word: a spec reference, an environment
// variable, a code name, a {placeholder}, P0/P1/P2 alone.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, unlockAdmin, DESKTOP, until } from "./lib.mjs";
import { addUser, apiSession, newEditor, openAs, password, signIn, tag } from "./account.mjs";
import { walk } from "./admin-walk.mjs";

/** DEV_WORDS is the one list of what an owner screen must not show. */
export const DEV_WORDS = [
  // A reference to the product spec ("Spec 5's performance score").
  { re: /\bspecs?\b/i, why: "a spec reference" },
  // The developers' name for the list of the site's pages.
  { re: /route table/i, why: "a code name (route table)" },
  // Seed data is a developer's notion; the owner sees content.
  { re: /\bseed/i, why: "a code name (seed)" },
  // A path or text template left unfilled: /service-areas/{county}.
  { re: /\{[A-Za-z_]+\}/, why: "a {placeholder}" },
  // An environment variable (SMTP_URL, LEAD_NOTIFY_TO, BACKUP_MAX_AGE).
  { re: /\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/, why: "an environment variable" },
  // A priority code alone; "Fix first (P0)" is fine, "P0" is not.
  { re: /\bP[0-2]\b(?! *\))/, why: "a priority code without words" },
  // A file of the repository the owner never edits.
  { re: /content\//, why: "a repository path (content/)" },
  // A file name the owner never edits (services.json).
  { re: /\.json\b/i, why: "a file name (.json)" },
  // Deploying is the developer's step, not the owner's ("the deployment
  // guide", which the owner hands to the web host, is plain words).
  { re: /\bdeploy(?!ment)/i, why: "a developer step (deploy)" },
  // Work left for later.
  { re: /\bTODO\b/, why: "a TODO" },
  // A value JavaScript printed before it was there.
  { re: /\bundefined\b/, why: "undefined" },
  { re: /\bNaN\b/, why: "NaN" },
  { re: /\[object/, why: "an object printed as text" },
];

/** findWords returns each developer word in text, with the words around it. */
export function findWords(text) {
  const out = [];
  for (const { re, why } of DEV_WORDS) {
    const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g");
    for (const m of text.matchAll(g)) {
      const from = Math.max(0, m.index - 50);
      out.push(`${why}: "…${text.slice(from, m.index + m[0].length + 50).replace(/\s+/g, " ")}…"`);
    }
  }
  return out;
}

/** visibleText is what a person reads, or hears from a screen reader,
 * on the page now: the body's text and every title and aria-label. */
const visibleText = (page) => page.evaluate(() => {
  // Folded parts ("How these figures are computed") are read opened.
  document.querySelectorAll("#admin-main details:not([open])").forEach((d) => { d.open = true; });
  const attrs = Array.from(document.body.querySelectorAll("[title],[aria-label]"))
    .flatMap((el) => [el.getAttribute("title"), el.getAttribute("aria-label")]).filter(Boolean);
  return document.body.innerText + "\n" + attrs.join("\n") + "\n" + document.title;
});

/** scan walks every screen and tab the session may open and returns
 * what it found where. */
async function scan(page, who) {
  const found = [];
  const opened = await walk(page, who, async (where) => {
    for (const w of findWords(await visibleText(page))) found.push(`${where}: ${w}`);
  });
  return { found: [...new Set(found)], opened };
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** check asserts nothing was found, printing every find. */
function check(who, { found, opened }, atLeast) {
  assert.ok(opened.length >= atLeast, `${who} opened only ${opened.join(", ")}`);
  if (found.length) console.log(`Developer words on ${who}'s screens:\n  ` + found.join("\n  "));
  assert.deepEqual(found, [], `${who}: developer words on screen`);
}

test("the PIN's screens speak plain words", async () => {
  const { context, page } = await unlockAdmin(browser, "/admin", DESKTOP);
  check("the PIN", await scan(page, "PIN"), 8);
  await context.close();
});

test("an admin's screens speak plain words", async () => {
  const [t, T] = tag();
  const u = { email: `admin.${t}@example.com`, name: `Ada Words ${T}`, password: password() };
  addUser(u, "admin");
  const { context, page } = await open(browser, "/admin", DESKTOP);
  await hydrated(page);
  await signIn(page, u);
  check("an admin", await scan(page, "admin"), 14);
  await context.close();
});

test("staff's screens speak plain words", async () => {
  const [t, T] = tag();
  const u = { email: `staff.${t}@example.com`, name: `Sam Words ${T}`, password: password() };
  addUser(u, "staff");
  await apiSession(u); // an account without a second factor
  const { context, page } = await openAs(browser, u, "/admin", DESKTOP);
  check("staff", await scan(page, "staff"), 3);
  await context.close();
});

test("an editor's screens speak plain words", async () => {
  const u = newEditor();
  const { context, page } = await openAs(browser, u, "/admin", DESKTOP);
  check("an editor", await scan(page, "editor"), 4);
  await context.close();
});

test("an SEO finding's link opens the content editor at the field that fixes it", async () => {
  const [t, T] = tag();
  const u = { email: `fixer.${t}@example.com`, name: `Fay Fixer ${T}`, password: password() };
  addUser(u, "editor");
  const post = "/blog/what-to-do-immediately-after-water-damage";
  const { context, page } = await openAs(browser, u, `/admin/content?page=${encodeURIComponent(post)}&field=metaDescription`, DESKTOP);
  await page.locator("#f-metaDescription").waitFor();
  const focused = async () => (await page.evaluate(() => document.activeElement?.id)) === "f-metaDescription";
  assert.ok(await until(focused), "the meta description field has the focus");
  const url = new URL(page.url());
  assert.ok(url.searchParams.get("item"), "the address names the record");
  assert.equal(url.searchParams.get("field"), "metaDescription");
  // A page no content record makes says so, in words.
  await page.evaluate(() => { history.pushState(null, "", "/admin/content?page=%2Festimate&field=body"); window.dispatchEvent(new PopStateEvent("popstate")); });
  await page.getByText(/No content record makes \/estimate/).waitFor();
  await context.close();
});

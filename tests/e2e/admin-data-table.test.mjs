// The admin's shared pieces (admin/data-table.tsx, admin/use-resource.ts):
// a list screen is a table with column headers on a laptop and a card per
// record, each value under its column's label, on a phone; a screen's
// data hook uses only the newest request's answer (a late page-1 answer
// never replaces page 2), keeps the rows on screen while it asks again,
// names the page on screen in the pager, and shows the server's error
// with a Retry.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, hydrated, BASE, gotoSettled } from "./lib.mjs";
import { signIn } from "./account.mjs";
import { adminApi, settingsAdmin } from "./settings-admin.mjs";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };

let browser;
before(async () => {
  browser = await launch();
  await adminApi(); // the run's admin account, with its second factor set up
});
after(async () => { await browser?.close(); });

/** signedIn opens path at viewport as the run's admin. */
async function signedIn(path, viewport) {
  const o = await open(browser, path, viewport);
  await hydrated(o.page);
  await signIn(o.page, settingsAdmin());
  return o;
}

test("Users: a card per account with each column's label at 390 px, a table with column headers at 1280 px", async () => {
  const { context, page, problems } = await signedIn("/admin/users", PHONE);
  const me = settingsAdmin();
  const table = page.getByRole("table", { name: "User accounts" });
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(me.name) }) });
  await row.waitFor();

  // The phone: the header row is for screen readers only; the row is a
  // card titled by its row header (the name), every other value (but the
  // actions) under its column's label.
  const phone = await row.evaluate((tr) => {
    const head = tr.closest("table").querySelector("thead").getBoundingClientRect();
    return {
      display: getComputedStyle(tr).display,
      headHeight: head.height,
      labels: Array.from(tr.children).map((c) => getComputedStyle(c, "::before").content),
      width: tr.getBoundingClientRect().width,
    };
  });
  assert.equal(phone.display, "block", "the row is a card");
  assert.ok(phone.headHeight <= 1, "the column headers are hidden on a phone");
  assert.deepEqual(phone.labels, ["none", '"Email"', '"Role"', '"State"', '"Two-factor"', '"Last sign-in"', "none"], "each value under its label");
  assert.ok(phone.width <= PHONE.width, "the card fits the phone");
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "nothing wider than the phone");
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/users-cards-390.png`, fullPage: true });

  // The laptop: the same list is a table with its column headers.
  await page.setViewportSize(LAPTOP);
  await page.waitForFunction(() => getComputedStyle(document.querySelector("table.a-dt tbody tr")).display === "table-row");
  const headers = (await table.getByRole("columnheader").allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(headers.slice(0, 6), ["Name", "Email", "Role", "State", "Two-factor", "Last sign-in"]);
  assert.ok(await table.getByRole("columnheader", { name: "Email" }).isVisible());
  assert.equal(await row.locator("td").first().evaluate((td) => getComputedStyle(td, "::before").content), "none", "no labels in the table's cells");
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/users-table-1280.png` });
  assert.deepEqual(problems, []);
  await context.close();
});

/** entries is a made-up page of the audit log (the route answers it, so
 * the test decides how many pages there are and when each answer comes). */
const PER_PAGE = 50, TOTAL = 120;
const entries = (p) => Array.from({ length: Math.min(PER_PAGE, TOTAL - (p - 1) * PER_PAGE) }, (_, i) => ({
  id: `e${p}-${i}`, at: new Date(Date.UTC(2024, 0, 1, 12, 0, 0) - ((p - 1) * PER_PAGE + i) * 60_000).toISOString(),
  who: "test", ip: "127.0.0.1", sentence: `Entry ${i + 1} of page ${p}`,
}));

test("the data hook: a late answer for an older request is dropped, the rows stay while refreshing, the pager names the page on screen, and a failure shows the server's message with Retry", async () => {
  const { context, page, problems } = await signedIn("/admin/users", LAPTOP);
  const held = []; // answers the test releases itself
  let hold = null; // the page whose next request is held
  let fail = false;
  await page.route(/\/api\/admin\/audit\?/, (route) => {
    const p = Number(new URL(route.request().url()).searchParams.get("page")) || 1;
    if (fail) return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "The audit log is not available right now." }) });
    const answer = () => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ entries: entries(p), total: TOTAL, page: p, perPage: PER_PAGE, q: "" }) });
    if (hold === p) { hold = null; held.push({ p, answer }); return; }
    return answer();
  });
  await gotoSettled(page, BASE + "/admin/audit");
  const pager = page.getByRole("navigation", { name: "Audit log pages" });
  await page.getByRole("cell", { name: "Entry 1 of page 1", exact: true }).waitFor();
  assert.equal(await pager.locator("span").innerText(), "Page 1 of 3");

  // Refresh, and its page-1 answer is held: page 1 stays on screen.
  hold = 1;
  await page.getByRole("button", { name: "Refresh" }).click();
  await page.getByRole("button", { name: "Refreshing..." }).waitFor();
  assert.equal(held.length, 1, "the refresh asked for page 1");
  assert.ok(await page.getByRole("cell", { name: "Entry 1 of page 1", exact: true }).isVisible(), "the rows stay while refreshing");

  // Next: page 2's answer comes first and is shown.
  await pager.getByRole("button", { name: "Next" }).click();
  await page.getByRole("cell", { name: "Entry 1 of page 2", exact: true }).waitFor();
  assert.equal(await pager.locator("span").innerText(), "Page 2 of 3");

  // The late page-1 answer arrives: it is dropped.
  const late = page.waitForResponse((r) => r.url().includes("/api/admin/audit?page=1"));
  await held.shift().answer();
  await late;
  await page.waitForTimeout(300);
  assert.ok(await page.getByRole("cell", { name: "Entry 1 of page 2", exact: true }).isVisible(), "page 2 stays");
  assert.equal(await page.getByRole("cell", { name: "Entry 1 of page 1", exact: true }).count(), 0, "the late page-1 answer never shows");
  assert.equal(await pager.locator("span").innerText(), "Page 2 of 3");

  // While page 3 is on its way, the pager names page 2, whose rows show.
  hold = 3;
  await pager.getByRole("button", { name: "Next" }).click();
  await until(() => held.length === 1);
  assert.equal(await pager.locator("span").innerText(), "Page 2 of 3", "the pager names the page on screen");
  await held.shift().answer();
  await page.getByRole("cell", { name: "Entry 1 of page 3", exact: true }).waitFor();
  assert.equal(await pager.locator("span").innerText(), "Page 3 of 3");

  // A failure: the server's message, and Retry asks again.
  fail = true;
  await gotoSettled(page, BASE + "/admin/audit");
  await page.getByRole("alert").filter({ hasText: "The audit log could not be loaded: The audit log is not available right now." }).waitFor();
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await page.getByRole("cell", { name: "Entry 1 of page 1", exact: true }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Retry" }).count(), 0);
  // The failed load's toast ("Audit Log Not Loaded") is the screen's own; nothing else went wrong.
  assert.deepEqual(problems.filter((p) => !/503/.test(p)), []);
  await context.close();
});

async function until(check, timeout = 30_000) {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

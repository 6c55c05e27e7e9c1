// The admin's lists page and search on the server (ADR 069,
// admin/paging.tsx): the search box asks the server (q), the summary says
// what the page shows or "No matches", the pager moves through the pages
// by keyboard, on a 390 px phone and a laptop.
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
  await adminApi();
});
after(async () => { await browser?.close(); });

async function signedIn(path, viewport) {
  const o = await open(browser, path, viewport);
  await hydrated(o.page);
  await signIn(o.page, settingsAdmin());
  return o;
}

test("the audit log on a phone: a search the server answers, 'No matches' said plainly, nothing wider than the phone", async () => {
  const { context, page, problems } = await signedIn("/admin/users", PHONE);
  await gotoSettled(page, BASE + "/admin/audit");
  const box = page.getByRole("searchbox", { name: "Search the audit log" });
  await box.waitFor();
  await page.getByRole("status").filter({ hasText: /^Showing 1–/ }).waitFor();

  const asked = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/audit" && new URL(r.url()).searchParams.get("q") === "no-such-thing-zz");
  await box.focus();
  await page.keyboard.type("no-such-thing-zz");
  await page.keyboard.press("Enter");
  const res = await asked;
  assert.equal((await res.json()).total, 0, "the server matched nothing");
  await page.getByText("No matches for “no-such-thing-zz”.").waitFor();
  assert.equal(await page.getByRole("navigation", { name: "Audit log pages" }).count(), 0, "no pager for no rows");

  const me = settingsAdmin();
  const mine = page.waitForResponse((r) => new URL(r.url()).searchParams.get("q") === me.email);
  await box.fill(me.email);
  await page.keyboard.press("Enter");
  const found = await (await mine).json();
  assert.ok(found.total > 0 && found.entries.every((e) => e.who.includes(me.email) || e.sentence.includes(me.email)), "every entry is the admin's");
  await page.getByRole("status").filter({ hasText: `matching “${me.email}”` }).waitFor();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "nothing wider than the phone");
  assert.deepEqual(problems, []);
  await context.close();
});

test("Content Management's cities on a laptop: pages from the server, moved by keyboard, and a search", async () => {
  const { context, page, problems } = await signedIn("/admin/users", LAPTOP);
  const first = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/content" && new URL(r.url()).searchParams.get("kind") === "city");
  await gotoSettled(page, BASE + "/admin/content?kind=city");
  const list = await (await first).json();
  assert.equal(list.perPage, 50);
  assert.ok(list.total > 50, `more cities than a page (${list.total})`);
  assert.equal(list.items.length, 50, "the server sent one page, not every city");
  const cities = page.getByRole("list", { name: "Cities" });
  await cities.getByRole("listitem").first().waitFor();
  assert.equal(await cities.getByRole("listitem").count(), 50);
  await page.getByRole("status").filter({ hasText: `Showing 1–50 of ${list.total} cities.` }).waitFor();

  const pager = page.getByRole("navigation", { name: "Cities pages" });
  const pages = Math.ceil(list.total / 50);
  assert.equal(await pager.locator("span").innerText(), `Page 1 of ${pages}`);
  await pager.getByRole("button", { name: "Next" }).focus();
  await page.keyboard.press("Enter");
  await pager.getByText(`Page 2 of ${pages}`).waitFor();
  await page.getByRole("status").filter({ hasText: `Showing 51–` }).waitFor();

  const name = list.items[3].title;
  const searched = page.waitForResponse((r) => new URL(r.url()).searchParams.get("q") === name);
  await page.getByRole("searchbox", { name: "Search cities" }).fill(name);
  const answer = await (await searched).json();
  assert.ok(answer.items.some((it) => it.id === list.items[3].id), "the city is found");
  assert.equal(answer.page, 1, "a search starts on its first page");
  await cities.getByRole("listitem").filter({ hasText: name }).first().waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

// Admin sessions end on the server: the Security Scanner lists
// the live sessions and ends any of them; the Lock button revokes its own
// token, so a copied token is dead too.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, DESKTOP, unlockAdmin } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openSecurity(page) {
  await page.locator("#admin-sidebar").getByRole("link", { name: "Security", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Security Scanner" }).waitFor();
  const card = page.locator("section.a-card", { has: page.getByRole("heading", { name: "Active Sessions" }) });
  await refresh(page, card);
  return card;
}

/** refresh re-reads the list from the server and waits until it shows. */
async function refresh(page, card) {
  const res = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/sessions" && r.request().method() === "GET");
  await card.getByRole("button", { name: "Refresh" }).click();
  const body = await (await res).json();
  await card.getByText("This session").waitFor();
  return body.sessions.length;
}

test("Security lists live sessions, ends another one, and Lock revokes its own", async () => {
  const a = await unlockAdmin(browser, "/admin", DESKTOP);
  const b = await unlockAdmin(browser, "/admin", DESKTOP);
  try {
    const card = await openSecurity(a.page);
    const items = card.getByRole("listitem");
    await assert.doesNotReject(() => card.getByText("This session").waitFor());
    assert.ok(await items.count() >= 2, "both sessions listed");
    assert.equal(await card.getByText("This session").count(), 1);

    // End the other session (B's): it is the newest one that is not ours.
    const other = items.filter({ hasNotText: "This session" }).first();
    await other.getByRole("button", { name: /^End session of the admin PIN/ }).click();
    await a.page.getByText("Session ended").waitFor();

    // B's next server call is refused and its admin area locks.
    await b.page.locator("#admin-sidebar").getByRole("link", { name: "Photo Upload", exact: true }).click();
    await b.page.getByText("Admin Access Required").waitFor();

    // Lock in A ends A's session on the server: a fresh session sees
    // only itself among the sessions A and B had.
    const before = await refresh(a.page, card);
    assert.equal(await items.count(), before);
    await a.page.getByRole("button", { name: "Lock admin" }).click();
    await a.page.getByText("Admin Access Required").waitFor();
    const c = await unlockAdmin(browser, "/admin", DESKTOP);
    try {
      await c.page.locator("#admin-sidebar").getByRole("link", { name: "Security", exact: true }).click();
      const cCard = c.page.locator("section.a-card", { has: c.page.getByRole("heading", { name: "Active Sessions" }) });
      await cCard.waitFor();
      const after = await refresh(c.page, cCard);
      assert.equal(after, before, "A's session was revoked on Lock: C replaced it in the list instead of adding to it");
      // B's ended session makes its gallery load fail, which spec 8 logs.
      const expected = (p) => /Failed to load existing photos .*Your session has ended/.test(p) || /status of 401/.test(p);
      assert.deepEqual([...a.problems, ...c.problems], []);
      assert.deepEqual(b.problems.filter((p) => !expected(p)), []);
    } finally {
      await c.context.close();
    }
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

// Walking the admin as a session sees it: every screen its sidebar lists
// (admin/layout.tsx filters admin/screens.json by the session's
// capabilities) and every tab of tabbed screens. The plain-words scan and
// the accessibility check both walk it.
import { readFileSync } from "node:fs";
import { waitFor } from "./lib.mjs";

export const SCREENS = JSON.parse(readFileSync(new URL("../../admin/screens.json", import.meta.url), "utf8")).screens;

/** loaded waits until the screen has loaded what it asks the server for:
 * no "Loading..." left in the main area. */
export async function loaded(page, where) {
  const main = page.locator("#admin-main");
  await waitFor(`${where} to finish loading`, async () =>
    !(await main.evaluate((el) => /Loading\.\.\.|Checking\.\.\./.test(el.innerText) || !!el.querySelector("[aria-busy='true']"))));
}

/** go opens an admin screen in the app (no reload: a reload locks a PIN
 * session) and waits for its title and its data. */
export async function go(page, screen) {
  await page.evaluate((p) => {
    history.pushState(null, "", p);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, "/admin" + (screen.slug ? "/" + screen.slug : ""));
  await page.locator("#admin-main h1").filter({ hasText: screen.slug ? screen.title : /Dashboard/ }).first().waitFor();
  await loaded(page, screen.title);
}

/** walk opens every screen the session may open, and every tab of each,
 * calling visit(where) on each once it has loaded. It returns the titles
 * of the screens it opened. */
export async function walk(page, who, visit) {
  const hrefs = await page.locator("nav[aria-label='Admin navigation'] a").evaluateAll((as) => as.map((a) => new URL(a.href).pathname));
  const opened = [];
  for (const s of SCREENS.filter((s) => hrefs.includes("/admin" + (s.slug ? "/" + s.slug : "")))) {
    await go(page, s);
    opened.push(s.title);
    const where = `${who} → ${s.title}`;
    await visit(where);
    const tabs = page.locator("#admin-main [role='tab']");
    const n = await tabs.count();
    for (let i = 0; i < n; i++) {
      const label = (await tabs.nth(i).innerText()).trim();
      await tabs.nth(i).click();
      await page.locator(`#admin-main [role='tab'][aria-selected='true']`).filter({ hasText: label }).waitFor();
      await loaded(page, `${s.title}, tab ${label}`);
      await visit(`${where} → ${label}`);
    }
  }
  return opened;
}

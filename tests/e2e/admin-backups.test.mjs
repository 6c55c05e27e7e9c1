// Backups the owner can act on: on a 390 px phone an admin
// opens Backups, sees that the backups share the website's disk (the
// test server's default), presses Back up now, sees the new backup
// appear as checked, and downloads it: a tar archive that starts with
// the backup's manifest.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, mkdirSync } from "node:fs";
import { launch, open, hydrated, until, BASE, gotoSettled } from "./lib.mjs";
import { addUser, tag, password, signIn } from "./account.mjs";

const PHONE = { width: 390, height: 844 };
const WARNING = "Your backups are on the same disk as the website's data. If this disk fails, both are lost. Ask your web host to send backups to another disk or to cloud storage.";
const [t, T] = tag();
const ADMIN = { email: `owner.${t}@example.com`, name: `Owner ${T}`, password: password() };
const SHOTS = process.env.SHOTS_DIR || "";

let browser;
before(async () => {
  addUser(ADMIN, "admin");
  browser = await launch();
});
after(async () => { await browser?.close(); });

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** tarNames reads the names of a ustar archive's entries. */
function tarNames(buf) {
  const names = [];
  for (let off = 0; off + 512 <= buf.length;) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const str = (a, b) => h.subarray(a, b).toString("latin1").replace(/\0.*$/s, "");
    const prefix = str(345, 500);
    names.push((prefix ? prefix + "/" : "") + str(0, 100));
    const size = parseInt(str(124, 136).trim() || "0", 8);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

test("an admin backs up now on a phone, sees it checked and downloads it", async () => {
  const { context, page, problems } = await open(browser, "/admin/backups", PHONE, { acceptDownloads: true });
  try {
    await hydrated(page);
    await signIn(page, ADMIN);
    if (new URL(page.url()).pathname !== "/admin/backups") {
      await gotoSettled(page, BASE + "/admin/backups");
      await hydrated(page);
    }
    await page.getByRole("heading", { name: "Backups", level: 1 }).waitFor();
    const warning = page.getByTestId("same-disk");
    await warning.waitFor();
    assert.equal((await warning.innerText()).trim(), WARNING);
    await shot(page, "backups-390-before");

    // Back up now: answered at once, then the backup shows its progress
    // and ends as checked. (Should the daily backup be running, the press
    // says so and starts nothing: then wait for it and press again.)
    let backup = null;
    for (let i = 0; i < 5 && !backup; i++) {
      const button = page.getByRole("button", { name: "Back up now" });
      if (!(await until(async () => (await button.count()) === 1 && (await button.isEnabled()), 120_000))) throw new Error("Back up now did not become pressable within 120 s");
      const press = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/backups/run" && r.request().method() === "POST");
      await button.click();
      const res = await press;
      const body = await res.json();
      if (res.status() === 202) backup = body.backup;
      else {
        assert.equal(res.status(), 200);
        // Another backup (the schedule's, or one ending as we pressed).
        assert.match(body.message, /^A backup is already running(, started \d\d:\d\d UTC.*)?\.$/);
        await page.getByText(/^A backup is already running/).waitFor();
      }
    }
    assert.ok(backup, "a press started a backup");
    const result = page.locator(`.bk-result[data-id="${backup.id}"]`);
    await result.waitFor({ timeout: 120_000 }).catch(() => { throw new Error("the backup's result did not appear within 120 s"); });
    assert.match(await result.innerText(), /^Backup finished and checked: [\d.]+ (KB|MB|GB)/);
    const item = page.locator(`.bk-item[data-id="${backup.id}"]`);
    await item.waitFor();
    const text = await item.innerText();
    assert.match(text, /Checked/);
    assert.match(text, new RegExp(`Manual, by ${ADMIN.email.replace(/\./g, "\\.")}`));
    await shot(page, "backups-390-after");
    if (SHOTS) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await shot(page, "backups-1280-after");
      await page.setViewportSize(PHONE);
    }

    // The API says the same: checked and downloadable.
    const list = await page.evaluate(async () => (await fetch("/api/admin/backups", { headers: { "X-Requested-With": "fetch" } })).json());
    const mine = list.backups.find((b) => b.id === backup.id);
    assert.equal(mine?.outcome, "ok");
    assert.ok(mine.available);
    const name = mine.name;

    // Download: the browser saves a non-empty tar whose first entry is the
    // backup's manifest.
    const dl = page.waitForEvent("download");
    await item.getByRole("link", { name: /Download/ }).click();
    const d = await dl;
    const file = await d.path();
    // A refusal is saved too (as download.json): say what the server said.
    assert.equal(d.suggestedFilename(), `backup-${name}.tar`,
      `the download is not the archive; the server sent: ${file ? readFileSync(file, "utf8").slice(0, 500) : "nothing"}`);
    assert.ok(file && statSync(file).size > 1024, "the archive is not empty");
    const names = tarNames(readFileSync(file));
    assert.equal(names[0], `${name}/manifest.json`);
    assert.ok(names.some((n) => /\/site\.(db|pgdump)$/.test(n)), "the archive holds the database: " + names.join(", "));
    const manifest = JSON.parse(readFileSync(file).subarray(512, 512 + parseInt(readFileSync(file).subarray(124, 136).toString("latin1").replace(/\0.*$/s, "").trim(), 8)).toString("utf8"));
    assert.equal(manifest.name, name);
    assert.equal(names.length, 2 + (manifest.files || []).length, "every file of the manifest is in the archive");

    // The dashboard's backup block links here.
    await gotoSettled(page, BASE + "/admin");
    await hydrated(page);
    await page.getByRole("link", { name: /Open Backups/ }).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

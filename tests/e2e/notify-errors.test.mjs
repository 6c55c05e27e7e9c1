// The dashboard's Lead notifications card with a failing webhook and mail
// server: it names the kind of failure ("webhook: connection
// refused"), never the receiver's address, port, path or token, at 390 px
// and 1280 px. The file runs its own site (startSite): it needs
// LEAD_WEBHOOK_URL and SMTP_URL pointing at closed ports.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { launch, hydrated, startSite, PIN, gotoSettled } from "./lib.mjs";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const SHOTS = process.env.SHOT_DIR; // screenshots for a person to look at, when set
const TOKEN = "TOKEN-do-not-show-7310";
const SMTP_PASSWORD = "smtp-pass-do-not-show-1184";

/** closedPort is a loopback port nothing listens on. */
const closedPort = () => new Promise((resolve, reject) => {
  const srv = net.createServer().listen(0, "127.0.0.1", () => {
    const p = srv.address().port;
    srv.close(() => resolve(p));
  }).on("error", reject);
});

let browser, site, hookPort, smtpPort;
before(async () => {
  hookPort = await closedPort();
  smtpPort = await closedPort();
  site = await startSite({
    LEAD_WEBHOOK_URL: `http://127.0.0.1:${hookPort}/hooks/catch/${TOKEN}?key=${TOKEN}`,
    LEAD_WEBHOOK_SECRET: "webhook-secret-do-not-show-4471",
    SMTP_URL: `smtp://leads:${SMTP_PASSWORD}@127.0.0.1:${smtpPort}`,
    LEAD_NOTIFY_TO: "owner@example.com",
  });
  browser = await launch();
  // A lead, as a visitor sends it; its announcements fail at once.
  const res = await fetch(site.base + "/api/estimate", {
    method: "POST", headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Maria Gonzalez", phone: "(770) 555-0199", email: "maria@example.com", city: "Marietta",
      damageType: "Water Damage", emergency: "yes", website: "" }).toString(),
  });
  assert.equal(res.status, 201, await res.text());
});
after(async () => {
  await browser?.close();
  site?.stop();
});

for (const [name, viewport] of [["phone", PHONE], ["wide", WIDE]]) {
  test(`notifications card names the failure, not the address (${viewport.width} px)`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await gotoSettled(page, site.base + "/admin");
    await hydrated(page);
    await page.getByLabel("PIN").fill(PIN);
    await page.keyboard.press("Enter");
    await page.getByText("Access granted").waitFor();
    const card = page.locator("section.a-card", { has: page.getByRole("heading", { name: "Lead notifications" }) });
    await card.getByText(/^Last error: /).waitFor();
    const text = await card.innerText();
    // The homeowner's acknowledgement goes through the same
    // mail server, and fails the same way.
    assert.match(text, /Last error: (webhook|email|acknowledgement): connection refused/);
    assert.match(text, /Acknowledgement for lead .*acknowledgement: connection refused/s);
    assert.match(text, /Webhook for lead .*connection refused/s);
    assert.match(text, /Email for lead .*email: connection refused/s);
    for (const leak of ["127.0.0.1", String(hookPort), String(smtpPort), TOKEN, SMTP_PASSWORD, "/hooks", "dial tcp", "http://"]) {
      assert.ok(!text.includes(leak), `the card shows ${leak}:\n${text}`);
    }
    // The card's text fits its width: nothing runs off the side.
    const overflow = await card.evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 1, `the card overflows by ${overflow} px`);
    if (SHOTS) {
      // The sign-in toast is closed first; a full-page shot keeps the
      // sticky header at the top of the page, off the card.
      await page.getByRole("button", { name: "Close notification" }).click();
      await page.getByText("Access granted").waitFor({ state: "detached" });
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await card.boundingBox();
      await page.screenshot({ path: `${SHOTS}/notifications-card-${viewport.width}.png`, fullPage: true,
        clip: { x: Math.max(0, box.x - 12), y: Math.max(0, box.y - 12), width: Math.min(viewport.width, box.width + 24), height: box.height + 24 } });
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

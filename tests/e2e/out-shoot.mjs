// Scratch: screenshots of the merged admin (not committed).
import { launch, hydrated, gotoSettled, BASE } from "./lib.mjs";
import { addUser, password, signIn, tag } from "./account.mjs";
import http from "node:http";
const [T, Tg] = tag();
const admin = { email: `owner.${T}@example.com`, name: `Owner ${Tg}`, password: password() };
addUser(admin, "admin");
const out = "/work/notes/shots/merged";
function post(body) {
  const u = new URL(BASE + "/api/estimate");
  const data = new URLSearchParams(body).toString();
  return new Promise((res, rej) => { const r = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST",
    localAddress: `127.0.${Math.floor(Math.random()*200)+1}.${Math.floor(Math.random()*200)+2}`,
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" } }, (x) => { x.resume(); x.on("end", res); }); r.on("error", rej); r.end(data); });
}
await post({ name: "Maria Gonzalez", phone: "(404) 555-0199", email: "maria@example.com", city: "Marietta", street: "12 Roswell St", zip: "30060", damageType: "Water Damage", emergency: "yes", notes: "Water coming through the kitchen ceiling.", website: "" });
await post({ name: "Tom Becker", phone: "(678) 555-0123", email: "tom@example.com", city: "Smyrna", street: "", zip: "30080", damageType: "Roof Damage", emergency: "no", notes: "", website: "" });
const browser = await launch();
for (const [w, h] of [[390, 844], [1280, 900]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  await gotoSettled(page, BASE + "/admin");
  await hydrated(page);
  await signIn(page, admin);
  await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/dashboard-${w}.png` });
  for (const s of ["leads", "settings", "audit", "backups", "users", "sessions", "schema", "security"]) {
    await gotoSettled(page, BASE + "/admin/" + s);
    await hydrated(page);
    await page.waitForTimeout(1200);
    await page.screenshot({ path: `${out}/${s}-${w}.png`, fullPage: s !== "leads" && s !== "dashboard" });
    if (s === "leads") {
      const btn = page.getByRole("button", { name: /Details|View/ }).first();
      if (await btn.count()) { await btn.click(); await page.waitForTimeout(1000); await page.screenshot({ path: `${out}/lead-dialog-${w}.png` }); }
    }
  }
  await ctx.close();
}
await browser.close();

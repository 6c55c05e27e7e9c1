// Direct API helpers for browser tests that need data set up first.
import { readFileSync } from "node:fs";
import { BASE, PIN } from "./lib.mjs";

export async function apiToken() {
  const r = await fetch(BASE + "/api/admin/unlock", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin: PIN }) });
  if (!r.ok) throw new Error("unlock failed: " + r.status);
  return (await r.json()).token;
}

export async function uploadFixture(token, project, name = "kitchen.jpg") {
  const fd = new FormData();
  fd.append("file", new Blob([readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url))], { type: "image/jpeg" }), name);
  const r = await fetch(BASE + "/api/admin/media?project=" + encodeURIComponent(project), { method: "POST", headers: { Authorization: "Bearer " + token }, body: fd });
  if (r.status !== 201) throw new Error("upload failed: " + r.status + " " + (await r.text()));
  return r.json();
}

export async function deleteProject(token, projectName) {
  // The library is read a page at a time (web/paging); the project's
  // photos are collected first, then deleted, so no page shifts under it.
  const ids = [];
  for (let page = 1; ; page++) {
    const r = await fetch(BASE + "/api/admin/media?perPage=200&page=" + page, { headers: { Authorization: "Bearer " + token } });
    const lib = await r.json();
    for (const it of lib.items) if (it.projectName === projectName) ids.push(it.id);
    if (page * lib.perPage >= lib.total) break;
  }
  for (const id of ids) {
    await fetch(BASE + "/api/admin/media/" + id, { method: "DELETE", headers: { Authorization: "Bearer " + token } });
  }
}

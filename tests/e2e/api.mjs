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
  const r = await fetch(BASE + "/api/admin/media", { headers: { Authorization: "Bearer " + token } });
  for (const it of await r.json()) {
    if (it.projectName === projectName) {
      await fetch(BASE + "/api/admin/media/" + it.id, { method: "DELETE", headers: { Authorization: "Bearer " + token } });
    }
  }
}

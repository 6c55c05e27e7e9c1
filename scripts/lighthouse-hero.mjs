// Gives one service page a hero photo through the admin, as an editor
// would: an editor account made with `site user add`, the
// photo uploaded to the media library, the page's image set and
// published. make lighthouse then measures that page beside its no-script
// limit. Prints the page's path.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const base = process.env.BASE_URL;
const dataDir = process.env.DATA_DIR;
const page = "fire-damage-restoration";
const email = "lighthouse-editor@example.com";
const password = randomBytes(12).toString("base64url") + "-Aa1";

const add = spawnSync("./bin/site", ["user", "add", "--email", email, "--role", "editor", "--name", "Lighthouse Editor"],
  { input: password + "\n", encoding: "utf8", env: { ...process.env, DATA_DIR: dataDir } });
if (add.status !== 0) throw new Error("site user add: " + add.stderr + add.stdout);

const login = await fetch(base + "/api/admin/login", { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "fetch" },
  body: JSON.stringify({ email, password }) });
if (!login.ok) throw new Error("login: " + login.status + " " + await login.text());
const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
const api = async (method, path, body, headers = { "Content-Type": "application/json" }) => {
  const r = await fetch(base + path, { method, headers: { ...headers, Cookie: cookie, "X-Requested-With": "fetch" }, body });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
};
const form = new FormData();
form.append("file", new Blob([readFileSync("tests/e2e/fixtures/hero.jpg")], { type: "image/jpeg" }), "roof-crew.jpg");
const photo = await api("POST", "/api/admin/media?project=lighthouse", form, {});
const list = await api("GET", "/api/admin/content?kind=service");
const item = list.items.find((i) => i.slug === page);
const detail = await api("GET", "/api/admin/content/" + item.id);
const data = { ...detail.draft, image: { media: photo.id, alt: "Our crew rebuilding a fire-damaged roof in Douglasville", caption: "Douglasville, 2026" } };
const saved = await api("PUT", "/api/admin/content/" + item.id, JSON.stringify({ version: detail.version, data }));
await api("POST", `/api/admin/content/${item.id}/publish`, JSON.stringify({ version: saved.version }));
console.log("/services/" + page);

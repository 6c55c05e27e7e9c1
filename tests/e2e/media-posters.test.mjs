// Portfolio videos: a poster captured in the browser at upload,
// a placeholder when none can be made, a poster the owner picks, captions
// and alt text, and the badge clear of the video's controls.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { launch, hydrated, unlockAdmin, until, BASE, gotoSettled } from "./lib.mjs";
import { apiToken, deleteProject } from "./api.mjs";

const SHOTS = process.env.SHOTS_DIR || "";
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

let browser;
before(async () => {
  browser = await launch();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => { await browser?.close(); });

/** recordWebM makes a real 3 s VP8 WebM inside Chromium (MediaRecorder on
 * a canvas): a coloured background whose hue changes every frame and a
 * moving white square, so any frame is neither black nor blank. */
async function recordWebM(page) {
  const bytes = await page.evaluate(async () => {
    const c = document.createElement("canvas");
    c.width = 640; c.height = 360;
    const ctx = c.getContext("2d");
    const rec = new MediaRecorder(c.captureStream(30), { mimeType: "video/webm;codecs=vp8" });
    const chunks = [];
    rec.ondataavailable = (e) => chunks.push(e.data);
    let f = 0;
    const draw = () => {
      ctx.fillStyle = `hsl(${(f * 4) % 360}, 70%, 45%)`;
      ctx.fillRect(0, 0, 640, 360);
      ctx.fillStyle = "#fff";
      ctx.fillRect((f * 6) % 600, 150, 40, 40);
      f++;
    };
    draw();
    const timer = setInterval(draw, 33);
    rec.start(250);
    await new Promise((r) => setTimeout(r, 3000));
    await new Promise((r) => { rec.onstop = r; rec.stop(); });
    clearInterval(timer);
    return Array.from(new Uint8Array(await new Blob(chunks).arrayBuffer()));
  });
  return Buffer.from(bytes);
}

/** brightness reads a screenshot (PNG) back in the page and returns the
 * mean of each channel and how much the pixels vary: a black box has a
 * mean near 0, a flat colour no variation. */
async function brightness(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let r = 0, g = 0, b = 0, sq = 0;
    const n = d.length / 4;
    for (let i = 0; i < d.length; i += 4) { r += d[i]; g += d[i + 1]; b += d[i + 2]; sq += ((d[i] + d[i + 1] + d[i + 2]) / 3) ** 2; }
    r /= n; g /= n; b /= n;
    const mean = (r + g + b) / 3;
    return { r, g, b, mean, spread: Math.sqrt(Math.max(0, sq / n - mean * mean)) };
  }, png.toString("base64"));
}

/** posterPixels loads a poster URL in the page and measures it as
 * brightness does a screenshot. */
async function posterPixels(page, url) {
  return page.evaluate(async (u) => {
    const img = new Image();
    img.src = u;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
    return { width: img.naturalWidth, height: img.naturalHeight, mean: sum / (d.length / 4) };
  }, url);
}

/** openCard opens /portfolio at a viewport and returns the slide of the
 * project, scrolled into view, with the requests the page made. */
async function openCard(viewport, project) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [], requests = [];
  page.on("console", (m) => { if (m.type() === "error" || /hydrat|#418|#423|#425/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("request", (r) => requests.push(r.url()));
  await gotoSettled(page, BASE + "/portfolio");
  await hydrated(page);
  const slide = page.locator(".slide", { has: page.locator(".slide__badge", { hasText: project }) }).first();
  // Bring the slide into the carousel's view, then the page's.
  await slide.evaluate((el) => {
    const track = el.parentElement;
    track.style.scrollBehavior = "auto";
    track.scrollLeft = el.offsetLeft - track.offsetLeft;
    el.scrollIntoView({ block: "center", behavior: "instant" });
  });
  await page.waitForTimeout(300);
  return { context, page, problems, slide, requests };
}

/** controlsClear checks the badge and label against the video's box: the
 * native controls are drawn inside that box, so a label outside it can
 * never cover them. */
async function controlsClear(slide) {
  // One evaluate measures every box at the same scroll position.
  const boxes = await slide.evaluate((el) => {
    const r = (sel) => { const b = el.querySelector(sel).getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
    return { video: r("video"), badge: r(".slide__badge"), type: r(".slide__type") };
  });
  const v = boxes.video;
  for (const name of ["badge", "type"]) {
    const b = boxes[name];
    const overlaps = b.x < v.x + v.w && b.x + b.w > v.x && b.y < v.y + v.h && b.y + b.h > v.y;
    assert.ok(!overlaps, `${name} ${JSON.stringify(b)} overlaps the video ${JSON.stringify(v)}`);
  }
}

test("a video gets a poster captured at upload; its card shows that frame, clear of the controls, and plays", async () => {
  const project = "Poster Test Basement";
  const token = await apiToken();
  await deleteProject(token, project);
  const { context, page, problems } = await unlockAdmin(browser, "/admin/upload", WIDE);
  try {
    const webm = await recordWebM(page);
    assert.ok(webm.length > 5000, `recorded ${webm.length} bytes`);
    await page.getByLabel("Project name").fill(project);
    await page.getByLabel("Caption (optional)").fill("Basement dried in 4 days");
    await page.getByLabel("Alt text (optional)").fill("Walk-through of the dried basement");
    await page.locator('input[data-testid="file-input"]').setInputFiles({ name: "walk.webm", mimeType: "video/webm", buffer: webm });
    await page.getByText("walk.webm uploaded successfully!").waitFor();
    const item = page.locator(".a-media__item", { hasText: project }).first();
    await item.locator('video[poster^="/media/"]').waitFor();
    assert.ok(await item.getByText("Poster: shown before the video plays.").isVisible());
    assert.equal(await page.getByText(/No poster for/).count(), 0);
    const poster = await item.locator("video").getAttribute("poster");
    assert.match(poster, /^\/media\/projects\/poster-test-basement\/\d{13}-[a-z0-9]{8}-poster-[a-z0-9]{8}\.webp$/);
    // A real frame: 640x360 as recorded, in colour, not black.
    const px = await posterPixels(page, poster);
    assert.deepEqual([px.width, px.height], [640, 360]);
    assert.ok(px.mean > 40, `poster mean brightness ${px.mean}`);
    // The caption and alt text given at upload were saved with it.
    assert.equal(await item.getByLabel("Caption").inputValue(), "Basement dried in 4 days");
    assert.equal(await item.getByLabel("Alt text").inputValue(), "Walk-through of the dried basement");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-upload-1280.png`, fullPage: true });
    assert.deepEqual(problems, []);

    for (const [name, viewport] of [["390", PHONE], ["1280", WIDE]]) {
      const card = await openCard(viewport, project);
      const video = card.slide.locator("video");
      assert.equal(await video.getAttribute("poster"), poster);
      assert.equal(await video.getAttribute("preload"), "none");
      assert.equal(await video.getAttribute("aria-label"), "Walk-through of the dried basement");
      assert.ok(await card.slide.getByText("Basement dried in 4 days").isVisible());
      assert.ok(await card.slide.locator(".slide__type", { hasText: "Video" }).isVisible());
      // Nothing of the video was fetched for the first paint; its poster was.
      const src = await video.getAttribute("src");
      assert.ok(card.requests.some((u) => u.endsWith(poster)), "the poster is fetched");
      assert.equal(card.requests.filter((u) => u.endsWith(src)).length, 0, "the video itself is not downloaded before it is played");
      await controlsClear(card.slide);
      // The card shows the frame, not a black box: its pixels are the
      // frame's colours (hover shows the controls for the screenshot).
      await video.hover();
      await card.page.waitForTimeout(400);
      const shot = await card.slide.screenshot();
      if (SHOTS) await card.slide.screenshot({ path: `${SHOTS}/video-card-${name}.png` });
      const seen = await brightness(card.page, shot);
      assert.ok(seen.mean > 60, `card mean brightness ${seen.mean}`);
      // Dragging along the seek bar seeks; it does not move the carousel.
      const track = card.page.locator(".carousel__track");
      const left = await track.evaluate((el) => el.scrollLeft);
      const vb = await video.boundingBox();
      await card.page.mouse.move(vb.x + 30, vb.y + vb.height - 22);
      await card.page.mouse.down();
      await card.page.mouse.move(vb.x + vb.width - 30, vb.y + vb.height - 22, { steps: 8 });
      await card.page.mouse.up();
      await card.page.waitForTimeout(700);
      assert.equal(await track.evaluate((el) => el.scrollLeft), left, "a drag on the video's seek bar moved the carousel");
      // A press on the play control (Chromium draws it 24 px in and 47 px
      // up from the bottom-left corner) plays the video: the carousel's
      // drag does not take the click.
      const box = await video.boundingBox();
      await card.page.mouse.click(box.x + 24, box.y + box.height - 47);
      assert.ok(await until(() => video.evaluate((v) => !v.paused && v.currentTime > 0)), "the video plays");
      assert.deepEqual(card.problems, []);
      await card.context.close();
    }
  } finally {
    await context.close();
    await deleteProject(token, project);
  }
});

test("a video the browser cannot decode keeps its upload, shows a placeholder, and takes a poster the owner picks", async () => {
  const project = "Poster Test Attic";
  const token = await apiToken();
  await deleteProject(token, project);
  const { context, page } = await unlockAdmin(browser, "/admin/upload", WIDE);
  try {
    // An MP4 container with nothing decodable inside: the server accepts
    // its structure, no browser can draw a frame of it.
    const head = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom\0\0\x02\0isomiso2", "binary"), Buffer.from([0, 0, 0, 0]), Buffer.from("mdat")]);
    const mp4 = Buffer.concat([head, Buffer.alloc(100_000)]);
    await page.getByLabel("Project name").fill(project);
    await page.locator('input[data-testid="file-input"]').setInputFiles({ name: "broken.mp4", mimeType: "video/mp4", buffer: mp4 });
    await page.getByText("broken.mp4 uploaded successfully!").waitFor();
    await page.getByText("No poster for broken.mp4").waitFor();
    const item = page.locator(".a-media__item", { hasText: project }).first();
    await item.getByText("No poster yet").waitFor();

    const card = await openCard(PHONE, project);
    const ph = card.slide.locator(".slide__placeholder");
    assert.ok(await ph.isVisible());
    assert.equal((await ph.textContent()).trim(), project);
    assert.match(await card.slide.locator("video").getAttribute("poster"), /^data:image\/gif/);
    await controlsClear(card.slide);
    await card.slide.locator("video").hover();
    await card.page.waitForTimeout(400);
    const seen = await brightness(card.page, await card.slide.locator(".slide__media").screenshot());
    if (SHOTS) await card.slide.screenshot({ path: `${SHOTS}/video-placeholder-390.png` });
    // The placeholder's blue gradient and white text, not a black box.
    assert.ok(seen.b > 90 && seen.spread > 10, `placeholder pixels ${JSON.stringify(seen)}`);
    await card.context.close();

    // The owner picks a photo as the poster.
    const jpg = readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url));
    await item.locator('input[type="file"]').setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: jpg });
    await page.getByText("Poster saved").waitFor();
    await item.locator('video[poster^="/media/"]').waitFor();
    const after = await openCard(WIDE, project);
    assert.match(await after.slide.locator("video").getAttribute("poster"), /-poster-[a-z0-9]{8}\.webp$/);
    assert.equal(await after.slide.locator(".slide__placeholder").count(), 0);
    await after.context.close();
  } finally {
    await context.close();
    await deleteProject(token, project);
  }
});

test("caption and alt text are edited per item, shown escaped, and refused with the server's message when too long", async () => {
  const project = "Caption Test Kitchen";
  const token = await apiToken();
  await deleteProject(token, project);
  const { context, page, problems } = await unlockAdmin(browser, "/admin/upload", PHONE);
  try {
    await page.getByLabel("Project name").fill(project);
    await page.locator('input[data-testid="file-input"]').setInputFiles({ name: "kitchen.jpg", mimeType: "image/jpeg", buffer: readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url)) });
    await page.getByText("kitchen.jpg uploaded successfully!").waitFor();
    const item = page.locator(".a-media__item", { hasText: project }).first();
    // The default alt text names the project, never the stored file name.
    const img = item.locator("img");
    assert.equal(await img.getAttribute("alt"), `${project} project photo`);
    assert.doesNotMatch(await img.getAttribute("alt"), /\d{13}-[a-z0-9]{8}/);

    await item.getByLabel("Caption").fill("x".repeat(301));
    await item.getByRole("button", { name: "Save" }).click();
    await page.getByText("Save failed: The caption can be at most 300 characters (this one has 301).").waitFor();

    const caption = `<img src=x onerror="document.title='pwned'"> New cabinets & "paint"`;
    const alt = "Rebuilt kitchen <script>alert(1)</script>";
    await item.getByLabel("Caption").fill(caption);
    await item.getByLabel("Alt text").fill(alt);
    await item.getByRole("button", { name: "Save" }).click();
    await page.getByText("Caption and alt text saved").waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-upload-390.png`, fullPage: true });
    // The refused save above is the one expected failure.
    assert.deepEqual(problems.filter((p) => !p.includes("status of 400")), []);

    const card = await openCard(WIDE, project);
    assert.equal(await card.slide.locator("img").getAttribute("alt"), alt);
    assert.equal((await card.slide.locator(".slide__text").textContent()).trim(), caption);
    assert.equal(await card.slide.locator(".slide__text img, .slide__text script").count(), 0, "markup stayed text");
    assert.notEqual(await card.page.title(), "pwned");
    if (SHOTS) await card.slide.screenshot({ path: `${SHOTS}/photo-card-1280.png` });
    assert.deepEqual(card.problems, []);
    await card.context.close();
  } finally {
    await context.close();
    await deleteProject(token, project);
  }
});

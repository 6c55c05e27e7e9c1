// Video posters made in the browser: there is no ffmpeg on the server, so
// the upload tool draws a frame of the video to a canvas and sends it as a
// JPEG. The server treats it as any untrusted image (ADR 024).

/** MAX_FRAME_WIDTH keeps a captured frame small to send; the server makes
 * the poster at most 960 px wide anyway. */
const MAX_FRAME_WIDTH = 1920;

/** frameTime is where a poster is taken: about 1 s in, or a tenth of a
 * shorter video, past a fade-in or a black first frame. */
export function frameTime(duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 1;
  return Math.min(1, duration / 10);
}

function once(el: HTMLMediaElement, ok: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (f: () => void) => { clearTimeout(timer); el.removeEventListener(ok, onOk); el.removeEventListener("error", onErr); f(); };
    const onOk = () => done(resolve);
    const onErr = () => done(() => reject(new Error("this browser cannot play the video")));
    const timer = setTimeout(() => done(() => reject(new Error("the video took too long to load"))), ms);
    el.addEventListener(ok, onOk);
    el.addEventListener("error", onErr);
  });
}

/** drawFrame turns the frame a video element shows into a JPEG. */
export async function drawFrame(video: HTMLVideoElement): Promise<Blob> {
  const w0 = video.videoWidth, h0 = video.videoHeight;
  if (!w0 || !h0) throw new Error("the video has no picture this browser can show");
  const w = Math.min(w0, MAX_FRAME_WIDTH);
  const h = Math.max(1, Math.round((h0 * w) / w0));
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("this browser cannot draw the frame");
  ctx.drawImage(video, 0, 0, w, h);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/jpeg", 0.85));
  if (!blob) throw new Error("this browser cannot encode the frame");
  return blob;
}

/** captureFrame loads a video (a local file's object URL, or its /media/
 * URL: both same-origin, so the canvas stays readable), seeks to at
 * (frameTime by default) and returns that frame as a JPEG. A codec the
 * browser cannot decode fails here: the owner can pick an image instead. */
export async function captureFrame(src: string, at?: number, timeoutMs = 15000): Promise<Blob> {
  const v = document.createElement("video");
  v.muted = true;
  v.playsInline = true;
  v.preload = "auto";
  try {
    const loaded = once(v, "loadeddata", timeoutMs);
    v.src = src;
    await loaded;
    const t = Math.max(0, at ?? frameTime(v.duration));
    if (Math.abs(v.currentTime - t) > 0.01) {
      const seeked = once(v, "seeked", timeoutMs);
      v.currentTime = t;
      await seeked;
    }
    return await drawFrame(v);
  } finally {
    v.removeAttribute("src");
    v.load();
  }
}

// The admin app's service worker and this device's push subscription
//. The worker (/admin/sw.js, scope /admin/, served by the
// server apart from the public /sw.js) shows a new lead's notification and
// opens the lead on tap. Subscribing asks the browser's permission, makes
// a Push API subscription with the server's VAPID key and hands it to the
// server for the signed-in account; the server checks it (a browser's push
// service, whole keys) and decides who is told what.
import { saveSubscription, pushKey, type Device } from "./data/push";

export const WORKER = "/admin/sw.js";
export const SCOPE = "/admin/";
/** SUBSCRIBE_TIMEOUT bounds the browser's registration with its push service. */
export const SUBSCRIBE_TIMEOUT = 30_000;

/** PushState is what this browser can do about push notifications. */
export type PushState =
  | "unsupported" // no service worker or Push API (or not a secure context)
  | "ios-home-screen" // iPhone or iPad in a browser tab: add to the Home Screen first
  | "denied" // the person (or the browser) refused notifications for the site
  | "ready"; // can subscribe

const isIOS = () => /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
const standalone = () => window.matchMedia?.("(display-mode: standalone)").matches || (navigator as { standalone?: boolean }).standalone === true;

/** pushState says whether "Notify me on this device" can work here. iOS
 * gives the Push API only to a site added to the Home Screen and opened
 * from there. */
export function pushState(): PushState {
  if (typeof window === "undefined") return "unsupported";
  const api = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
  if (!api) return isIOS() && !standalone() ? "ios-home-screen" : "unsupported";
  if (Notification.permission === "denied") return "denied";
  return "ready";
}

/** registerWorker registers the admin's service worker (it caches nothing:
 * the admin's data never stays on the device). Called once the admin app
 * has loaded, so the installed app and its notifications work. */
export function registerWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register(WORKER, { scope: SCOPE, updateViaCache: "none" }).catch((e) => {
    console.info("admin service worker not registered:", e);
    return null;
  });
}

/** activeWorker waits until the registration has an active worker (a push
 * subscription needs one). */
async function activeWorker(reg: ServiceWorkerRegistration): Promise<ServiceWorkerRegistration> {
  if (reg.active) return reg;
  const w = reg.installing || reg.waiting;
  if (w) {
    await new Promise<void>((resolve) => {
      const on = () => { if (w.state === "activated") { w.removeEventListener("statechange", on); resolve(); } };
      w.addEventListener("statechange", on);
      on();
    });
  }
  return reg;
}

/** keyBytes decodes the VAPID public key (base64url) for pushManager. */
export function keyBytes(b64url: string): Uint8Array {
  const b64 = (b64url + "===".slice((b64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** PushError is a subscription that could not be made, with what to tell
 * the person. */
export class PushError extends Error {
  constructor(public reason: "off" | "denied" | "unsupported" | "browser", message: string) { super(message); }
}

/** subscribe turns on notifications of new leads on this device for the
 * signed-in account: permission, the worker, the Push API subscription
 * (a new one when the server's key changed), then the server. */
export async function subscribe(): Promise<Device> {
  const key = await pushKey();
  if (!key.enabled) throw new PushError("off", "Push notifications are not available on this server right now. New leads still arrive by email.");
  const state = pushState();
  if (state === "unsupported" || state === "ios-home-screen") throw new PushError("unsupported", "This browser cannot receive push notifications.");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new PushError("denied", "Notifications are blocked for this site. Allow them in the browser's site settings, then try again.");
  }
  const reg = await registerWorker();
  if (!reg) throw new PushError("unsupported", "This browser could not start the admin's service worker.");
  await activeWorker(reg);
  const appKey = keyBytes(key.publicKey);
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, appKey)) {
    await sub.unsubscribe();
    sub = null;
  }
  try {
    // The browser registers with its push service (Google's, Mozilla's,
    // Apple's) over the network: give up after SUBSCRIBE_TIMEOUT.
    sub ??= await Promise.race([
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: appKey }),
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error("no answer from the push service")), SUBSCRIBE_TIMEOUT)),
    ]);
  } catch (e) {
    throw new PushError("browser", `The browser could not subscribe to its push service (${(e as Error).message || e}). Private (incognito) windows cannot get push notifications; otherwise check the connection and try again.`);
  }
  return (await saveSubscription(sub.toJSON())).device;
}

/** currentSubscription is this browser's subscription for the admin, if
 * it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushState() === "unsupported" || pushState() === "ios-home-screen") return null;
  const reg = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** endpointHash is base64url(SHA-256(endpoint)), as the server sends it
 * for each device, so this browser finds its own row. */
export async function endpointHash(endpoint: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint)));
  let s = "";
  d.forEach((b) => { s += String.fromCharCode(b); });
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

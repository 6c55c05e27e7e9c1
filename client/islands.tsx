// The public pages' only script. It carries no React: each island (an
// interactive part of a server-rendered page) is hydrated when it is
// needed, and only then is React fetched (client/island-runtime.tsx, a
// dynamic import). Until then every island works as plain HTML: links
// navigate and forms post. ADR 010 has the triggers and the exceptions.
import { landOnHash, onSamePageAnchor } from "./anchors";
import { popoverSupported } from "./popover";
import { startBeacon } from "./beacon";
import { fillForms } from "./attribution";

type Trigger = "interaction" | "visible" | "idle";

/** When each island hydrates: the nav drawer on the first interaction with
 * the header, the carousel, reviews and forms when they come near the
 * viewport (a form also on focus), anything else when the browser is idle. */
const triggers: Record<string, Trigger> = {
  nav: "interaction",
  carousel: "visible",
  reviews: "visible",
  leadform: "visible",
  estimate: "visible",
  compare: "visible",
};

let runtime: Promise<typeof import("./island-runtime")> | null = null;
const loadRuntime = () => (runtime ??= import("./island-runtime"));

/** A click on a button that arrived before React, per island: clicked
 * again once the island is hydrated. */
const heldClicks = new WeakMap<HTMLElement, HTMLElement>();

/** hydrate loads React (once) and hydrates el, then replays a held click.
 * An island's state is in data-hydrate: "loading", then "done". */
function hydrate(el: HTMLElement) {
  if (el.dataset.hydrate) return;
  el.dataset.hydrate = "loading";
  loadRuntime().then(
    (m) => {
      if (!m.hydrateIsland(el)) return;
      el.dataset.hydrate = "done";
      const held = heldClicks.get(el);
      heldClicks.delete(el);
      held?.click();
    },
    (err) => {
      // Offline or a deploy in between: the island stays plain HTML, and
      // its trigger is armed again after a pause that doubles each time
      // (a visible island is then hydrated at once, an interaction one
      // at the next interaction).
      delete el.dataset.hydrate;
      heldClicks.delete(el);
      runtime = null;
      const wait = (retries.get(el) ?? 500) * 2;
      retries.set(el, Math.min(wait, 60_000));
      console.warn("island script not loaded:", err);
      setTimeout(() => arm(el), wait);
    },
  );
}

/** retries holds, per island whose script did not load, the last pause
 * before its trigger was armed again. */
const retries = new WeakMap<HTMLElement, number>();

/** arm sets up the trigger that hydrates el. */
function arm(el: HTMLElement) {
  switch (triggers[el.dataset.island || ""] ?? "idle") {
    case "interaction":
      onInteraction(el);
      break;
    case "visible":
      onVisible(el);
      break;
    default:
      whenIdle(() => hydrate(el));
  }
}

const interactions = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown"];

function onInteraction(el: HTMLElement) {
  const start = () => {
    interactions.forEach((t) => el.removeEventListener(t, start));
    hydrate(el);
  };
  interactions.forEach((t) => el.addEventListener(t, start, { passive: true }));
  // The menu is a popover that opens as plain HTML: opened before this
  // script ran, it was an interaction all the same.
  if (popoverSupported() && el.querySelector(":popover-open")) start();
  // A click on a button before React is there would do nothing: hold it
  // and click again once the island is hydrated. Links are left alone:
  // they work without React.
  el.addEventListener("click", (e) => {
    if (el.dataset.hydrate === "done") return;
    const button = (e.target as Element | null)?.closest?.("button");
    if (!button || !el.contains(button)) return;
    // A popover's button (the menu) works as plain HTML.
    if (button.hasAttribute("popovertarget") && popoverSupported()) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    heldClicks.set(el, button);
    hydrate(el);
  }, { capture: true });
}

let observer: IntersectionObserver | null = null;

function onVisible(el: HTMLElement) {
  // A form also hydrates as soon as one of its fields gets focus.
  el.addEventListener("focusin", () => hydrate(el), { once: true });
  if (!("IntersectionObserver" in window)) {
    hydrate(el);
    return;
  }
  observer ??= new IntersectionObserver((entries) => {
    for (const en of entries) {
      if (!en.isIntersecting) continue;
      observer!.unobserve(en.target);
      const island = en.target.closest<HTMLElement>("[data-island]");
      if (island) hydrate(island);
    }
  }, { rootMargin: "200px 0px" });
  // The island wrapper is display: contents and has no box of its own to
  // intersect: watch its children.
  const boxes = Array.from(el.children);
  (boxes.length ? boxes : [el]).forEach((b) => observer!.observe(b));
}

function whenIdle(f: () => void) {
  if ("requestIdleCallback" in window) requestIdleCallback(f, { timeout: 3000 });
  else setTimeout(f, 500);
}

/** hydrateIslands arms every island's trigger and adds two small
 * behaviours that need no React. */
export function hydrateIslands() {
  // The inline boot script (ADR 016) held a button click that came before
  // this script: it becomes the island's held click.
  const early = (window as { __islandsBoot?: () => HTMLElement | null }).__islandsBoot?.();
  const earlyIsland = early?.closest<HTMLElement>("[data-island]");
  if (early && earlyIsland) heldClicks.set(earlyIsland, early);
  document.querySelectorAll<HTMLElement>("[data-island]").forEach(arm);
  if (earlyIsland) hydrate(earlyIsland);
  // FAQ accordions are <details name=...>: single-open natively; this
  // keeps them single-open where the name attribute is not supported.
  document.addEventListener("toggle", (e) => {
    const d = e.target as HTMLDetailsElement;
    if (!(d instanceof HTMLDetailsElement) || !d.open || !d.name) return;
    document.querySelectorAll<HTMLDetailsElement>(`details[name="${CSS.escape(d.name)}"][open]`).forEach((o) => { if (o !== d) o.open = false; });
  }, true);
  // Route + anchor links land here: scroll after 100 ms (spec 2.2), at
  // once and re-anchored while the page settles (ADR 050); a missing
  // anchor is only logged. A link to an anchor of this page lands the
  // same way, whichever component drew it.
  if (window.location.hash) setTimeout(landOnHash, 100);
  document.addEventListener("click", onSamePageAnchor);
  // A fragment changed by the browser (typed, or back and forward between
  // them) lands the same way; the clicks above change it with pushState,
  // which fires no hashchange.
  window.addEventListener("hashchange", landOnHash);
  registerServiceWorker();
  // The visit's attribution, recorded on its first page and carried by
  // the estimate form's hidden fields.
  try { fillForms(); } catch { /* storage or URL APIs missing: the server reads the Referer */ }
  startBeacon();
  renderDeferredSections();
}

/** renderDeferredSections lays out, one per idle period once the page has
 * loaded, the sections that content-visibility let the first layout skip
 * (ADR 016): each is a small task, where the whole page at once was one
 * long one, and afterwards the page is whole for find-in-page, assistive
 * tools and audits. */
function renderDeferredSections() {
  // Which sections skip is the stylesheet's rule alone: take those it hit.
  const rest = Array.from(document.querySelectorAll<HTMLElement>(".section")).filter(
    (el) => getComputedStyle(el).contentVisibility === "auto",
  );
  const next = () => {
    let s = rest.shift();
    // An anchor's landing may have laid out some already (anchors.ts).
    while (s && s.classList.contains("is-rendered")) s = rest.shift();
    if (!s) return;
    s.classList.add("is-rendered");
    whenIdle(next);
  };
  if (document.readyState === "complete") whenIdle(next);
  else window.addEventListener("load", () => whenIdle(next), { once: true });
}

/** registerServiceWorker registers /sw.js (spec 7, ADR 013) once the page
 * has loaded and the browser is idle, so it never competes with the first
 * paint or hydration. Only public pages load this script; the admin app
 * never registers it. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { updateViaCache: "none" }).catch((e) => console.info("service worker not registered:", e));
  };
  const idle = () => ("requestIdleCallback" in window ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}

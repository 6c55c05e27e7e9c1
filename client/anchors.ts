/** Landing on an anchor (spec 2.2, ADR 050). The sections below the first
 * are sized by a guess until they are laid out (content-visibility, ADR
 * 016/017), images and fonts arrive late, islands hydrate: on a slow phone
 * the target moved a screen or more after the scroll and the visitor
 * stayed on the trust cards. So a landing lays out every section from the
 * top to the target, scrolls there, and then keeps the target below the
 * sticky header ("re-anchors") while the page is still changing under it,
 * until the visitor scrolls, taps or presses a key, or the page has
 * settled. Then it marks <html data-anchored="{id}">: the page's signal
 * that the landing is over (the browser tests wait for it).
 *
 * It needs no React, so the public pages' first script can use it. */

/** The landing still in progress, ended by the next one. */
let current: { stop: () => void } | null = null;

/** How long the target must stay in place, the page loaded, before the
 * landing ends; and how long re-anchoring may go on at most. */
const QUIET_MS = 400;
const MAX_MS = 20_000;

/** reducedMotion: the visitor asked for no animation. */
const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** offset is where a target's top belongs: the document's scroll padding
 * (styles/site.css: below the sticky header). */
function offset(): number {
  const v = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop);
  return Number.isFinite(v) ? v : 0;
}

/** scrollToAnchor scrolls to an element by id; a missing one is only
 * logged (spec 2.2). It reports whether the element was found. smooth
 * false jumps (a landing from another page: the visitor asked for that
 * place, not for a ride through the page). */
export function scrollToAnchor(id: string, { smooth = true }: { smooth?: boolean } = {}): boolean {
  const el = document.getElementById(id);
  if (!el) {
    console.info("Element with ID not found:", id);
    return false;
  }
  current?.stop();
  const root = document.documentElement;
  delete root.dataset.anchored;
  // Lay out the sections from the top to the target first, so it lands
  // where it is, not where the guesses put it.
  document.querySelectorAll<HTMLElement>(".section").forEach((s) => {
    if (s.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) s.classList.add("is-rendered");
  });
  const behavior: ScrollBehavior = smooth && !reducedMotion() ? "smooth" : "instant";
  el.scrollIntoView({ behavior, block: "start" });
  reanchor(el, id);
  return true;
}

/** reanchor keeps el where it landed while the page changes: once the
 * scroll has stopped moving, a target more than 2 px from its place is
 * put back at once. The visitor's own scroll, tap or key ends it. */
function reanchor(el: HTMLElement, id: string) {
  const started = performance.now();
  let lastY = NaN;
  let still = 0; // frames the scroll position has not moved
  let placedSince = NaN;
  let frame = 0;
  const events = ["wheel", "touchstart", "pointerdown", "keydown"] as const;
  const stop = () => {
    cancelAnimationFrame(frame);
    events.forEach((e) => window.removeEventListener(e, stop, true));
    if (current === landing) current = null;
    document.documentElement.dataset.anchored = id;
  };
  const landing = { stop };
  current = landing;
  events.forEach((e) => window.addEventListener(e, stop, { capture: true, passive: true }));
  const tick = (now: number) => {
    if (!el.isConnected || now - started > MAX_MS) return stop();
    const y = window.scrollY;
    still = y === lastY ? still + 1 : 0;
    lastY = y;
    // A smooth scroll is still under way: let it run.
    if (still >= 2) {
      const off = el.getBoundingClientRect().top - offset();
      const atBottom = window.innerHeight + y >= document.documentElement.scrollHeight - 1;
      if (Math.abs(off) > 2 && !(off > 0 && atBottom)) {
        el.scrollIntoView({ behavior: "instant", block: "start" });
        placedSince = NaN;
      } else if (Number.isNaN(placedSince)) {
        placedSince = now;
      } else if (now - placedSince >= QUIET_MS && document.readyState === "complete") {
        return stop();
      }
    }
    frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
}

/** landOnHash lands on the URL's fragment, if any, at once (a load from
 * another page or a reload). */
export function landOnHash() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (id) scrollToAnchor(id, { smooth: false });
}

/** onSamePageAnchor lands a click on a link to an anchor of this page
 * (href "#x" or "/this/path#x"), with the re-anchoring above, instead of
 * the browser's own jump. The URL gets the fragment as the browser would
 * have set it. A link in an open popover (the menu) closes it. */
export function onSamePageAnchor(e: MouseEvent) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.("a[href*='#']") as HTMLAnchorElement | null;
  if (!a || (a.target && a.target !== "_self")) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname !== location.pathname || url.search !== location.search || !url.hash) return;
  const id = decodeURIComponent(url.hash.slice(1));
  if (!document.getElementById(id)) return;
  e.preventDefault();
  const pop = a.closest<HTMLElement>("[popover]");
  if (pop?.matches(":popover-open")) pop.hidePopover();
  if (location.hash !== url.hash) history.pushState(null, "", url.hash);
  scrollToAnchor(id);
}

// The public pages' only script: it hydrates the islands (interactive
// parts) of a server-rendered page and adds two small behaviours that need
// no React. Admin pages load their own bundle instead.
import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { Nav, scrollToAnchor } from "../components/layout";
import { Carousel } from "../components/gallery";
import { Reviews } from "../components/trust";
import { LeadForm } from "../components/lead-form";
import { EstimateForm } from "../components/estimate-form";

const islands: Record<string, ComponentType<any>> = {
  nav: Nav,
  carousel: Carousel,
  reviews: Reviews,
  leadform: LeadForm,
  estimate: EstimateForm,
};

/** hydrateIslands attaches React to every island with its props. */
export function hydrateIslands() {
  document.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    const C = islands[el.dataset.island || ""];
    if (!C) {
      console.warn("unknown island", el.dataset.island);
      return;
    }
    hydrateRoot(el, <C {...JSON.parse(el.dataset.props || "{}")} />);
  });
  // FAQ accordions are <details name=...>: single-open natively; this
  // keeps them single-open where the name attribute is not supported.
  document.addEventListener("toggle", (e) => {
    const d = e.target as HTMLDetailsElement;
    if (!(d instanceof HTMLDetailsElement) || !d.open || !d.name) return;
    document.querySelectorAll<HTMLDetailsElement>(`details[name="${CSS.escape(d.name)}"][open]`).forEach((o) => { if (o !== d) o.open = false; });
  }, true);
  // Route + anchor links land here: scroll after 100 ms (spec 2.2); a
  // missing anchor is only logged.
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (id) setTimeout(() => scrollToAnchor(id), 100);
  registerServiceWorker();
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

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
}

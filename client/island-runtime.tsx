// The React half of the public pages' script: loaded on demand by
// client/islands.tsx (a dynamic import, so neither React nor the island
// components are fetched before an island needs them; ADR 010).
import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { Nav } from "../components/layout";
import { Carousel } from "../components/gallery";
import { Reviews } from "../components/trust";
import { LeadForm } from "../components/lead-form";
import { EstimateForm } from "../components/estimate-form";
import { Compare } from "../components/before-after";

const islands: Record<string, ComponentType<any>> = {
  nav: Nav,
  carousel: Carousel,
  reviews: Reviews,
  leadform: LeadForm,
  estimate: EstimateForm,
  compare: Compare,
};

/** hydrateIsland attaches React to one island with its own props. It
 * reports false for an island name nobody registered. */
export function hydrateIsland(el: HTMLElement): boolean {
  const C = islands[el.dataset.island || ""];
  if (!C) {
    console.warn("unknown island", el.dataset.island);
    return false;
  }
  hydrateRoot(el, <C {...JSON.parse(el.dataset.props || "{}")} />);
  return true;
}

// The admin screens manifest (one manifest lists the admin
// screens, and the sidebar, the router and the server read it). The list
// itself is admin/screens.json so the Go server can embed the same file.
import manifest from "./screens.json";

/** Screen is one admin screen of the manifest. */
export interface Screen {
  /** slug is the path under /admin ("" is the dashboard). */
  slug: string;
  /** title names the screen (page title, heading of its placeholder). */
  title: string;
  /** label is its sidebar entry. */
  label: string;
  icon: string;
  /** capability is what a session needs to open it; "" for any session. */
  capability: string;
  sidebar: boolean;
}

export const SCREENS: readonly Screen[] = manifest.screens;

/** screenFor returns the screen at slug, or undefined. */
export const screenFor = (slug: string): Screen | undefined => SCREENS.find((s) => s.slug === slug);

export const adminPath = (slug: string) => (slug ? `/admin/${slug}` : "/admin");

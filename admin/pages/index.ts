import type { ComponentType } from "react";
import { SCREENS } from "../screens";
import type { AdminPageProps } from "../types";
import Dashboard from "./dashboard";
import Upload from "./upload";
import Jobs from "./jobs";
import SeoAudit from "./seo-audit";
import Analytics from "./analytics";
import Content from "./content";
import Locations from "./locations";
import Redirects from "./redirects";
import Schema from "./schema";
import Performance from "./performance";
import Security from "./security";
import IndexNow from "./indexnow";
import Settings from "./settings";
import Leads from "./leads";
import Users from "./users";
import Audit from "./audit";
import Backups from "./backups";
import Sessions from "./sessions";
import Testimonials from "./testimonials";

/** COMPONENTS are the screens' components by slug. */
const COMPONENTS: Record<string, ComponentType<AdminPageProps>> = {
  "": Dashboard,
  upload: Upload,
  jobs: Jobs,
  "seo-audit": SeoAudit,
  analytics: Analytics,
  content: Content,
  locations: Locations,
  redirects: Redirects,
  schema: Schema,
  performance: Performance,
  security: Security,
  indexnow: IndexNow,
  settings: Settings,
  leads: Leads,
  users: Users,
  audit: Audit,
  backups: Backups,
  sessions: Sessions,
  testimonials: Testimonials,
};

/** ADMIN_PAGES maps each slug of the manifest (admin/screens.json) to its
 * screen. A manifest entry without a component, or a component the
 * manifest does not list, fails the build's first render loudly instead
 * of leaving a sidebar link to nowhere. */
export const ADMIN_PAGES: Record<string, ComponentType<AdminPageProps>> = Object.fromEntries(SCREENS.map((s) => {
  const c = COMPONENTS[s.slug];
  if (!c) throw new Error(`admin/screens.json lists "${s.slug}" but admin/pages/index.ts has no screen for it`);
  return [s.slug, c];
}));
for (const slug of Object.keys(COMPONENTS)) {
  if (!(slug in ADMIN_PAGES)) throw new Error(`admin/pages/index.ts has a screen "${slug}" that admin/screens.json does not list`);
}

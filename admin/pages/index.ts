import type { ComponentType } from "react";
import type { AdminPageProps } from "../types";
import Dashboard from "./dashboard";
import Upload from "./upload";
import SeoAudit from "./seo-audit";
import Analytics from "./analytics";
import Content from "./content";
import Locations from "./locations";
import Schema from "./schema";
import Performance from "./performance";
import Security from "./security";
import IndexNow from "./indexnow";
import Settings from "./settings";
import Leads from "./leads";
import Users from "./users";
import Audit from "./audit";

/** ADMIN_PAGES maps a slug (/admin/{slug}) to its screen. */
export const ADMIN_PAGES: Record<string, ComponentType<AdminPageProps>> = {
  "": Dashboard,
  upload: Upload,
  "seo-audit": SeoAudit,
  analytics: Analytics,
  content: Content,
  locations: Locations,
  schema: Schema,
  performance: Performance,
  security: Security,
  indexnow: IndexNow,
  settings: Settings,
  leads: Leads,
  users: Users,
  audit: Audit,
};

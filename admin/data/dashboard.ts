// Dashboard data. The four tiles are the server's measurements (GET
// /api/admin/overview: the latest SEO audit, the site's pages, the open
// security findings; '—' with how it will fill where nothing is measured
// yet). Recent activity and health issues are the server's job runs and
// uploads (ActivitySource). The tool cards are the screens' descriptions
// with the status, priority and reason the server computes for each (GET
// /api/admin/tools).

import { api } from "../api";
import type { HealthReport } from "./indexnow";
import type * as wire from "../api.gen";

/** DashboardTile is one stat tile; how says how the figure is computed
 * (or, when measured is false, how it will fill). */
export type DashboardTile = wire.DashboardTile;
/** ToolCard is a tool card's fixed part: which screen, what it does. */
export interface ToolCard { slug: string; title: string; description: string }
export interface DashboardData { tools: ToolCard[] }

/** ToolStatus is GET /api/admin/tools' line for a card (Go:
 * dashboard.ToolStatus): the spec's status words (Secure, Ready, Active,
 * Monitoring, Available, Optimized) only when true, else a plain one
 * ("Needs a key", "12 warnings"); priority follows what there is to do. */
export type ToolStatus = wire.ToolStatus;

/** ToolsSource reads the cards' statuses from the server. */
export interface ToolsSource { statuses(): Promise<wire.ToolList> }

export const liveTools: ToolsSource = { statuses: () => api("/api/admin/tools") };

/** BackupStatus is how backups stand (GET /api/admin/overview's backup;
 * Go: dashboard.BackupStatus): the last good backup, the newest run when
 * it failed, and the alarm (older than BACKUP_MAX_AGE, or failed). */
export type BackupStatus = wire.BackupStatus;

/** OverviewSource reads the tiles (and how backups stand) from the server. */
export interface OverviewSource { tiles(): Promise<wire.Overview> }

/** bytes says a size as people read it (powers of 1,000, as the server's). */
export function bytes(n: number): string {
  if (n < 1000) return `${n} bytes`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1000, i = 0;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v.toFixed(1)} ${units[i]}`;
}

export const liveOverview: OverviewSource = { tiles: () => api("/api/admin/overview") };

/** Activity is a line of GET /api/admin/jobs: a background job's run or a
 * batch of uploads. */
export type Activity = wire.Activity;

/** ActivitySource reads what the dashboard shows from the server. */
export interface ActivitySource {
  activity(): Promise<wire.ActivityList>;
  health(): Promise<HealthReport>;
}

export const liveActivity: ActivitySource = {
  activity: () => api("/api/admin/jobs"),
  health: () => api("/api/admin/health"),
};

/** ago says how long ago a time was, as the activity list shows it. */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return "Just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? "" : "s"} ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} hour${h === 1 ? "" : "s"} ago`;
  const d = Math.round(h / 24);
  if (d === 1) return "Yesterday";
  if (d < 7) return `${d} days ago`;
  return new Date(iso).toLocaleDateString("en-US");
}

export interface DashboardSource { load(): DashboardData }

export const dashboardTools: DashboardSource = {
  load: () => ({
    tools: [
      { slug: "upload", title: "Photo Upload", description: "Add project photos and videos to the portfolio." },
      { slug: "seo-audit", title: "SEO Audit", description: "Check titles, descriptions and local SEO." },
      { slug: "indexnow", title: "SEO & IndexNow", description: "Page health and telling search engines of changed pages." },
      { slug: "security", title: "Security Scanner", description: "Checks of the running site and the vulnerabilities they find." },
      { slug: "performance", title: "Performance Monitor", description: "Core Web Vitals and recommendations." },
      { slug: "analytics", title: "Analytics", description: "Traffic sources, conversions and goals." },
      { slug: "schema", title: "Schema Management", description: "Structured data templates and validation." },
      { slug: "locations", title: "Location Pages", description: "County and city landing pages." },
      { slug: "content", title: "Content Management", description: "Pages and blog posts." },
      { slug: "settings", title: "System Settings", description: "Business details and feature switches." },
    ],
  }),
};

/** NotificationRow is one notification of a new lead (no contact details). */
export type NotificationRow = wire.NotificationRow;

/** NotificationsStatus is GET /api/admin/notifications: which channels
 * announce new leads, how delivery is going, and the spool's backlog
 * (leads taken while the database was down, not stored yet). */
export type NotificationsStatus = wire.NotificationsStatus;

/** NotificationsSource reads the lead-notification status from the server. */
export interface NotificationsSource { status(): Promise<NotificationsStatus> }

export const liveNotifications: NotificationsSource = { status: () => api("/api/admin/notifications") };

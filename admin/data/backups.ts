// Backups screen data (ADR 042). Everything is the server's:
// the backups the site made (package backup, backup_runs), the one
// running now on any instance, and whether the backups are on the disk
// the site's data is on. The screen only reads and asks.
import { api } from "../api";
import type * as wire from "../api.gen";

/** BackupEntry is one backup (Go: backup.Entry): its run, good or
 * failed, its kind, and whether it can be downloaded. */
export type BackupEntry = wire.BackupEntry;

/** RunningBackup is the backup running now (Go: backup.InProgress). */
export type RunningBackup = wire.RunningBackup;

/** BackupList is GET /api/admin/backups (Go: backups.List). */
export type BackupList = wire.BackupList;

/** RunAnswer is POST /api/admin/backups/run (Go: backups.RunAnswer):
 * started, or the one already running (message says so). */
export type RunAnswer = wire.RunAnswer;

export interface BackupsSource {
  list(): Promise<BackupList>;
  run(): Promise<RunAnswer>;
  downloadUrl(name: string): string;
}

export const liveBackups: BackupsSource = {
  list: () => api("/api/admin/backups"),
  run: () => api("/api/admin/backups/run", { method: "POST" }),
  // A plain link: the account's cookie opens it, and the browser saves the
  // stream to disk as it comes (never whole in the page's memory).
  downloadUrl: (name) => `/api/admin/backups/${encodeURIComponent(name)}/download`,
};

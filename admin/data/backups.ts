// Backups screen data (issue 29, ADR 042). Everything is the server's:
// the backups the site made (package backup, backup_runs), the one
// running now on any instance, and whether the backups are on the disk
// the site's data is on. The screen only reads and asks.
import { api } from "../api";

/** BackupEntry is one backup (Go: backup.Entry): its run, good or
 * failed, its kind, and whether it can be downloaded. */
export interface BackupEntry {
  id: string;
  startedAt: string;
  finishedAt: string;
  /** ok: made and checked; failed: summary says why; "" for a backup kept
   * longer than its record (complete, made by this site) */
  outcome: "ok" | "failed" | "";
  triggeredBy: string;
  name: string;
  location: string;
  bytes: number;
  summary: string;
  requestedBy: string;
  kind: "scheduled" | "manual" | "command" | "";
  available: boolean;
}

/** RunningBackup is the backup running now (Go: db.ActiveBackup). */
export interface RunningBackup {
  id: string;
  startedAt: string;
  triggeredBy: string;
  requestedBy: string;
  progress: string;
  updatedAt: string;
}

/** BackupList is GET /api/admin/backups (Go: backups.List). */
export interface BackupList {
  location: string;
  sameDisk: boolean;
  /** warning is the same-disk warning in words ("" when not) */
  warning: string;
  everyHours: number;
  running: RunningBackup | null;
  backups: BackupEntry[];
  storageError?: string;
}

/** RunAnswer is POST /api/admin/backups/run (Go: backups.RunAnswer):
 * started, or the one already running (message says so). */
export interface RunAnswer {
  started: boolean;
  backup: RunningBackup | null;
  message: string;
}

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

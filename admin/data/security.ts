// Security Scanner data. The server runs real checks against itself
// (package securitycheck: at every start, every 24 hours and on Run Full
// Scan) and keeps the latest result of each; a failed check is a
// vulnerability whose status an admin sets. The screen reads it all
// through SecuritySource. Nothing here is a sample.

import { api } from "../api";
import type * as wire from "../api.gen";

export type Severity = wire.SecurityCheck["severity"];
/** not-checked: the server could not run the check here (it says why);
 * it counts neither as passing nor as failing. */
export type CheckStatus = wire.SecurityCheck["status"];
export type VulnerabilityStatus = wire.Vulnerability["status"];

export type SecurityCheck = wire.SecurityCheck;
export type Vulnerability = wire.Vulnerability;
export type MonitoringItem = wire.MonitoringItem;
/** HardeningState is read from the latest scan or the running
 * configuration (securitycheck.Hardening); built-in is a property of the
 * code, not a setting. */
export type HardeningState = wire.HardeningItem["state"];
/** HardeningItem: why says what the state rests on; source where it was read. */
export type HardeningItem = wire.HardeningItem;
/** HardeningConfig is what the configuration panel shows, from the running
 * configuration. The admin PIN is never part of it: the browser does not
 * know the PIN, only a mask. */
export type HardeningConfig = wire.HardeningConfig;

export type ScanInfo = wire.ScanInfo;

/** SecurityReport is GET /api/admin/security: the latest scan (null before
 * the first), its checks, the vulnerabilities and the settings in force. */
export type SecurityReport = wire.SecurityReport;

export interface SecuritySource {
  load(): Promise<SecurityReport>;
  /** scan asks the server for a scan now; after is the scan it replaces. */
  scan(): Promise<wire.Queued>;
  setStatus(id: string, status: VulnerabilityStatus): Promise<wire.VulnerabilityAnswer>;
}

/** SCAN_DELAY_MS is spec 9's 3 s scan: the least the button stays busy. */
export const SCAN_DELAY_MS = 3000;

export const liveSecurity: SecuritySource = {
  load: () => api("/api/admin/security"),
  scan: () => api("/api/admin/security/scan", { method: "POST" }),
  setStatus: (id, status) => api(`/api/admin/security/vulnerabilities/${encodeURIComponent(id)}`, { method: "PUT", body: JSON.stringify({ status }) }),
};

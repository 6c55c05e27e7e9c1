// Security Scanner data: fixed sample checks, vulnerabilities, monitoring
// figures and hardening settings (spec 3 and 9). "Run Full Scan" reloads
// the same sample with fresh check times. A real scanner can implement
// SecuritySource later without touching the screen.

export type Severity = "critical" | "high" | "medium" | "low";
export type CheckStatus = "pass" | "warning" | "fail";
export type VulnerabilityStatus = "open" | "acknowledged" | "fixed";

export interface SecurityCheck { category: string; name: string; status: CheckStatus; severity: Severity; description: string; recommendation?: string; lastChecked: Date }
export interface Vulnerability { id: string; title: string; severity: Severity; description: string; fixedIn?: string; cve?: string; status: VulnerabilityStatus }
export interface MonitoringItem { label: string; value: string; status: "good" | "warn" | "bad"; description: string }
export interface HardeningItem { name: string; enabled: boolean; description: string }
/** HardeningConfig is what the configuration panel shows. The admin PIN is
 * never part of it: the browser does not know the PIN, only a mask. */
export interface HardeningConfig { pinMask: string; sessionTimeout: string; apiRateLimit: string; backupEncryption: string }

export interface SecurityReport {
  scannedAt: Date;
  checks: SecurityCheck[];
  vulnerabilities: Vulnerability[];
  monitoring: MonitoringItem[];
  hardening: HardeningItem[];
  config: HardeningConfig;
}

export interface SecuritySource { scan(): SecurityReport }

/** SCAN_DELAY_MS and NEXT_SCAN_MS are spec 9's 3 s scan and 24 h schedule. */
export const SCAN_DELAY_MS = 3000;
export const NEXT_SCAN_MS = 24 * 60 * 60 * 1000;

/** securityScore is the share of passing checks as a whole percentage. */
export function securityScore(checks: SecurityCheck[]): number {
  if (checks.length === 0) return 0;
  return Math.round((checks.filter((c) => c.status === "pass").length / checks.length) * 100);
}

export const sampleSecurity: SecuritySource = {
  scan: () => {
    const now = new Date();
    const check = (c: Omit<SecurityCheck, "lastChecked">): SecurityCheck => ({ ...c, lastChecked: now });
    return {
      scannedAt: now,
      checks: [
        check({ category: "Transport", name: "HTTPS enforced", status: "pass", severity: "critical", description: "Every page is served over HTTPS; plain HTTP redirects." }),
        check({ category: "Transport", name: "HSTS header", status: "pass", severity: "high", description: "Strict-Transport-Security tells browsers to use HTTPS only." }),
        check({ category: "Headers", name: "Content Security Policy", status: "warning", severity: "medium", description: "The policy allows the third-party lead form script and frame.", recommendation: "Limit script-src and frame-src to the lead form provider's exact hosts." }),
        check({ category: "Headers", name: "Clickjacking protection", status: "pass", severity: "medium", description: "Pages may not be framed by other sites." }),
        check({ category: "Headers", name: "MIME sniffing disabled", status: "pass", severity: "low", description: "X-Content-Type-Options: nosniff is sent." }),
        check({ category: "Access", name: "Admin PIN gate", status: "pass", severity: "critical", description: "The admin area locks on every load and needs the PIN." }),
        check({ category: "Access", name: "Admin session timeout", status: "pass", severity: "high", description: "Unlocked admin sessions expire after a set time." }),
        check({ category: "Access", name: "API rate limiting", status: "pass", severity: "high", description: "Clients sending too many requests are refused for a while." }),
        check({ category: "Data", name: "Lead data masking", status: "pass", severity: "high", description: "Staff see masked phone numbers and email addresses." }),
        check({ category: "Data", name: "Backup encryption", status: "pass", severity: "medium", description: "Backups are encrypted with AES-256." }),
        check({ category: "Access", name: "Admin PIN strength", status: "warning", severity: "medium", description: "The admin PIN is a 6-digit code.", recommendation: "Use a longer PIN or add a second sign-in factor." }),
        check({ category: "Dependencies", name: "Dependency audit", status: "pass", severity: "medium", description: "No known vulnerable packages in the shipped bundles." }),
        check({ category: "Uploads", name: "Upload type checks", status: "pass", severity: "high", description: "Only image and video files are accepted for project media." }),
      ],
      vulnerabilities: [
        { id: "VULN-001", title: "Outdated TLS cipher suites", severity: "medium", description: "Older CBC cipher suites were offered to legacy clients.", fixedIn: "site v1.4.0", status: "fixed" },
        { id: "VULN-002", title: "Regular expression denial of service in cross-spawn", severity: "high", description: "A crafted argument could make a build-time package hang; it never runs on the live site.", fixedIn: "7.0.5", cve: "CVE-2024-21538", status: "fixed" },
        { id: "VULN-003", title: "Short numeric admin PIN", severity: "low", description: "A 6-digit PIN can be guessed with enough attempts; rate limiting slows guessing.", status: "acknowledged" },
      ],
      monitoring: [
        { label: "Uptime (30 days)", value: "99.98%", status: "good", description: "Health check every minute." },
        { label: "Failed PIN attempts (24 h)", value: "3", status: "good", description: "No lockout threshold reached." },
        { label: "Rate-limited requests (24 h)", value: "41", status: "good", description: "Clients over 100 requests per minute." },
        { label: "TLS certificate", value: "62 days left", status: "good", description: "Renews automatically 30 days before expiry." },
        { label: "Last backup", value: "Today, 03:00", status: "good", description: "Encrypted with AES-256." },
        { label: "Blocked upload types (7 days)", value: "2", status: "warn", description: "Files that were neither images nor videos." },
      ],
      hardening: [
        { name: "Security headers on every response", enabled: true, description: "HSTS, nosniff, frame protection and referrer policy." },
        { name: "Admin routes excluded from search", enabled: true, description: "noindex on /admin and disallowed in robots.txt." },
        { name: "Admin token kept in memory only", enabled: true, description: "A reload locks the admin area again." },
        { name: "Request rate limiting", enabled: true, description: "100 requests per minute per client." },
        { name: "Encrypted backups", enabled: true, description: "AES-256 before leaving the server." },
        { name: "Strict Content Security Policy", enabled: false, description: "Waiting on exact hosts for the lead form provider." },
      ],
      config: { pinMask: "••••••", sessionTimeout: "24 hours", apiRateLimit: "100 req/min", backupEncryption: "AES-256" },
    };
  },
};

import "../../styles/admin-audits.css";
import "../../styles/admin-manage.css";
import { useId, useState } from "react";
import { Icon } from "../../components/icons";
import { liveSecurity, SCAN_DELAY_MS, type CheckStatus, type HardeningConfig, type HardeningItem, type HardeningState, type SecurityCheck, type SecurityReport, type Severity, type Vulnerability, type VulnerabilityStatus } from "../data/security";
import { errorText, useResource } from "../use-resource";
import { runOnServer } from "../server-run";
import { ActiveSessions } from "../active-sessions";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, LoadError, PageHeader, StatCard, Tabs } from "../ui";

const statusTone = (s: CheckStatus) => (s === "pass" ? "good" : s === "warning" ? "warn" : s === "fail" ? "bad" : "neutral");
const statusLabel = (s: CheckStatus) => (s === "not-checked" ? "not checked" : s);
const severityTone = (s: Severity) => (s === "critical" || s === "high" ? "bad" : s === "medium" ? "warn" : "neutral");
const vulnTone = (s: Vulnerability["status"]) => (s === "fixed" ? "good" : s === "acknowledged" ? "info" : "bad");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 70 ? "warn" : "bad");
const fmt = (iso: string) => new Date(iso).toLocaleString("en-US");

/** NO_SCAN says how the screen fills before the first scan. */
const NO_SCAN = "No scan has run yet. The server scans itself at every start (once its pages are ready), every 24 hours, and when you press Run Full Scan.";

function Overview({ checks }: { checks: SecurityCheck[] }) {
  if (checks.length === 0) return <Card title="Security Overview"><p className="a-empty">{NO_SCAN}</p></Card>;
  const categories = Array.from(new Set(checks.map((c) => c.category)));
  return (
    <>
      {categories.map((cat) => (
        <Card key={cat} title={cat}>
          <ul className="am-list">
            {checks.filter((c) => c.category === cat).map((c) => (
              <li key={c.id}>
                <div className="am-list__main">
                  <p className="am-list__title">{c.name} <Badge tone={statusTone(c.status)}>{statusLabel(c.status)}</Badge></p>
                  <p className="am-list__desc">{c.description}</p>
                  {c.recommendation && <p className="am-list__desc"><strong>Recommendation:</strong> {c.recommendation}</p>}
                  <p className="am-list__desc">Last checked: {fmt(c.lastChecked)}</p>
                </div>
                <div className="am-list__actions"><Badge tone={severityTone(c.severity)}>{c.severity} severity</Badge></div>
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </>
  );
}

const STATUSES: VulnerabilityStatus[] = ["open", "acknowledged", "fixed"];

function Vulnerabilities({ items, scanned, onStatus, busy }: { items: Vulnerability[]; scanned: boolean; onStatus: (v: Vulnerability, s: VulnerabilityStatus) => void; busy: string }) {
  const desc = "Every check that failed. Set a finding to acknowledged once you have decided how to handle it; a check that passes on a later scan is marked fixed by itself, and one marked fixed that fails again is reopened.";
  if (items.length === 0) {
    return <Card title="Vulnerabilities" description={desc}><p className="a-empty">{scanned ? "No vulnerabilities: no check has failed." : NO_SCAN}</p></Card>;
  }
  return (
    <Card title="Vulnerabilities" description={desc}>
      <ul className="am-list">
        {items.map((v) => (
          <li key={v.id}>
            <div className="am-list__main">
              <p className="am-list__title"><span className="a-muted">{v.id}</span> {v.title}</p>
              <p className="am-list__desc">{v.description}</p>
              {(v.fixedIn || v.cve) && (
                <p className="am-list__desc">
                  {v.cve && <>CVE: <strong>{v.cve}</strong></>}
                  {v.cve && v.fixedIn && " · "}
                  {v.fixedIn && <>Fixed in: <strong>{v.fixedIn}</strong></>}
                </p>
              )}
              <p className="am-list__desc">First found {fmt(v.firstSeenAt)} · last found {fmt(v.lastSeenAt)}</p>
            </div>
            <div className="am-list__actions">
              <Badge tone={severityTone(v.severity)}>{v.severity} severity</Badge>
              <Badge tone={vulnTone(v.status)}>{v.status}</Badge>
              <select className="a-input am-status" aria-label={`Status of ${v.title}`} value={v.status} disabled={busy === v.id}
                onChange={(e) => onStatus(v, e.target.value as VulnerabilityStatus)}>
                {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
              </select>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

const HARDENING: Record<HardeningState, { label: string; tone: "good" | "warn" | "bad" | "info" | "neutral" }> = {
  enabled: { label: "enabled", tone: "good" },
  partly: { label: "partly enabled", tone: "warn" },
  "not-enabled": { label: "not enabled", tone: "bad" },
  "not-checked": { label: "not checked", tone: "neutral" },
  "built-in": { label: "built in", tone: "info" },
};
const SOURCE: Record<HardeningItem["source"], string> = { scan: "Latest scan", config: "Running configuration", code: "The code" };

function Hardening({ items, config }: { items: HardeningItem[]; config: HardeningConfig }) {
  const [show, setShow] = useState(false);
  const panel = useId();
  return (
    <>
      <Card title="Hardening Measures" description="Each state is read from the latest scan or from the running configuration, and says what it rests on.">
        <ul className="am-list">
          {items.map((h) => (
            <li key={h.name}>
              <div className="am-list__main">
                <p className="am-list__title">{h.name}</p>
                <p className="am-list__desc">{h.description}</p>
                <p className="am-list__desc"><strong>{SOURCE[h.source]}:</strong> {h.why}</p>
              </div>
              <Badge tone={HARDENING[h.state].tone}>{HARDENING[h.state].label}</Badge>
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Security Configuration" description="Current settings, read-only."
        actions={<Button variant="outline" className="a-btn a-btn--outline am-btn-sm" aria-expanded={show} aria-controls={panel} onClick={() => setShow((s) => !s)}>
          {show ? "Hide Configuration" : "Show Configuration"}
        </Button>}>
        <div id={panel} hidden={!show}>
          <dl className="am-config">
            <div><dt>Admin PIN</dt><dd><span aria-hidden="true">{config.pinMask}</span><span className="visually-hidden">Hidden</span></dd><dd className="am-config__hint">{config.pinSource} The browser never receives it.</dd></div>
            <div><dt>Session timeout</dt><dd>{config.sessionTimeout}</dd></div>
            <div>
              <dt>API rate limit</dt>
              <dd>{config.apiRateLimit}<ul className="am-config__list">{config.rateLimits.map((l) => <li key={l}>{l}</li>)}</ul></dd>
            </div>
            <div><dt>Backup encryption</dt><dd>{config.backupEncryption}</dd></div>
          </dl>
        </div>
      </Card>
    </>
  );
}

/** Security Scanner: the server's checks of itself, the vulnerabilities
 * they found, monitoring figures and hardening. Run Full Scan asks the
 * server for a scan and waits for it (3 s at least). */
export default function Security(_: AdminPageProps) {
  const toast = useToast();
  const { data: r, error, retry, setData, refresh } = useResource(liveSecurity.load, []);
  const [busy, setBusy] = useState(false);
  const [updated, setUpdated] = useState<Date | null>(null);
  const [saving, setSaving] = useState("");
  const scan = async () => {
    setBusy(true);
    try {
      setData(await runOnServer(liveSecurity.scan, liveSecurity.load, (d: SecurityReport) => d.scan?.id, SCAN_DELAY_MS));
      setUpdated(new Date());
    } catch (e) {
      toast({ title: "Scan not finished", description: errorText(e), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  const setStatus = async (v: Vulnerability, status: VulnerabilityStatus) => {
    setSaving(v.id);
    try {
      await liveSecurity.setStatus(v.id, status);
      toast({ title: "Status Updated", description: `${v.title} is now ${status}.` });
      await refresh();
    } catch (e) {
      toast({ title: "Update Failed", description: errorText(e), variant: "destructive" });
    } finally {
      setSaving("");
    }
  };
  const checks = r?.checks || [];
  const run = checks.filter((c) => c.status !== "not-checked");
  const passed = checks.filter((c) => c.status === "pass").length;
  const warnings = checks.filter((c) => c.status === "warning").length;
  const failed = checks.filter((c) => c.status === "fail").length;
  const notChecked = checks.length - run.length;
  const vulns = r?.vulnerabilities || [];
  const open = vulns.filter((v) => v.status === "open").length;
  const scanned = !!r?.scan;
  return (
    <>
      <PageHeader title="Security Scanner" description="Checks the running website's headers, access control, limits, uploads, database, files and versions, and tracks what failed."
        actions={<Button onClick={scan} disabled={busy} aria-busy={busy}>{busy ? "Scanning..." : "Run Full Scan"}</Button>} />
      <p role="status" className="visually-hidden">{busy ? "Scanning..." : updated ? "Scan finished." : ""}</p>
      <LoadError error={error} onRetry={retry} prefix="The security report could not be loaded: " />
      <LastUpdated at={updated} />
      <div className="a-grid a-grid--4 am-summary">
        <StatCard label="Security Score" value={scanned ? `${r!.score}%` : "—"} hint={scanned ? "Share of passing checks" : "No scan yet"} tone={scanned ? scoreTone(r!.score) : undefined} />
        <StatCard label="Passed Checks" value={scanned ? `${passed}/${run.length}` : "—"} hint={scanned ? `${failed ? `${failed} failing` : "None failing"}${notChecked ? `; ${notChecked} not checked` : ""}` : "No scan yet"} tone={scanned ? "good" : undefined} />
        <StatCard label="Warnings" value={scanned ? warnings : "—"} hint="Checks to improve" tone={scanned ? (warnings ? "warn" : "good") : undefined} />
        <StatCard label="Open Vulnerabilities" value={scanned ? open : "—"} hint={`${vulns.length} tracked`} tone={scanned ? (open ? "bad" : "good") : undefined} />
      </div>
      <Tabs label="Security Scanner" tabs={[
        { id: "overview", label: "Security Overview", content: r ? <Overview checks={checks} /> : <p className="a-muted" role="status">Loading...</p> },
        { id: "vulnerabilities", label: "Vulnerabilities", content: <Vulnerabilities items={vulns} scanned={scanned} onStatus={setStatus} busy={saving} /> },
        {
          id: "monitoring", label: "Monitoring", content: (
            <div className="a-grid a-grid--3">
              {(r?.monitoring || []).map((m) => <StatCard key={m.label} label={m.label} value={m.value} hint={m.description} tone={m.status} />)}
            </div>
          ),
        },
        { id: "hardening", label: "Security Hardening", content: r ? <Hardening items={r.hardening} config={r.config} /> : <p className="a-muted" role="status">Loading...</p> },
      ]} />
      <ActiveSessions />
      <footer className="am-footer">
        {r?.scan ? (
          <>
            <p><Icon name="clock" size={14} /> Last scan: <time dateTime={new Date(r.scan.startedAt).toISOString()}>{fmt(r.scan.startedAt)}</time></p>
            {r.nextScanAt && <p>Next automated scan: <time dateTime={new Date(r.nextScanAt).toISOString()}>{fmt(r.nextScanAt)}</time></p>}
          </>
        ) : (
          <p><Icon name="clock" size={14} /> Last scan: not yet. The first runs when the server starts; then every 24 hours.</p>
        )}
      </footer>
    </>
  );
}

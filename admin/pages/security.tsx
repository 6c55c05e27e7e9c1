import "../../styles/admin-manage.css";
import { useId, useState } from "react";
import { Icon } from "../../components/icons";
import { NEXT_SCAN_MS, SCAN_DELAY_MS, sampleSecurity, securityScore, type CheckStatus, type HardeningConfig, type HardeningItem, type SecurityCheck, type SecuritySource, type Severity, type Vulnerability } from "../data/security";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, PageHeader, StatCard, Tabs, useSimulated } from "../ui";

const statusTone = (s: CheckStatus) => (s === "pass" ? "good" : s === "warning" ? "warn" : "bad");
const severityTone = (s: Severity) => (s === "critical" || s === "high" ? "bad" : s === "medium" ? "warn" : "neutral");
const vulnTone = (s: Vulnerability["status"]) => (s === "fixed" ? "good" : s === "acknowledged" ? "info" : "bad");
const scoreTone = (n: number) => (n >= 90 ? "good" : n >= 70 ? "warn" : "bad");
const fmt = (d: Date) => d.toLocaleString("en-US");

function Overview({ checks }: { checks: SecurityCheck[] }) {
  const categories = Array.from(new Set(checks.map((c) => c.category)));
  return (
    <>
      {categories.map((cat) => (
        <Card key={cat} title={cat}>
          <ul className="am-list">
            {checks.filter((c) => c.category === cat).map((c) => (
              <li key={c.name}>
                <div className="am-list__main">
                  <p className="am-list__title">{c.name} <Badge tone={statusTone(c.status)}>{c.status}</Badge></p>
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

function Vulnerabilities({ items }: { items: Vulnerability[] }) {
  if (items.length === 0) return <Card title="Vulnerabilities"><p className="a-empty">No vulnerabilities found.</p></Card>;
  return (
    <Card title="Vulnerabilities" description="Known issues and their state.">
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
            </div>
            <div className="am-list__actions">
              <Badge tone={severityTone(v.severity)}>{v.severity} severity</Badge>
              <Badge tone={vulnTone(v.status)}>{v.status}</Badge>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Hardening({ items, config }: { items: HardeningItem[]; config: HardeningConfig }) {
  const [show, setShow] = useState(false);
  const panel = useId();
  return (
    <>
      <Card title="Hardening Measures">
        <ul className="am-list">
          {items.map((h) => (
            <li key={h.name}>
              <div className="am-list__main">
                <p className="am-list__title">{h.name}</p>
                <p className="am-list__desc">{h.description}</p>
              </div>
              <Badge tone={h.enabled ? "good" : "warn"}>{h.enabled ? "enabled" : "not enabled"}</Badge>
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
            <div><dt>Admin PIN</dt><dd><span aria-hidden="true">{config.pinMask}</span><span className="visually-hidden">Hidden</span></dd><dd className="am-config__hint">Set on the server; the browser never receives it.</dd></div>
            <div><dt>Session timeout</dt><dd>{config.sessionTimeout}</dd></div>
            <div><dt>API rate limit</dt><dd>{config.apiRateLimit}</dd></div>
            <div><dt>Backup encryption</dt><dd>{config.backupEncryption}</dd></div>
          </dl>
        </div>
      </Card>
    </>
  );
}

/** Security Scanner: sample checks, vulnerabilities, monitoring and
 * hardening. "Run Full Scan" waits 3 s and reloads the same sample. */
export default function Security({ source = sampleSecurity }: AdminPageProps & { source?: SecuritySource }) {
  const scan = useSimulated(() => source.scan(), SCAN_DELAY_MS);
  const r = scan.data;
  const score = securityScore(r.checks);
  const passed = r.checks.filter((c) => c.status === "pass").length;
  const warnings = r.checks.filter((c) => c.status === "warning").length;
  const failed = r.checks.filter((c) => c.status === "fail").length;
  const open = r.vulnerabilities.filter((v) => v.status === "open").length;
  const next = new Date(r.scannedAt.getTime() + NEXT_SCAN_MS);
  return (
    <>
      <PageHeader title="Security Scanner" description="Security checks, known vulnerabilities, monitoring and hardening for the website."
        actions={<Button onClick={scan.run} disabled={scan.busy} aria-busy={scan.busy}>{scan.busy ? "Scanning..." : "Run Full Scan"}</Button>} />
      <p className="a-muted am-sample">Sample data: these checks, findings and settings are fixed examples, not a live scan of this server.</p>
      <p role="status" className="visually-hidden">{scan.busy ? "Scanning..." : scan.updated ? "Scan finished." : ""}</p>
      <LastUpdated at={scan.updated} />
      <div className="a-grid a-grid--4 am-summary">
        <StatCard label="Security Score" value={`${score}%`} hint="Share of passing checks" tone={scoreTone(score)} />
        <StatCard label="Passed Checks" value={`${passed}/${r.checks.length}`} hint={failed ? `${failed} failing` : "None failing"} tone="good" />
        <StatCard label="Warnings" value={warnings} hint="Checks to improve" tone={warnings ? "warn" : "good"} />
        <StatCard label="Open Vulnerabilities" value={open} hint={`${r.vulnerabilities.length} tracked`} tone={open ? "bad" : "good"} />
      </div>
      <Tabs label="Security Scanner" tabs={[
        { id: "overview", label: "Security Overview", content: <Overview checks={r.checks} /> },
        { id: "vulnerabilities", label: "Vulnerabilities", content: <Vulnerabilities items={r.vulnerabilities} /> },
        {
          id: "monitoring", label: "Monitoring", content: (
            <div className="a-grid a-grid--3">
              {r.monitoring.map((m) => <StatCard key={m.label} label={m.label} value={m.value} hint={m.description} tone={m.status} />)}
            </div>
          ),
        },
        { id: "hardening", label: "Security Hardening", content: <Hardening items={r.hardening} config={r.config} /> },
      ]} />
      <footer className="am-footer">
        <p><Icon name="clock" size={14} /> Last scan: <time dateTime={r.scannedAt.toISOString()}>{fmt(r.scannedAt)}</time></p>
        <p>Next automated scan: <time dateTime={next.toISOString()}>{fmt(next)}</time></p>
      </footer>
    </>
  );
}

import { count } from "../components/plural";
import "../styles/admin-audits.css";
import { ago, bytes, liveOverview, type BackupStatus, type DashboardTile } from "./data/dashboard";
import { useResource } from "./use-resource";
import { adminPath } from "./screens";
import { can } from "./capabilities";
import { useSession } from "./use-session";
import { LoadError, StatCard } from "./ui";

// While loading, each tile shows its hint alone (as a measured tile does).
const PLACEHOLDER: DashboardTile[] = ["SEO Score", "Page Speed", "Location Pages", "Security Issues"].map((label) => ({ label, value: "…", hint: "Loading", how: "", measured: true }));

/** OverviewTiles are the dashboard's four tiles, measured by the server;
 * a tile with nothing measured yet shows '—' and says how it will fill.
 * Below them, how each figure is computed. */
export function OverviewTiles() {
  const { data, error, retry } = useResource(liveOverview.tiles, []);
  const tiles = data?.tiles || PLACEHOLDER;
  return (
    <>
      <div className="a-grid a-grid--4">
        {tiles.map((t) => <StatCard key={t.label} label={t.label} value={t.value} hint={t.measured === false ? `${t.hint}. ${t.how}` : t.hint} />)}
      </div>
      <LoadError error={error} onRetry={retry} prefix="The figures could not be loaded: " />
      {data?.backup && <Backups b={data.backup} />}
      {data && (
        <details className="a-how">
          <summary>How these figures are computed</summary>
          <dl>
            {tiles.map((t) => <div key={t.label}><dt>{t.label}</dt><dd>{t.how}</dd></div>)}
          </dl>
        </details>
      )}
    </>
  );
}

/** Backups is the dashboard's line on backups: the last good
 * one, and the alarm when the last one failed or the last good one is
 * too old. The same alarm is on /healthz and /metrics. */
function Backups({ b }: { b: BackupStatus }) {
  const { session } = useSession();
  const schedule = b.everyHours > 0 ? `Backed up every ${b.everyHours === 1 ? "hour" : count(b.everyHours, "hour")} to ${b.location}.` : `No scheduled backup: run site backup (for example from cron). Backups go to ${b.location}.`;
  return (
    <section className={"a-backup" + (b.alarm ? " a-backup--alarm" : "")} aria-labelledby="a-backup-title">
      <h2 id="a-backup-title" className="a-backup__title">Backups</h2>
      {b.error ? <p className="a-error" role="alert">{b.error}</p> : (
        <>
          {b.alarm && <p className="a-backup__alarm" role="alert">{b.alarm}</p>}
          <p className="a-backup__last">{b.lastGoodAt
            ? <>Last good backup: <time dateTime={b.lastGoodAt} title={new Date(b.lastGoodAt).toLocaleString("en-US")}>{ago(b.lastGoodAt)}</time> ({b.lastGoodName}, {bytes(b.lastGoodBytes)}).</>
            : <>No backup yet.</>}</p>
          <p className="a-muted a-backup__where">{schedule}</p>
          {can(session, "backups.manage") && <p className="a-backup__where"><a className="a-link" href={adminPath("backups")}>Open Backups: back up now or download a backup</a></p>}
        </>
      )}
    </section>
  );
}

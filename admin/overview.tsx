import "../styles/admin-audits.css";
import { liveOverview, type DashboardTile, type OverviewSource } from "./data/dashboard";
import { useServer } from "./live";
import { StatCard } from "./ui";

const PLACEHOLDER: DashboardTile[] = ["SEO Score", "Page Speed", "Location Pages", "Security Issues"].map((label) => ({ label, value: "…", hint: "Loading" }));

/** OverviewTiles are the dashboard's four tiles, measured by the server;
 * a tile with nothing measured yet shows '—' and says how it will fill.
 * Below them, how each figure is computed. */
export function OverviewTiles({ source = liveOverview }: { source?: OverviewSource }) {
  const { data, error } = useServer(source.tiles);
  const tiles = data?.tiles || PLACEHOLDER;
  return (
    <>
      <div className="a-grid a-grid--4">
        {tiles.map((t) => <StatCard key={t.label} label={t.label} value={t.value} hint={t.measured === false ? `${t.hint}. ${t.how}` : t.hint} />)}
      </div>
      {error && <p className="a-error" role="alert">The figures could not be loaded: {error}</p>}
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

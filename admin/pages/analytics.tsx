import { count } from "../../components/plural";
import "../../styles/admin-insights.css";
import { useState } from "react";
import { MAX_PAGES, NOT_FOUND, REFRESH_DELAY_MS, saveGoals, serverAnalytics, UNCOUNTED, type AnalyticsData, type AnalyticsMetric, type Kpi } from "../data/analytics";
import { ApiError } from "../api";
import { useToast } from "../toast";
import { useResource } from "../use-resource";
import { useTimedReload } from "../server-run";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LastUpdated, LoadError, PageHeader, Progress, StatCard, Tabs } from "../ui";

const n = (v: number, decimals = 0) => v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
const pct = (v: number) => `${n(v, 1)}%`;

function Share({ value, label }: { value: number; label: string }) {
  return (
    <div className="ai-share">
      <span>{pct(value)}</span>
      <Progress value={value} label={label} />
    </div>
  );
}

/** Uncounted is the leads from uncounted visits, with what they are. */
function Uncounted({ d }: { d: AnalyticsData }) {
  return (
    <p className="ai-uncounted">
      <strong>Leads from uncounted visits: {n(d.uncounted.leads)}</strong>
      <span className="ai-small">{UNCOUNTED}</span>
    </p>
  );
}

// The tables' totals are the server's headlines, not sums made here: the
// server guarantees that its rows add up to them (ADR 023).

function Sources({ d }: { d: AnalyticsData }) {
  return (
    <>
      <Card title="Traffic Sources" description={`Each visit counts once, under the source of its first page view; conversions are visits with a call tap or an estimate request · ${d.period}`}>
        <div className="ai-scroll" tabIndex={0} role="region" aria-label="Traffic sources table">
          <table className="a-table ai-table ai-table--dense">
            <thead>
              <tr><th scope="col">Source</th><th scope="col" className="ai-num">Visitors</th><th scope="col">Share</th><th scope="col" className="ai-num">Conversions</th></tr>
            </thead>
            <tbody>
              {d.sources.map((r) => (
                <tr key={r.source}>
                  <th scope="row">{r.source}</th>
                  <td className="ai-num">{n(r.visitors)}</td>
                  <td><Share value={r.percentage} label={`${r.source} share of visitors`} /></td>
                  <td className="ai-num">{n(r.conversions)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr><th scope="row">Total</th><td className="ai-num">{n(d.visitors)}</td><td>{pct(d.visitors > 0 ? 100 : 0)}</td><td className="ai-num">{n(d.conversions)}</td></tr>
            </tfoot>
          </table>
        </div>
      </Card>
      <LeadSources d={d} />
      <Pages d={d} />
    </>
  );
}

/** LeadSources is 'Leads by source / campaign': the estimate requests of
 * the period by where their visit came from, as each lead recorded it. */
function LeadSources({ d }: { d: AnalyticsData }) {
  const total = d.leadSources.reduce((sum, r) => sum + r.leads, 0);
  return (
    <Card title="Leads by source / campaign" description={`Estimate requests by the source each one recorded (UTM source and medium, else an ad click, else the referring site) and its campaign; every request stored is counted · ${d.period}`}>
      {d.leadSources.length === 0 ? <p className="ai-small">No estimate request in the period yet.</p> : (
        <div className="ai-scroll" tabIndex={0} role="region" aria-label="Leads by source and campaign table">
          <table className="a-table ai-table ai-table--dense">
            <thead>
              <tr><th scope="col">Source / campaign</th><th scope="col" className="ai-num">Leads</th><th scope="col" className="ai-num">Emergencies</th><th scope="col">Share</th></tr>
            </thead>
            <tbody>
              {d.leadSources.map((r) => (
                <tr key={r.source + "\u0000" + r.campaign}>
                  <th scope="row">{r.source}<span className="ai-campaign">{r.campaign ? r.campaign : "No campaign"}</span></th>
                  <td className="ai-num">{n(r.leads)}</td>
                  <td className="ai-num">{n(r.emergencies)}</td>
                  <td><Share value={r.percentage} label={`${r.source}${r.campaign ? " " + r.campaign : ""} share of leads`} /></td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr><th scope="row">All</th><td className="ai-num">{n(total)}</td><td className="ai-num">{n(d.leadSources.reduce((sum, r) => sum + r.emergencies, 0))}</td><td>{pct(total > 0 ? 100 : 0)}</td></tr>
            </tfoot>
          </table>
        </div>
      )}
    </Card>
  );
}

/** CallPages lists the pages phone number links were tapped on. */
function CallPages({ d }: { d: AnalyticsData }) {
  return (
    <Card title="Calls by page" description={`Taps on a phone number link, by the page they were tapped on (taps on the not-found page have no page) · ${d.period}`}>
      {d.callPages.length === 0 ? <p className="ai-small">No call tap in the period yet.</p> : (
        <div className="ai-scroll" tabIndex={0} role="region" aria-label="Calls by page table">
          <table className="a-table ai-table ai-table--dense ai-pages">
            <thead>
              <tr><th scope="col">Page</th><th scope="col" className="ai-num">Call taps</th></tr>
            </thead>
            <tbody>
              {d.callPages.map((p) => (
                <tr key={p.path}>
                  <th scope="row"><code>{p.path}</code></th>
                  <td className="ai-num">{n(p.calls)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr><th scope="row">All call taps</th><td className="ai-num">{n(d.leads.calls)}</td></tr>
            </tfoot>
          </table>
        </div>
      )}
    </Card>
  );
}

/** FIRST_PAGES are the pages listed before "Show all". */
const FIRST_PAGES = 10;

/** Pages lists the most visited pages, and apart from them the views of
 * the not-found page, which are neither pages nor visits. */
function Pages({ d }: { d: AnalyticsData }) {
  const [open, setOpen] = useState(false);
  const all = d.pages.length < MAX_PAGES;
  const shown = open ? d.pages : d.pages.slice(0, FIRST_PAGES);
  return (
    <Card title="Top Pages" description={`Pages of this site, by visits; a visit counts on every page it viewed · ${d.period}`}>
      {d.pages.length === 0 ? <p className="ai-small">No page viewed in the period yet.</p> : (
        <div className="ai-scroll" tabIndex={0} role="region" aria-label="Top pages table">
          <table className="a-table ai-table ai-table--dense ai-pages">
            <thead>
              <tr><th scope="col">Page</th><th scope="col" className="ai-num">Visitors</th><th scope="col" className="ai-num">Page views</th></tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.path}>
                  <th scope="row"><code>{p.path}</code></th>
                  <td className="ai-num">{n(p.visitors)}</td>
                  <td className="ai-num">{n(p.pageviews)}</td>
                </tr>
              ))}
            </tbody>
            {all && (
              <tfoot>
                <tr><th scope="row">All pages</th><td className="ai-num"><span aria-hidden="true">—</span><span className="visually-hidden">not a sum: a visit counts on every page it viewed</span></td><td className="ai-num">{n(d.pageviews)}</td></tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
      {!all && open && <p className="ai-small">The {MAX_PAGES} most visited pages are listed; {n(d.pageviews)} page views in all.</p>}
      {d.pages.length > FIRST_PAGES && (
        <p className="ai-more"><Button variant="outline" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? `Show the first ${FIRST_PAGES}` : `Show all ${count(d.pages.length, "page")}`}</Button></p>
      )}
      <p className="ai-notfound">
        <strong>Not-found page views: {n(d.notFound)}</strong>
        <span className="ai-small">{NOT_FOUND}</span>
      </p>
    </Card>
  );
}

/** NotStored says, when there were any, how many beacons this server did
 * not store since it started, and why. */
function NotStored({ d }: { d: AnalyticsData }) {
  const { capped, refused, dropped } = d.notStored;
  if (capped + refused + dropped === 0) return null;
  const parts = [
    capped > 0 && `${n(capped)} over one client's daily limits (10 visitors per address a day, and caps on page views, calls and measurements)`,
    refused > 0 && `${n(refused)} refused by the database (the rest of their batch was stored)`,
    dropped > 0 && `${n(dropped)} dropped while the server was overloaded or its database unreachable`,
  ].filter(Boolean);
  return <p className="ai-small ai-notstored">Not counted since this server started: {parts.join("; ")}.</p>;
}

const trendTone = (m: AnalyticsMetric) => (m.trend === (m.better || "up") ? "good" : "bad");

function Conversions({ d }: { d: AnalyticsData }) {
  return (
    <>
      <h2 className="visually-hidden">Conversions</h2>
      <ul className="a-grid a-grid--4">
        {d.metrics.map((m) => (
          <li key={m.name} className="a-stat ai-metric">
            <p className="a-stat__label">{m.name}</p>
            <div className="ai-metric__row">
              <p className="ai-metric__value">{m.value}</p>
              {m.change && <Badge tone={trendTone(m)}><span aria-hidden="true">{m.trend === "up" ? "▲" : "▼"} </span><span className="visually-hidden">Trend {m.trend} against the previous period, </span>{m.change}</Badge>}
            </div>
            <p className="ai-small">{m.description}</p>
          </li>
        ))}
      </ul>
      <Card title="Conversion Rate by Source" description="Converted visits divided by visits, for each traffic source. Leads from uncounted visits have no visit to divide by: they are listed apart.">
        <div className="ai-scroll" tabIndex={0} role="region" aria-label="Conversion rate by source table">
          <table className="a-table ai-table ai-table--dense">
            <thead>
              <tr><th scope="col">Source</th><th scope="col" className="ai-num">Visitors</th><th scope="col" className="ai-num">Converted visits</th><th scope="col" className="ai-num">Leads</th><th scope="col" className="ai-num">Rate</th></tr>
            </thead>
            <tbody>
              {d.sources.map((r) => (
                <tr key={r.source}>
                  <th scope="row">{r.source}</th>
                  <td className="ai-num">{n(r.visitors)}</td>
                  <td className="ai-num">{n(r.conversions)}</td>
                  <td className="ai-num">{n(r.leads)}</td>
                  <td className="ai-num">{pct(r.conversionRate)}</td>
                </tr>
              ))}
              <tr className="ai-apart">
                <th scope="row">Uncounted visits</th>
                <td className="ai-num"><span aria-hidden="true">—</span><span className="visually-hidden">not counted</span></td>
                <td className="ai-num"><span aria-hidden="true">—</span><span className="visually-hidden">not counted</span></td>
                <td className="ai-num">{n(d.uncounted.leads)}</td>
                <td className="ai-num"><span aria-hidden="true">—</span><span className="visually-hidden">none</span></td>
              </tr>
            </tbody>
            <tfoot>
              <tr><th scope="row">All</th><td className="ai-num">{n(d.visitors)}</td><td className="ai-num">{n(d.conversions)}</td><td className="ai-num">{n(d.leads.leads)}</td><td className="ai-num">{pct(d.conversionRate)}</td></tr>
            </tfoot>
          </table>
        </div>
      </Card>
      <CallPages d={d} />
    </>
  );
}

function Geography({ d }: { d: AnalyticsData }) {
  return (
    <Card title="Geography" description={`Estimate requests by the city typed in the form, every one (a call carries no city); visits under the first area page they viewed · ${d.period}`}>
      <div className="ai-scroll" tabIndex={0} role="region" aria-label="Geography table">
        <table className="a-table ai-table ai-table--dense">
          <thead>
            <tr><th scope="col">Area</th><th scope="col" className="ai-num">Area page visitors</th><th scope="col" className="ai-num">Estimate requests</th><th scope="col">Share of requests</th></tr>
          </thead>
          <tbody>
            {d.geography.map((r) => (
              <tr key={r.area}>
                <th scope="row">{r.area}</th>
                <td className="ai-num">{n(r.visitors)}</td>
                <td className="ai-num">{n(r.leads)}</td>
                <td><Share value={r.percentage} label={`${r.area} share of estimate requests`} /></td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr><th scope="row">All areas</th><td className="ai-num">{n(d.areaVisitors)}</td><td className="ai-num">{n(d.leads.estimates)}</td><td>{pct(d.leads.estimates > 0 ? 100 : 0)}</td></tr>
          </tfoot>
        </table>
      </div>
    </Card>
  );
}

function KpiCard({ k }: { k: Kpi }) {
  const fmt = (v: number) => n(v, k.decimals) + k.unit;
  const ofGoal = Math.round((k.value / k.goal) * 100);
  const met = k.value >= k.goal;
  return (
    <li className="a-card ai-metric">
      <div className="ai-metric__row">
        <h3 className="a-card__title">{k.name}</h3>
        <Badge tone={met ? "good" : "warn"}>{met ? "Goal met" : "Below goal"}</Badge>
      </div>
      <p className="ai-metric__value">{fmt(k.value)}</p>
      <p className="ai-small">Goal: {fmt(k.goal)}</p>
      <Progress value={k.value} max={k.goal} label={`${k.name} progress to goal`} />
      <p className="ai-small">{ofGoal}% of goal · {k.description}</p>
    </li>
  );
}

/** GoalsForm edits the three targets; the server checks and stores them. */
function GoalsForm({ d, onSaved }: { d: AnalyticsData; onSaved: () => void }) {
  const goal = (name: string) => d.kpis.find((k) => k.name === name)?.goal ?? 0;
  const [visitors, setVisitors] = useState(String(goal("Monthly Visitors")));
  const [leads, setLeads] = useState(String(goal("Monthly Leads")));
  const [conversion, setConversion] = useState(String(goal("Conversion Rate")));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const toast = useToast();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      await saveGoals({ visitors: Number(visitors), leads: Number(leads), conversion: Number(conversion) });
      toast({ title: "Goals Saved", description: "The Goals & KPIs now compare against the new targets." });
      onSaved();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The goals could not be saved.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Edit Goals" description="Targets for the period shown above.">
      <form className="ai-goals" onSubmit={submit} noValidate>
        <div className="a-field"><label className="a-label" htmlFor="goal-visitors">Visitors goal</label>
          <input id="goal-visitors" className="a-input" type="number" min={1} step={1} inputMode="numeric" value={visitors} onChange={(e) => setVisitors(e.target.value)} /></div>
        <div className="a-field"><label className="a-label" htmlFor="goal-leads">Leads goal</label>
          <input id="goal-leads" className="a-input" type="number" min={1} step={1} inputMode="numeric" value={leads} onChange={(e) => setLeads(e.target.value)} /></div>
        <div className="a-field"><label className="a-label" htmlFor="goal-conversion">Conversion rate goal (%)</label>
          <input id="goal-conversion" className="a-input" type="number" min={0.1} max={100} step={0.1} inputMode="decimal" value={conversion} onChange={(e) => setConversion(e.target.value)} /></div>
        {error && <p role="alert" className="a-error">{error}</p>}
        <Button type="submit" disabled={busy} aria-busy={busy}>{busy ? "Saving..." : "Save Goals"}</Button>
      </form>
    </Card>
  );
}

function Goals({ d, onSaved }: { d: AnalyticsData; onSaved: () => void }) {
  return (
    <>
      <h2 className="visually-hidden">Goals &amp; KPIs</h2>
      <ul className="a-grid a-grid--3">
        {d.kpis.map((k) => <KpiCard key={k.name} k={k} />)}
      </ul>
      <GoalsForm d={d} onSaved={onSaved} />
    </>
  );
}

/** Empty says how the figures fill on a site nobody has visited yet. */
function Empty() {
  return (
    <Card title="No visits recorded yet" description="This screen fills as people use the public site.">
      <p className="ai-small">Every public page view, tap on a phone number and estimate request is counted by this server, without cookies
        and without storing anyone&apos;s IP address (see the <a href="/privacy">Privacy Policy</a>). Visits from browsers that ask not to
        be tracked, from bots and from this admin area are not counted; their estimate requests still count as leads, shown apart as
        leads from uncounted visits.</p>
    </Card>
  );
}

export default function Analytics(_: AdminPageProps) {
  const { data: d, error, refresh, retry } = useResource(serverAnalytics.load, []);
  const { busy, updated, run } = useTimedReload(refresh, REFRESH_DELAY_MS);
  const header = (
    <PageHeader title="Analytics" description={`Website traffic, leads and goals${d ? ` · ${d.period}` : ""}`}
      actions={<Button onClick={run} disabled={busy || !d} aria-busy={busy}>{busy ? "Refreshing..." : "Refresh Data"}</Button>} />
  );
  if (!d) {
    return <>{header}{error ? <LoadError error={error} onRetry={retry} /> : <p className="ai-small" aria-busy="true">Loading analytics...</p>}</>;
  }
  const visitors = d.kpis.find((k) => k.name === "Monthly Visitors");
  const leads = d.kpis.find((k) => k.name === "Monthly Leads");
  const conversion = d.kpis.find((k) => k.name === "Conversion Rate");
  const top = [...d.geography].sort((a, b) => b.leads - a.leads)[0];
  return (
    <>
      {header}
      <div className="ai-updated" aria-live="polite"><LastUpdated at={updated} /><LoadError error={error} onRetry={retry} /></div>
      <div className="a-grid a-grid--4">
        {visitors && <StatCard label="Visitors" value={n(visitors.value)} hint={`Goal ${n(visitors.goal)}`} />}
        {leads && <StatCard label="Leads" value={n(leads.value)} hint={`${n(d.uncounted.leads)} from uncounted visits · Goal ${n(leads.goal)}`} tone={leads.value >= leads.goal ? "good" : undefined} />}
        {conversion && <StatCard label="Conversion Rate" value={`${n(conversion.value, 1)}%`} hint={`${n(d.conversions)} of ${n(d.visitors)} visits · Goal ${n(conversion.goal, 1)}%`} />}
        <StatCard label="Top Area" value={top && top.leads > 0 ? top.area.split(",")[0] : "—"} hint={top && top.leads > 0 ? `${n(top.leads)} estimate request${top.leads === 1 ? "" : "s"}` : "No estimate requests yet"} />
      </div>
      <Uncounted d={d} />
      <NotStored d={d} />
      {d.empty && <Empty />}
      <Tabs label="Analytics sections" tabs={[
        { id: "sources", label: "Traffic Sources", content: <Sources d={d} /> },
        { id: "conversions", label: "Conversions", content: <Conversions d={d} /> },
        { id: "geography", label: "Geography", content: <Geography d={d} /> },
        { id: "goals", label: "Goals & KPIs", content: <Goals d={d} onSaved={refresh} /> },
      ]} />
    </>
  );
}

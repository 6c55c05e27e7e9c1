// The dashboard's first block for a session that may read leads: the
// leads that need someone (new, and nobody has answered them: no
// person's status change or note), emergencies first and then the
// longest waiting, each with its wait and a one-tap Call for admins; then
// today's figures. The server picks, orders, masks and counts
// (GET /api/admin/leads/attention); the browser only ticks the waits on.
import "../styles/admin-leads.css";
import { useEffect, useState } from "react";
import { CallText } from "./lead-call";
import { duration, loadAttention, onLeadsChanged, type AttentionAnswer, type Waiting } from "./data/leads";
import { useLeadChanges } from "./lead-stream";
import { useResource } from "./use-resource";
import { adminPath } from "./screens";
import { can } from "./capabilities";
import { useSession } from "./use-session";
import { Card, LoadError, StatCard } from "./ui";

/** useAttention is the block's data: a change made in this tab refreshes
 * it, and so does a live stream of lead changes. */
function useAttention() {
  const r = useResource(loadAttention, []);
  const { refresh } = r;
  useEffect(() => onLeadsChanged(() => { refresh(); }), [refresh]);
  useLeadChanges(() => { refresh(); }); // another device's change
  return r;
}

/** useNow ticks every 30 s, so a wait shown as "waiting 12 min" grows. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

const name = (l: Waiting) => `${l.first_name} ${l.last_name}`.trim() || "No name given";

/** NeedsAttention is the block (leads.read; a PIN session never gets it:
 * the dashboard does not render it, and the server refuses it). */
export function NeedsAttention({ navigate }: { navigate: (slug: string) => void }) {
  const { session } = useSession();
  const admin = can(session, "leads.full");
  const { data, error, retry } = useAttention();
  const [loadedAt, setLoadedAt] = useState(() => Date.now());
  useEffect(() => { setLoadedAt(Date.now()); }, [data]);
  const now = useNow();
  const open = (id: string) => (e: React.MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate("leads?lead=" + encodeURIComponent(id));
  };
  const waited = (l: Waiting) => l.waitingSeconds + Math.max(0, now - loadedAt) / 1000;
  const emergencies = data?.waiting.filter((l) => l.is_emergency).length || 0;
  const title = !data ? "Leads waiting for an answer" : data.total === 0 ? "No lead is waiting" : `${data.total} lead${data.total === 1 ? "" : "s"} waiting for an answer`;
  return (
    <>
      <Card className="na-card" title={title} description={data && data.total > 0
        ? `New and nobody has answered yet${emergencies ? ", emergencies first" : ""}. A status change or a note answers a lead.`
        : "New leads nobody has answered show here, emergencies first."}>
        <LoadError error={error} onRetry={retry} />
        {!data ? (!error && <p className="a-muted" role="status">Loading leads...</p>) : data.total === 0 ? (
          <p className="na-empty">Every new lead has an answer.</p>
        ) : (
          <ul className="na-list" aria-label="Leads waiting for an answer, emergencies first">
            {data.waiting.map((l) => (
              <li key={l.id} className={"na-lead" + (l.is_emergency ? " na-lead--emergency" : "")}>
                <div className="na-lead__who">
                  {l.is_emergency && <span className="al-emergency">Emergency</span>}
                  <a className="na-lead__name" href={adminPath("leads") + "?lead=" + encodeURIComponent(l.id)} onClick={open(l.id)}>{name(l)}</a>
                  {l.assignedToMe && <span className="na-mine">Assigned to you</span>}
                  <span className="na-lead__meta">{[l.damage_type, l.city].filter(Boolean).join(" · ")}</span>
                  <span className="na-lead__wait">waiting {duration(waited(l))}</span>
                </div>
                <div className="na-lead__act">
                  {admin ? <CallText id={l.id} name={name(l)} compact /> : <span className="al-nowrap na-lead__phone">{l.phone_masked}</span>}
                </div>
              </li>
            ))}
          </ul>
        )}
        {data && data.total > data.waiting.length && (
          <p className="a-muted na-more">{data.total - data.waiting.length} more in the <a href={adminPath("leads")} onClick={(e) => { e.preventDefault(); navigate("leads"); }}>Secure Leads Manager</a>.</p>
        )}
      </Card>
      {data && <Today figures={data.today} />}
    </>
  );
}

/** Today are today's figures, as the server counted them. */
function Today({ figures: f }: { figures: AttentionAnswer["today"] }) {
  return (
    <section className="na-today" aria-label="Today's leads">
      <StatCard label="New leads today" value={f.new} />
      <StatCard label="Answered today" value={f.answered} />
      <StatCard label="Emergencies today" value={f.emergencies} tone={f.emergencies > 0 ? "bad" : undefined} />
      <StatCard label="Median first response" value={f.answered ? duration(f.medianSeconds) : "—"} hint={f.answered ? "of the leads answered today" : "No lead answered yet today"} />
    </section>
  );
}

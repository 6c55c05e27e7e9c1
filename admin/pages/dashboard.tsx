import { Icon } from "../../components/icons";
import { HealthIssues, RecentActivity } from "../activity";
import { dashboardTools, liveTools, type ToolStatus } from "../data/dashboard";
import { duration, responseTimes } from "../data/leads";
import { useLeadChanges } from "../lead-stream";
import { useResource } from "../use-resource";
import { NeedsAttention } from "../needs-attention";
import { Visits } from "../booking/visits";
import { LeadNotifications } from "../notifications";
import { OverviewTiles } from "../overview";
import { adminPath, SCREENS, screenFor } from "../screens";
import { can, canOpen } from "../capabilities";
import { useSession } from "../use-session";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, LoadError, PageHeader, StatCard } from "../ui";

const priorityTone = (p: ToolStatus["priority"]) => (p === "high" ? "bad" : p === "medium" ? "warn" : "neutral");

/** Dashboard is the admin's start screen. What it shows follows the
 * screens manifest and the session's capabilities: the website tools and
 * their figures for the PIN and admins, the screens an account may open
 * for staff. */
export default function Dashboard({ navigate }: AdminPageProps) {
  const { session } = useSession();
  const opens = (slug: string) => { const s = screenFor(slug); return !!s && canOpen(session, s); };
  const tools = can(session, "tools");
  const d = dashboardTools.load();
  const cards = d.tools.filter((t) => opens(t.slug));
  // Screens the session can open that no card below links to.
  const linked = new Set(["", "leads", ...cards.map((t) => t.slug)]);
  const more = SCREENS.filter((s) => !linked.has(s.slug) && canOpen(session, s));
  const link = (slug: string) => (e: React.MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(slug);
  };
  const quick = [
    { slug: "seo-audit", label: "Run SEO Audit" },
    { slug: "upload", label: "Upload Photos" },
    { slug: "performance", label: "Check Performance" },
  ].filter((q) => opens(q.slug));
  return (
    <>
      <PageHeader title="Admin Dashboard" description={tools ? "Tools for the website: SEO, performance, security, content and leads." : "The screens your account can open."} />
      {can(session, "leads.read") && <NeedsAttention navigate={navigate} />}
      {can(session, "leads.read") && <Visits />}
      {tools && <OverviewTiles />}
      {quick.length > 0 && (
        <Card title="Quick Actions">
          <div className="a-row">
            {quick.map((q, i) => <Button key={q.slug} variant={i === 0 ? "primary" : "outline"} onClick={() => navigate(q.slug)}>{q.label}</Button>)}
          </div>
        </Card>
      )}
      <Card title="Secure Leads Manager" description={opens("leads") ? "Estimate requests from the website, with masked contact details for staff."
        : "Estimate requests from the website. Lead details are shown only to staff and admin accounts: sign in with your account to open it."}>
        <a className="a-btn a-btn--primary" href={adminPath("leads")} onClick={link("leads")}>Open Secure Leads Manager</a>
      </Card>
      {can(session, "leads.read") && <FirstResponse />}
      {more.length > 0 && (
        <Card title={tools ? "Accounts and sessions" : "Your screens"}>
          <ul className="a-screens">
            {more.map((s) => (
              <li key={s.slug}>
                <a href={adminPath(s.slug)} onClick={link(s.slug)} className="a-link"><Icon name={s.icon} size={16} /> {s.title}</a>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {tools && <LeadNotifications />}
      {cards.length > 0 && <ToolCards cards={cards} link={link} withStatus={tools} />}
      {tools && <HealthIssues navigate={navigate} />}
      {tools && <RecentActivity />}
    </>
  );
}

/** ToolCards are the dashboard's tool cards. With the tools capability
 * each shows the status, priority and reason the server computes from
 * the running site (GET /api/admin/tools); a session without it sees the
 * cards as links only. */
function ToolCards({ cards, link, withStatus }: { cards: { slug: string; title: string; description: string }[]; link: (slug: string) => (e: React.MouseEvent) => void; withStatus: boolean }) {
  const { data, error, retry } = useResource(liveTools.statuses, [], { skip: !withStatus });
  const by = new Map((data?.tools || []).map((t) => [t.slug, t]));
  return (
    <>
      <h2 className="a-h2">Tools</h2>
      {withStatus && <LoadError error={error} onRetry={retry} prefix="The tools' statuses could not be loaded: " />}
      <ul className="a-grid a-grid--3">
        {cards.map((t) => {
          const st = by.get(t.slug);
          return (
            <li key={t.slug} className="a-card a-tool">
              <div className="a-tool__head">
                <h3 className="a-card__title">{t.title}</h3>
                {st && <Badge tone={st.tone}>{st.status}</Badge>}
              </div>
              <p className="a-card__desc">{t.description}</p>
              {st && <p className="a-muted a-tool__detail">{st.detail}</p>}
              {withStatus && !st && !error && <p className="a-muted" role="status">Loading...</p>}
              <div className="a-tool__foot">
                {st ? <Badge tone={priorityTone(st.priority)}>{st.priority} priority</Badge> : <span />}
                <a href={adminPath(t.slug)} onClick={link(t.slug)} className="a-link">Open <Icon name="arrow-right" size={14} /></a>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** FirstResponse is how fast the crew answers new leads: the median and
 * 90th percentile of the time from a lead's creation to a person's first
 * status change or note, over the leads created in the last 7 and 30 days
 * (the server's figures). */
function FirstResponse() {
  const { data, error, refresh, retry } = useResource(responseTimes, []);
  useLeadChanges(() => { refresh(); }); // a new or answered lead changes the figures
  return (
    <Card title="First response time" description="From a new lead to the first status change or note by a person. A lead contacted within minutes is far more likely to become a job.">
      <LoadError error={error} onRetry={retry} prefix="First response time: " />
      {!data ? (!error && <p className="a-muted" role="status">Loading...</p>) : (
        <div className="a-grid a-grid--4">
          {data.windows.flatMap((w) => {
            const hint = `${w.answered} of ${w.leads} lead${w.leads === 1 ? "" : "s"} answered, last ${w.days} days`;
            const none = w.answered === 0;
            return [
              <StatCard key={`m${w.days}`} label={`Median, ${w.days} days`} value={none ? "—" : duration(w.medianSeconds)} hint={none ? (w.leads ? `No lead answered yet of ${w.leads}` : "No leads in these days") : hint} />,
              <StatCard key={`p${w.days}`} label={`90th percentile, ${w.days} days`} value={none ? "—" : duration(w.p90Seconds)} hint={none ? "Fills once a lead is answered" : "9 in 10 answered leads got an answer within this"} />,
            ];
          })}
        </div>
      )}
    </Card>
  );
}

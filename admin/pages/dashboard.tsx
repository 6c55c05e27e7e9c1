import { Icon } from "../../components/icons";
import { HealthIssues, RecentActivity } from "../activity";
import { dashboardTools, type DashboardSource, type ToolCard } from "../data/dashboard";
import { adminPath } from "../layout";
import { LeadNotifications } from "../notifications";
import { OverviewTiles } from "../overview";
import type { AdminPageProps } from "../types";
import { Badge, Button, Card, PageHeader } from "../ui";

const statusTone = (s: ToolCard["status"]) => (s === "Secure" || s === "Optimized" ? "good" : s === "Active" || s === "Ready" ? "info" : "neutral");
const priorityTone = (p: ToolCard["priority"]) => (p === "high" ? "bad" : p === "medium" ? "warn" : "neutral");

export default function Dashboard({ navigate, source = dashboardTools }: AdminPageProps & { source?: DashboardSource }) {
  const d = source.load();
  const link = (slug: string) => (e: React.MouseEvent) => { e.preventDefault(); navigate(slug); };
  return (
    <>
      <PageHeader title="Admin Dashboard" description="Tools for the website: SEO, performance, security, content and leads." />
      <OverviewTiles />
      <Card title="Quick Actions">
        <div className="a-row">
          <Button onClick={() => navigate("seo-audit")}>Run SEO Audit</Button>
          <Button variant="outline" onClick={() => navigate("upload")}>Upload Photos</Button>
          <Button variant="outline" onClick={() => navigate("performance")}>Check Performance</Button>
        </div>
      </Card>
      <Card title="Secure Leads Manager" description="Estimate requests from the website, with masked contact details for staff.">
        <a className="a-btn a-btn--primary" href={adminPath("leads")} onClick={link("leads")}>Open Secure Leads Manager</a>
      </Card>
      <LeadNotifications />
      <h2 className="a-h2">Tools</h2>
      <ul className="a-grid a-grid--3">
        {d.tools.map((t) => (
          <li key={t.slug} className="a-card a-tool">
            <div className="a-tool__head">
              <h3 className="a-card__title">{t.title}</h3>
              <Badge tone={statusTone(t.status)}>{t.status}</Badge>
            </div>
            <p className="a-card__desc">{t.description}</p>
            <div className="a-tool__foot">
              <Badge tone={priorityTone(t.priority)}>{t.priority} priority</Badge>
              <a href={adminPath(t.slug)} onClick={link(t.slug)} className="a-link">Open <Icon name="arrow-right" size={14} /></a>
            </div>
          </li>
        ))}
      </ul>
      <HealthIssues navigate={navigate} />
      <RecentActivity />
    </>
  );
}

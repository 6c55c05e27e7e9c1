import "../styles/admin-activity.css";
import { ago, liveActivity, type Activity } from "./data/dashboard";
import { isHealthIssue, type HealthReport } from "./data/indexnow";
import { adminPath } from "./layout";
import { Badge, Card, LoadError } from "./ui";
import { useResource } from "./use-resource";

/** RecentActivity is the dashboard's activity list: the background jobs'
 * runs (a failed one says so) and uploads, newest first, from the server. */
export function RecentActivity() {
  const { data, error, retry } = useResource(liveActivity.activity, []);
  const list: Activity[] = data?.activity || [];
  return (
    <Card title="Recent Activity" description="Background jobs (IndexNow submissions, health checks, review refreshes) and uploads, as the server recorded them.">
      <LoadError error={error} onRetry={retry} prefix="Recent activity: " />
      {!data ? (!error && <p className="a-muted" role="status">Loading...</p>) : list.length === 0 ? (
        <p className="a-empty">Nothing yet: uploads and background job runs will be listed here.</p>
      ) : (
        <ul className="a-activity act-list">
          {list.map((a) => (
            <li key={a.kind + a.at + a.title}>
              <span className="act-what">
                <span className="act-title">
                  {a.title}
                  {a.outcome === "failed" && <> <Badge tone="bad">failed</Badge></>}
                </span>
                {a.summary && <span className="a-muted act-summary">{a.summary}</span>}
              </span>
              <time className="a-muted act-when" dateTime={a.at} title={new Date(a.at).toLocaleString("en-US")}>{ago(a.at)}</time>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** HealthIssues lists what the latest health check found (a 404, a 5xx, a
 * redirect or a wrong canonical among the sitemap URLs); nothing shows when
 * it found none. */
export function HealthIssues({ navigate }: { navigate: (slug: string) => void }) {
  const { data } = useResource<HealthReport>(liveActivity.health, []);
  const issues = (data?.results || []).filter(isHealthIssue);
  if (!data?.run || issues.length === 0) return null;
  const open = (e: React.MouseEvent) => { e.preventDefault(); navigate("indexnow"); };
  return (
    <Card title="Health issues" description={`The health check of ${new Date(data.run.finishedAt).toLocaleString("en-US")} found ${issues.length} issue${issues.length === 1 ? "" : "s"} among ${data.run.checked} URLs.`}>
      <ul className="a-activity act-list" aria-label="Health issues">
        {issues.map((r) => (
          <li key={r.url}>
            <span className="act-what">
              <a href={r.url} className="act-title">{r.url}</a>
              <span className="a-muted act-summary">{r.status === "redirect" ? `Redirects${r.redirectTo ? ` to ${r.redirectTo}` : ""}` : r.error || `HTTP ${r.statusCode}`}</span>
            </span>
            <Badge tone={r.status === "redirect" ? "warn" : "bad"}>{r.status === "active" ? "canonical" : r.status}</Badge>
          </li>
        ))}
      </ul>
      <p className="act-more"><a href={adminPath("indexnow")} onClick={open} className="a-link">Open the Health Monitor</a></p>
    </Card>
  );
}

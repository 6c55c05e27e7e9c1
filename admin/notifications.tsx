import "../styles/admin-activity.css";
import { ago, liveNotifications, type NotificationRow, type NotificationsStatus } from "./data/dashboard";
import { useResource } from "./use-resource";
import { Badge, Card, LoadError, StatCard } from "./ui";

const rowState = (r: NotificationRow) => (r.deliveredAt ? "delivered" : r.failedAt ? "failed" : r.lastError ? "retrying" : "pending");
const KIND_NAMES: Record<string, string> = { email: "Email", webhook: "Webhook", push: "Push", sms: "Text", ack: "Acknowledgement", review: "Review request email", review_sms: "Review request text" };
const stateTone = { delivered: "good", failed: "bad", retrying: "warn", pending: "neutral" } as const;

/** SETUP points to where the settings' names are. */
const SETUP = "see the deployment guide";

/** pushLine says what is true of push: off when the server has no keys,
 * no device when nobody has subscribed, else how many devices get it. */
function pushLine(d: NotificationsStatus): { badge: string; tone: "good" | "warn" | "neutral"; summary: string } {
  if (!d.configured.push) return { badge: "Unavailable", tone: "warn", summary: "The server could not prepare push notifications; your web host can see why in the server's log." };
  if (d.pushDevices < 0) return { badge: "On", tone: "neutral", summary: "Ready, but the subscribed devices could not be counted just now." };
  if (d.pushDevices === 0) return { badge: "No device", tone: "warn", summary: "No phone gets them yet: on your phone, open the Secure Leads Manager and press 'Notify me on this device'." };
  return { badge: "On", tone: "good", summary: `Sent to ${d.pushDevices === 1 ? "1 device" : `${d.pushDevices} devices`} of admin and staff accounts; add one with 'Notify me on this device' on the Secure Leads Manager.` };
}

/** LeadNotifications is the dashboard's card on how new leads reach the
 * owner: the channels configured, deliveries pending or failed (with the
 * last error) and the spool's backlog, as the server reports them. */
export function LeadNotifications() {
  const { data, error, retry } = useResource(liveNotifications.status, []);
  const push = data ? pushLine(data) : null!;
  return (
    <Card title="Lead notifications" description="Every new estimate request is emailed to you, pushed to subscribed phones and, if set, texted and posted to your CRM; failed deliveries are retried until they go through.">
      <LoadError error={error} onRetry={retry} prefix="Lead notifications: " />
      {!data ? (!error && <p className="a-muted" role="status">Loading...</p>) : (
        <>
          <ul className="a-activity act-list" aria-label="Channels">
            <li>
              <span className="act-what"><span className="act-title">Email</span>
                {!data.configured.email && <span className="a-muted act-summary">Emails for new leads are off: your web host sets the mail server and the address they go to ({SETUP}).</span>}
              </span>
              <Badge tone={data.configured.email ? "good" : "warn"}>{data.configured.email ? "On" : "Off"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Push to phones</span>
                <span className="a-muted act-summary">{push.summary}</span>
              </span>
              <Badge tone={push.tone}>{push.badge}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Text messages</span>
                {!data.configured.sms && <span className="a-muted act-summary">Optional: your web host can connect a text-message service so new leads are also texted to you ({SETUP}).</span>}
              </span>
              <Badge tone={data.configured.sms ? "good" : "neutral"}>{data.configured.sms ? "On" : "Off"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Homeowner acknowledgement</span>
                <span className="a-muted act-summary">{data.configured.ack ? "Emailed to the homeowner when they leave an address; its switch is in System Settings." : "Off: it is sent by email, so it needs the mail server your web host sets."}</span>
              </span>
              <Badge tone={data.configured.ack ? "good" : "neutral"}>{data.configured.ack ? "On" : "Off"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Webhook</span>
                {!data.configured.webhook && <span className="a-muted act-summary">Optional: your web host can have new leads posted to your CRM ({SETUP}).</span>}
              </span>
              <Badge tone={data.configured.webhook ? "good" : "neutral"}>{data.configured.webhook ? "On" : "Off"}</Badge>
            </li>
          </ul>
          <div className="a-grid a-grid--3 an-tiles">
            <StatCard label="Pending" value={data.pending} hint={data.retrying > 0 ? `${data.retrying} retrying after an error` : data.lastDeliveredAt ? `Last delivered ${ago(data.lastDeliveredAt).toLowerCase()}` : "Nothing delivered yet"} tone={data.retrying > 0 ? "warn" : undefined} />
            <StatCard label="Failed" value={data.failed} hint={data.failed > 0 ? "Given up after repeated refusals; the leads are in the leads manager" : "None"} tone={data.failed > 0 ? "bad" : undefined} />
            <StatCard label="Spool backlog" value={data.spoolBacklog} hint={data.spoolBacklog > 0 ? "Leads taken while the database was down, stored as soon as it is back" : "Every lead is in the database"} tone={data.spoolBacklog > 0 ? "warn" : undefined} />
          </div>
          {data.spoolRefused > 0 && (
            <p className="a-error" role="alert">
              {data.spoolRefused === 1 ? "1 lead" : `${data.spoolRefused} leads`} could not be stored: the database refused {data.spoolRefused === 1 ? "it" : "them"} 5 times.
              {" "}{data.spoolRefused === 1 ? "It is" : "They are"} kept in a file on the server (its data folder, spool, refused leads): ask your web host for {data.spoolRefused === 1 ? "it" : "them"} and enter {data.spoolRefused === 1 ? "it" : "them"} by hand.
            </p>
          )}
          {data.lastError && <p className="a-error" role="alert">Last error: {data.lastError}</p>}
          {data.recent.length > 0 && (
            <ul className="a-activity act-list" aria-label="Recent notifications">
              {data.recent.slice(0, 5).map((r, i) => (
                <li key={`${r.kind}-${r.leadId}-${i}`}>
                  <span className="act-what">
                    <span className="act-title">{KIND_NAMES[r.kind] || r.kind} for lead {r.leadId.slice(0, 8)}</span>
                    <span className="a-muted act-summary">{r.attempts} attempt{r.attempts === 1 ? "" : "s"}{r.lastError ? ` — ${r.lastError}` : ""}</span>
                  </span>
                  <Badge tone={stateTone[rowState(r)]}>{rowState(r)}</Badge>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}

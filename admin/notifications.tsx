import "../styles/admin-activity.css";
import { ago, liveNotifications, type NotificationRow, type NotificationsSource } from "./data/dashboard";
import { useServer } from "./live";
import { Badge, Card, StatCard } from "./ui";

const rowState = (r: NotificationRow) => (r.deliveredAt ? "delivered" : r.failedAt ? "failed" : r.lastError ? "retrying" : "pending");
const KIND_NAMES: Record<string, string> = { email: "Email", webhook: "Webhook", push: "Push", sms: "Text", ack: "Acknowledgement" };
const stateTone = { delivered: "good", failed: "bad", retrying: "warn", pending: "neutral" } as const;

/** LeadNotifications is the dashboard's card on how new leads reach the
 * owner: the channels configured, deliveries pending or failed (with the
 * last error) and the spool's backlog, as the server reports them. */
export function LeadNotifications({ source = liveNotifications }: { source?: NotificationsSource }) {
  const { data, error } = useServer(source.status);
  return (
    <Card title="Lead notifications" description="Every new estimate request is emailed to you, pushed to subscribed phones and, if set, texted and posted to your CRM; failed deliveries are retried until they go through.">
      {error && <p className="a-error" role="alert">Lead notifications: {error}</p>}
      {!data ? (!error && <p className="a-muted" role="status">Loading...</p>) : (
        <>
          <ul className="a-activity act-list" aria-label="Channels">
            <li>
              <span className="act-what"><span className="act-title">Email</span>
                {!data.configured.email && <span className="a-muted act-summary">not configured — set SMTP_URL and LEAD_NOTIFY_TO</span>}
              </span>
              <Badge tone={data.configured.email ? "good" : "warn"}>{data.configured.email ? "configured" : "not configured"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Push to phones</span>
                {!data.configured.push && <span className="a-muted act-summary">unavailable — the server could not load its push keys; see its log</span>}
                {data.configured.push && <span className="a-muted act-summary">every device subscribed with 'Notify me on this device' on the leads screen</span>}
              </span>
              <Badge tone={data.configured.push ? "good" : "warn"}>{data.configured.push ? "on" : "off"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Text messages</span>
                {!data.configured.sms && <span className="a-muted act-summary">optional — set SMS_PROVIDER=twilio, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM and LEAD_NOTIFY_SMS</span>}
              </span>
              <Badge tone={data.configured.sms ? "good" : "neutral"}>{data.configured.sms ? "configured" : "off"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Homeowner acknowledgement</span>
                <span className="a-muted act-summary">{data.configured.ack ? "emailed to the homeowner when they leave an address; its switch is in System Settings" : "needs outgoing email (SMTP_URL)"}</span>
              </span>
              <Badge tone={data.configured.ack ? "good" : "neutral"}>{data.configured.ack ? "configured" : "off"}</Badge>
            </li>
            <li>
              <span className="act-what"><span className="act-title">Webhook</span>
                {!data.configured.webhook && <span className="a-muted act-summary">optional — set LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET to post new leads to a CRM</span>}
              </span>
              <Badge tone={data.configured.webhook ? "good" : "neutral"}>{data.configured.webhook ? "configured" : "off"}</Badge>
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
              {" "}{data.spoolRefused === 1 ? "It is" : "They are"} kept in DATA_DIR/spool/refused.jsonl on the server, for you to read and enter by hand.
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

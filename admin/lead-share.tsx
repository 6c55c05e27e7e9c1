// A lead's private pages on its dialog (ADR 065): the steps of the work
// the homeowner is told of, the homeowner's links and how often they
// were opened, and insurers' read-only links, issued for a number of
// days and revocable. The server decides who may do what (leads.status
// for the steps, leads.share for the links); the browser only hides
// what it would refuse.
import { useId, useState } from "react";
import { ApiError } from "./api";
import { can } from "./capabilities";
import { issueAdjusterLink, leadsChanged, loadLinks, recordProgress, revokeHomeLinks, revokeLink, type LinkItem } from "./data/leads";
import { fmtDateTime } from "./listing";
import { useToast } from "./toast";
import { useResource } from "./use-resource";
import { useSession } from "./use-session";
import { Button } from "./ui";

/** STEPS are the steps of the work an owner records, in order. */
const STEPS = [
  { step: "on_the_way", label: "Crew on the way" },
  { step: "work_started", label: "Work started" },
  { step: "drying_started", label: "Drying started" },
];

const STATES: Record<string, string> = { live: "Working", revoked: "Revoked", expired: "Expired" };

function linkText(l: LinkItem): string {
  const opens = l.opens === 1 ? "opened once" : `opened ${l.opens} times`;
  const last = l.lastOpenedAt ? `, last ${fmtDateTime(l.lastOpenedAt)}` : "";
  const until = l.state === "live" && l.expiresAt ? `, works until ${fmtDateTime(l.expiresAt)}` : "";
  return `${STATES[l.state] || l.state}: made ${fmtDateTime(l.createdAt)}, ${opens}${last}${until}`;
}

/** LeadSharePanel is the dialog's section on the homeowner's page and
 * insurers' links. */
export function LeadSharePanel({ leadId, onChanged }: { leadId: string; onChanged?: () => void }) {
  const { session } = useSession();
  const canShare = can(session, "leads.share"), canStep = can(session, "leads.status");
  const { data, error, refresh } = useResource(() => (canShare ? loadLinks(leadId) : Promise.resolve(null)), [leadId, canShare]);
  const [busy, setBusy] = useState("");
  const [days, setDays] = useState("30");
  const [issued, setIssued] = useState("");
  const toast = useToast();
  const ids = useId();
  if (!canShare && !canStep) return null;

  const run = async (what: string, fn: () => Promise<unknown>, done: string) => {
    setBusy(what);
    try {
      await fn();
      toast({ title: done });
      refresh();
      leadsChanged();
      onChanged?.();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      toast({ title: "Not saved", description: err instanceof Error ? err.message : "Try again.", variant: "destructive" });
    } finally {
      setBusy("");
    }
  };
  const issue = (e: React.FormEvent) => {
    e.preventDefault();
    run("issue", async () => setIssued((await issueAdjusterLink(leadId, Number(days))).url), "Insurer's link made: copy it now, it is shown once");
  };
  const adjusters = (data?.items || []).filter((l) => l.kind === "adjuster");

  return (
    <section className="al-work__section" aria-labelledby={ids + "t"}>
      <h3 id={ids + "t"} className="al-work__title">Homeowner's page</h3>
      {canStep && (
        <div className="al-work__row" role="group" aria-label="Record a step of the work">
          {STEPS.map((s) => (
            <Button key={s.step} variant="outline" disabled={!!busy} onClick={() => run(s.step, () => recordProgress(leadId, s.step), `${s.label}: on the timeline`)}>{s.label}</Button>
          ))}
          <p className="a-muted al-hint">Each step shows on the homeowner's page, and they get an update by email (and text when texts are set up) unless they stopped updates. Changing the status to contacted, scheduled, completed or cancelled sends one too.</p>
        </div>
      )}
      {canShare && error && <p className="a-error" role="alert">{error.message}</p>}
      {canShare && data && (
        <>
          <p className="al-work__value">
            {data.homeOpens === 1 ? "The homeowner opened their page once." : `The homeowner opened their page ${data.homeOpens} times.`}{" "}
            {data.homeLive === 0 ? "No link they were sent works now; the next update carries a new one." : `${data.homeLive} working link${data.homeLive === 1 ? "" : "s"} (one per message).`}
          </p>
          {data.homeLive > 0 && <Button variant="danger" disabled={!!busy} onClick={() => run("home", () => revokeHomeLinks(leadId), "The homeowner's links no longer work")}>Revoke the homeowner's links</Button>}
          <h4 className="al-work__title">Insurer's links (read only: timeline, no contact details, no messages)</h4>
          {adjusters.length === 0 ? <p className="a-muted">None yet.</p> : (
            <ul className="al-links">
              {adjusters.map((l) => (
                <li key={l.id}>
                  <span>{linkText(l)}</span>{" "}
                  {l.state === "live" && <Button variant="outline" disabled={!!busy} onClick={() => run(l.id, () => revokeLink(leadId, l.id), "The insurer's link no longer works")}>Revoke</Button>}
                </li>
              ))}
            </ul>
          )}
          <form onSubmit={issue} className="al-work__row" noValidate>
            <label htmlFor={ids + "d"} className="a-label">Works for (days, 1 to 180)</label>
            <input id={ids + "d"} className="a-input" type="number" min={1} max={180} value={days} onChange={(e) => setDays(e.target.value)} />
            <Button type="submit" disabled={!!busy}>Make an insurer's link</Button>
          </form>
          {issued && (
            <p>
              <label htmlFor={ids + "u"} className="a-label">Insurer's link (copy it now: it is not shown again)</label>
              <input id={ids + "u"} className="a-input al-mono" readOnly value={issued} onFocus={(e) => e.currentTarget.select()} />
            </p>
          )}
        </>
      )}
    </section>
  );
}

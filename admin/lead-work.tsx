// Working a lead in the Secure Leads Manager: who has it, the
// notes, and its timeline (created, notified, status changes, notes,
// assignment, escalation, each with who and when); for admins, where the
// lead came from. The server decides who may do what: staff add notes and
// change the status, admins also assign.
import { useId, useState, type ReactNode } from "react";
import { ApiError } from "./api";
import { addNote, assignLead, CHANNELS, duration, leadsChanged, loadWork, NOTE_MAX, type Attribution, type TimelineEntry } from "./data/leads";
import { fmtDateTime } from "./listing";
import { useToast } from "./toast";
import { useResource } from "./use-resource";
import { Button } from "./ui";

/** ATTRIBUTION_FIELDS are a lead's source, in the order the detail shows
 * them (and 'Export with source' writes them). */
const ATTRIBUTION_FIELDS: { key: keyof Attribution; label: string }[] = [
  { key: "landingPage", label: "Landing page" }, { key: "referrerHost", label: "Referrer" },
  { key: "utmSource", label: "UTM source" }, { key: "utmMedium", label: "UTM medium" }, { key: "utmCampaign", label: "UTM campaign" },
  { key: "utmTerm", label: "UTM term" }, { key: "utmContent", label: "UTM content" },
  { key: "gclid", label: "Google click id (gclid)" }, { key: "gbraid", label: "gbraid" }, { key: "wbraid", label: "wbraid" },
  { key: "fbclid", label: "Meta click id (fbclid)" }, { key: "msclkid", label: "Microsoft click id (msclkid)" },
  { key: "deviceClass", label: "Device" }, { key: "visitId", label: "Visit id" },
];

/** LeadSource shows where a lead came from (admins' details). */
export function LeadSource({ attribution }: { attribution?: Partial<Attribution> | null }) {
  const rows = ATTRIBUTION_FIELDS.filter((f) => attribution?.[f.key]);
  return (
    <section className="al-work__section" aria-labelledby="al-source-title">
      <h3 id="al-source-title" className="al-work__title">Source</h3>
      {rows.length === 0 ? (
        <p className="a-muted al-work__empty">Not recorded: the visit left no landing page, referrer or campaign (an older lead, or a browser that sent none).</p>
      ) : (
        <dl className="al-detail al-source">
          {rows.map((f) => (
            <div key={f.key} className={f.key === "landingPage" || f.key.endsWith("clid") || f.key === "gbraid" || f.key === "wbraid" ? "al-detail__wide" : undefined}>
              <dt>{f.label}</dt>
              <dd className={f.key === "landingPage" || f.key.endsWith("clid") || f.key.endsWith("braid") || f.key === "visitId" ? "al-mono" : undefined}>{attribution![f.key]}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** reviewText says a review request's entry (ADR 063): its channel is the
 * outbox's review kind, its "to" what happened. */
function reviewText(e: TimelineEntry): string {
  const how = e.channel === "review_sms" ? "by text" : "by email";
  switch (e.to) {
    case "scheduled": return `Review request planned for ${e.body ? fmtDateTime(e.body) : "later"}`;
    case "sent": return `Review request sent ${how}`;
    case "failed": return `Review request ${how} could not be sent`;
    case "not_askable": return "Not asked for a review: no email or phone we may use";
  }
  return "Review request";
}

/** PROGRESS name the steps of the work (ADR 065). */
const PROGRESS: Record<string, string> = { on_the_way: "crew on the way", work_started: "work started", drying_started: "drying started" };

/** shareText says a step of the work, a private link's entry or an
 * update to the homeowner (ADR 065); "" for any other entry. */
function shareText(e: TimelineEntry): string {
  const who = e.channel === "adjuster" ? "an insurer's link" : "the homeowner's links";
  if (e.kind === "progress") return `${e.actor} recorded: ${PROGRESS[e.to || ""] || e.to}`;
  if (e.kind === "link") return e.to === "issued" ? `${e.actor} made an insurer's link` : `${e.actor} revoked ${who}`;
  if (e.kind === "notified" && (e.channel === "portal" || e.channel === "portal_sms")) {
    return `Update to the homeowner ${e.channel === "portal_sms" ? "by text" : "by email"} ${e.to === "sent" ? "sent" : "could not be sent"}`;
  }
  return "";
}

/** bookingText says an inspection booking's change (body: the window's
 * start/end, RFC 3339). */
function bookingText(e: TimelineEntry): string {
  const start = (e.body || "").split("/")[0];
  const when = start ? fmtDateTime(start) : "";
  const who = e.actor === "homeowner" ? "The homeowner" : e.actor;
  switch (e.to) {
    case "booked": return `${who} booked an inspection visit for ${when}`;
    case "moved": return `${who} moved the inspection visit to ${when}`;
    case "cancelled": return `${who} cancelled the inspection visit of ${when}`;
  }
  return "Inspection visit";
}

/** entryText says what a timeline entry records, in words. */
function entryText(e: TimelineEntry): string {
  const share = shareText(e);
  if (share) return share;
  if (e.kind === "notified" && (e.channel === "review" || e.channel === "review_sms")) return reviewText(e);
  switch (e.kind) {
    case "created": return `Estimate request received (${e.actor || "website"})`;
    case "notified": return `${CHANNELS[e.channel || ""] || "Notification"} delivered${e.to === "escalated" ? " (escalation)" : ""}`;
    case "status": return `${e.actor} changed the status from ${e.from || "none"} to ${e.to}`;
    case "note": return `${e.actor} added a note`;
    case "assigned": return e.to ? `${e.actor} assigned the lead to ${e.body || "an account"}` : `${e.actor} took the lead from ${e.from ? "its account" : "nobody"}`;
    case "escalated": return "Escalated to every admin: an emergency still new";
    case "homeowner": return e.to === "photos" ? `The homeowner sent ${e.from === "1" ? "a photo" : `${e.from} photos`}${e.body ? " and a message" : ""}` : "The homeowner sent a message";
    case "document": return e.to === "crew_photo" ? `${e.actor} shared a job photo with the homeowner` : `${e.actor} added a document for the homeowner`;
    case "booking": return bookingText(e);
  }
  return e.kind;
}

/** Timeline lists a lead's entries, oldest first. */
function Timeline({ entries }: { entries: TimelineEntry[] }) {
  return (
    <ol className="al-timeline" aria-label="Timeline, oldest first">
      {entries.map((e, i) => (
        <li key={e.id || `${e.kind}-${i}`} className={`al-timeline__item al-timeline__item--${e.kind}`}>
          <time dateTime={e.at} className="al-timeline__when">{fmtDateTime(e.at)}</time>
          <span className="al-timeline__what">{entryText(e)}</span>
          {(e.kind === "note" || e.kind === "homeowner") && e.body && <p className="al-timeline__note">{e.body}</p>}
        </li>
      ))}
    </ol>
  );
}

/** NOTES_TITLE names the team's notes so they are never taken for the
 * homeowner's message (lead-dialog.tsx). */
export const NOTES_TITLE = "Team notes, not shown to the homeowner";

/** LeadWorkPanel is the work part of a lead's dialog: its status (the
 * status control the dialog passes) and assignment (admins change it),
 * the first response, the team's note form and the timeline. reloadKey
 * reloads it (after a status change made elsewhere). */
export function LeadWorkPanel({ leadId, canAssign, createdAt, reloadKey = 0, status }: {
  leadId: string; canAssign: boolean; createdAt: string; reloadKey?: number; status?: ReactNode;
}) {
  const { data: work, error: loadError, refresh } = useResource(() => loadWork(leadId), [leadId, reloadKey]);
  const error = loadError?.message || "";
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState("");
  const [saving, setSaving] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const toast = useToast();
  const ids = useId();

  const submitNote = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!note.trim()) { setNoteError("Please write the note."); return; }
    setSaving(true);
    setNoteError("");
    try {
      await addNote(leadId, note);
      setNote("");
      toast({ title: "Note added", description: "The note is on the lead's timeline." });
      refresh();
      leadsChanged();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setNoteError(err instanceof Error ? err.message : "The note could not be saved. Try again.");
    } finally {
      setSaving(false);
    }
  };

  const assign = async (userId: string) => {
    setAssigning(true);
    try {
      await assignLead(leadId, userId);
      const who = work?.assignees?.find((a) => a.id === userId);
      toast({ title: "Lead assigned", description: userId ? `Assigned to ${who?.name || who?.email || "the account"}` : "The lead is assigned to nobody." });
      refresh();
      leadsChanged();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      toast({ title: "Assignment failed", description: err instanceof Error ? err.message : "The assignment could not be saved.", variant: "destructive" });
    } finally {
      setAssigning(false);
    }
  };

  const responded = work?.firstResponseAt ? (new Date(work.firstResponseAt).getTime() - new Date(createdAt).getTime()) / 1000 : null;
  return (
    <div className="al-work" aria-busy={!work && !error}>
      {error && <p className="a-error" role="alert">{error}</p>}
      <section className="al-work__section" aria-labelledby={ids + "assign"}>
        <h3 id={ids + "assign"} className="al-work__title">{status ? "Status and assignee" : "Assigned to"}</h3>
        {status && <div className="al-work__row"><span className="a-label al-work__label">Status</span>{status}</div>}
        {status && <span className="a-label al-work__label">Assigned to</span>}
        {!work ? <p className="a-muted">Loading...</p> : canAssign && work.assignees ? (
          <div className="al-assign">
            <label htmlFor={ids + "who"} className="visually-hidden">Assigned to</label>
            <select id={ids + "who"} className="a-input al-assign__select" value={work.assignedTo || ""} disabled={assigning} onChange={(e) => assign(e.target.value)}>
              <option value="">Nobody</option>
              {work.assignedTo && !work.assignees.some((a) => a.id === work.assignedTo) && <option value={work.assignedTo}>{work.assignedName || "A removed account"}</option>}
              {work.assignees.map((a) => <option key={a.id} value={a.id}>{a.name ? `${a.name} (${a.role})` : `${a.email} (${a.role})`}</option>)}
            </select>
          </div>
        ) : <p className="al-work__value">{work.assignedTo ? work.assignedName || "Another account" : <span className="a-muted">Nobody yet</span>}</p>}
        {work && (
          <p className="a-muted al-work__response">
            {responded !== null ? `First response after ${duration(responded)}.` : "No response by a person yet: a status change or a note ends the first response time."}
          </p>
        )}
      </section>
      <section className="al-work__section" aria-labelledby={ids + "notes"}>
        <h3 id={ids + "notes"} className="al-work__title">{NOTES_TITLE}</h3>
        <form onSubmit={submitNote} noValidate>
          <label htmlFor={ids + "note"} className="visually-hidden">Note</label>
          <textarea id={ids + "note"} className="a-input al-note" rows={3} maxLength={NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)}
            aria-invalid={!!noteError} aria-describedby={ids + "noteh" + (noteError ? " " + ids + "notee" : "")} placeholder="Called, left a voicemail..." />
          <p id={ids + "noteh"} className="a-muted al-hint">{note.length}/{NOTE_MAX} characters. For your team: on the timeline with your name, seen by staff and admins, never by the homeowner.</p>
          {noteError && <p id={ids + "notee"} className="a-error" role="alert">{noteError}</p>}
          <Button type="submit" disabled={saving} aria-busy={saving}>{saving ? "Saving..." : "Add note"}</Button>
        </form>
      </section>
      <section className="al-work__section" aria-labelledby={ids + "tl"}>
        <h3 id={ids + "tl"} className="al-work__title">Timeline</h3>
        {work ? <Timeline entries={work.timeline} /> : !error && <p className="a-muted">Loading...</p>}
      </section>
    </div>
  );
}

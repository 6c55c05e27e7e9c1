// Working a lead: the answers of the leads manager's work
// endpoints (web/leadsmanager/work.go) and the calls that make them. The
// server decides who may do what: staff add notes and change the status,
// admins also assign; the browser only hides what it would refuse.
import { api } from "../api";
import type * as wire from "../api.gen";

/** Attribution is where a lead's visit came from, as the server admitted
 * it ("" where nothing was recorded). Admins see it in the lead's details. */
export type Attribution = wire.Attribution;

/** TimelineEntry is one entry of a lead's timeline (Go: leads.Event):
 * created (actor: the lead's source), notified (channel: email, webhook,
 * push, sms or ack; to "escalated" for an escalation's), status (from, to),
 * note (body), assigned (from and to are account ids, body the name),
 * escalated. userId is "" for the server itself. */
export type TimelineEntry = wire.TimelineEntry;

/** Assignee is an account a lead may be given to (admins only). */
export type Assignee = wire.Assignee;

/** LeadWork is GET /api/admin/leads/{id}/work. */
export type LeadWork = wire.LeadWork;

/** EventAnswer answers a note or an assignment. */
export type EventAnswer = wire.EventAnswer;

/** ResponseWindow is the first response figures of the leads created in
 * the last `days` days: median and 90th percentile (nearest rank) of the
 * answered leads' times from creation to a person's first status change
 * or note. */
export type ResponseWindow = wire.ResponseWindow;
/** ResponseFigures is GET /api/admin/leads/response-times. */
export type ResponseFigures = wire.ResponseFigures;

const leadPath = (id: string) => `/api/admin/leads/${encodeURIComponent(id)}`;

export const loadWork = (id: string) => api<LeadWork>(leadPath(id) + "/work");
export const addNote = (id: string, body: string) => api<EventAnswer>(leadPath(id) + "/notes", { method: "POST", body: JSON.stringify({ body }) });
export const assignLead = (id: string, userId: string) => api<EventAnswer>(leadPath(id) + "/assignee", { method: "PUT", body: JSON.stringify({ userId }) });
export const responseTimes = () => api<ResponseFigures>("/api/admin/leads/response-times");

/** LinkList is a lead's private links (GET /api/admin/leads/{id}/links):
 * the homeowner's, one per message sent, and insurers', with opens. */
export type LinkList = wire.LinkList;
export type LinkItem = wire.LinkItem;
export type IssuedLink = wire.IssuedLink;
export const loadLinks = (id: string) => api<LinkList>(leadPath(id) + "/links");
export const issueAdjusterLink = (id: string, days: number) => api<IssuedLink>(leadPath(id) + "/links", { method: "POST", body: JSON.stringify({ days }) });
export const revokeLink = (id: string, link: string) => api<LinkItem>(leadPath(id) + "/links/" + encodeURIComponent(link), { method: "DELETE" });
export const revokeHomeLinks = (id: string) => api<LinkList>(leadPath(id) + "/home-links", { method: "DELETE" });
export const recordProgress = (id: string, step: string) => api<wire.ProgressAnswer>(leadPath(id) + "/progress", { method: "POST", body: JSON.stringify({ step }) });

/** NOTE_MAX is the longest note (leads.MaxNoteLen); the server checks it. */
export const NOTE_MAX = 2000;

/** CHANNELS name a notification's channel on the timeline. */
export const CHANNELS: Record<string, string> = {
  email: "Email to the owner", webhook: "Webhook to the CRM", push: "Push to a phone", sms: "Text message", ack: "Acknowledgement email to the homeowner",
};

/** duration says a span of seconds as a person reads it: "45 s", "12 min",
 * "1 h 20 min", "2 d 3 h". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60), rm = m % 60;
  if (h < 24) return rm ? `${h} h ${rm} min` : `${h} h`;
  const d = Math.floor(h / 24), rh = h % 24;
  return rh ? `${d} d ${rh} h` : `${d} d`;
}

/** PersonExport is GET /api/admin/leads/person (Go: leads.PersonExport):
 * everything held about one person, for a privacy request: every lead
 * with their email or phone, in full, each with its timeline. */
export type PersonExport = wire.PersonExport;

/** exportPerson asks for one person's data (admins, leads.erase); the
 * server audits it without the person's contact data. */
export function exportPerson(email: string, phone: string) {
  const p = new URLSearchParams();
  if (email.trim()) p.set("email", email.trim());
  if (phone.trim()) p.set("phone", phone.trim());
  return api<PersonExport>("/api/admin/leads/person?" + p.toString());
}

/** deleteLead erases a lead (admins, leads.erase): its details, notes,
 * timeline and notifications; the audit log keeps who and when. */
export const deleteLead = (id: string) => api<wire.ErasedAnswer>(leadPath(id), { method: "DELETE" });

/** Waiting is one lead nobody has answered yet (Go: leads.Waiting): the
 * masked row, as the list masks it, and how long it has waited when the
 * server answered. street_address and notes are there only for the staff
 * member the lead is assigned to. */
export type Waiting = wire.Waiting;

/** TodayFigures are today's lead figures in the business's time zone
 * (Go: leadsmanager.TodayFigures), computed on the server. */
export type TodayFigures = wire.TodayFigures;

/** AttentionAnswer is GET /api/admin/leads/attention: the leads that need
 * someone (new, not answered), emergencies first then the longest
 * waiting; how many in all; today's figures; the server's time. */
export type AttentionAnswer = wire.AttentionAnswer;

/** Contact is a lead's full phone and email as an admin's Call or Text
 * reveals them (Go: leads.Contact); each reveal is in the audit log. */
export type Contact = wire.Contact;

export const loadAttention = () => api<AttentionAnswer>("/api/admin/leads/attention");
export const revealContact = (id: string) => api<Contact>(leadPath(id) + "/reveal", { method: "POST", body: "{}" });

/** newLeadCount is how many leads have the status new (the sidebar's
 * badge): the list's own count, one masked row read. */
export const newLeadCount = () => api<wire.LeadList>("/api/admin/leads?status=new&perPage=1").then((r) => r.total);

/** LEADS_CHANGED is the window event a screen sends after it changed a
 * lead (a status, a note, an assignment, a deletion): every block that
 * shows lead data reloads on it (useLeadsChanged). */
const LEADS_CHANGED = "admin:leads-changed";
export function leadsChanged() { if (typeof window !== "undefined") window.dispatchEvent(new Event(LEADS_CHANGED)); }

/** onLeadsChanged calls reload whenever this tab changed a lead; it
 * returns the function that stops. */
export function onLeadsChanged(reload: () => void): () => void {
  window.addEventListener(LEADS_CHANGED, reload);
  return () => window.removeEventListener(LEADS_CHANGED, reload);
}

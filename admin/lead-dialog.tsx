// A lead as the Secure Leads Manager shows it: the row's pieces (phone,
// email, status, emergency) and the lead's dialog, ordered for the call
// back: who, the number (Call / Text), emergency, damage, address, the
// homeowner's message; then status and assignee, the team's notes and
// the timeline; then the record's metadata. What each role receives is
// decided on the server: staff get masked rows, and the staff member a
// lead is assigned to also its address and message.
import { useId, useRef, type ReactNode } from "react";
import { Icon } from "../components/icons";
import type * as wire from "./api.gen";
import { CallText } from "./lead-call";
import { LeadFilesPanel } from "./lead-files";
import { LeadSource, LeadWorkPanel } from "./lead-work";
import { LeadSharePanel } from "./lead-share";
import { fmtDateTime } from "./listing";
import { Button, useModal } from "./ui";

/** LEAD_STATUSES are spec 4's lead states, in order. */
export const LEAD_STATUSES = ["new", "contacted", "scheduled", "completed", "cancelled"] as const;

/** Lead is a row of GET /api/admin/leads: masked (phone_masked,
 * email_masked, no contact details; street_address and notes only for the
 * staff member the lead is assigned to) or, for admins with full=1, every
 * column of spec 3 plus what the server builds for display (leads.Full):
 * phone is E.164 when it could be normalised, phoneTyped as typed,
 * phoneDisplay formatted, phoneHref and emailHref the tel: and
 * mailto: links ("" when there is no safe link). The fields spec 3 names
 * keep the spec's names (first_name, phone_masked); the rest are
 * camelCase (ADR 059). */
export type Lead = Pick<wire.LeadMasked, Shared> & Partial<Omit<wire.LeadMasked, Shared>> & Partial<Omit<wire.LeadFull, Shared>>;

/** Shared are the fields a masked and a full row both have (street_address
 * and notes optional, as a masked row has them); the rest of either is
 * optional in Lead. Admins' full row adds where the visit came
 * from, who works the lead, when a person first answered it and when it
 * was escalated. */
type Shared = keyof wire.LeadMasked & keyof wire.LeadFull;

export const fullName = (l: Pick<Lead, "first_name" | "last_name">) => `${l.first_name} ${l.last_name}`.trim();

/** Phone is the lead's number: a tel: link when the server made one (an
 * admin's full data, a number it could normalise), else the number as
 * the server sent it, masked for staff. */
export function Phone({ lead }: { lead: Lead }) {
  const text = lead.phoneDisplay || lead.phone || lead.phone_masked || "";
  if (!text) return <span className="a-muted">None</span>;
  if (lead.phoneHref) return <a className="al-tel" href={lead.phoneHref}><Icon name="phone" size={16} />{text}</a>;
  return <span className="al-nowrap">{text}</span>;
}

/** breakable lets a long address wrap where a reader expects it: after
 * the @ and before each dot, not in the middle of a word. */
function breakable(text: string): ReactNode {
  const parts: string[] = [];
  let cur = "";
  for (const ch of text) {
    if (ch === "." && cur) { parts.push(cur); cur = ""; }
    cur += ch;
    if (ch === "@") { parts.push(cur); cur = ""; }
  }
  if (cur) parts.push(cur);
  return parts.map((part, i) => (i ? <span key={i}><wbr />{part}</span> : part));
}

/** Email is the lead's address: a mailto: link when the server made one,
 * else as sent (masked for staff). */
export function Email({ lead }: { lead: Lead }) {
  const text = lead.email ?? lead.email_masked ?? "";
  if (!text) return <span className="a-muted">None</span>;
  if (lead.emailHref) return <a className="al-mail" href={lead.emailHref}><Icon name="mail" size={16} /><span>{breakable(text)}</span></a>;
  return <span className="al-mail">{breakable(text)}</span>;
}

/** EmergencyBadge marks an emergency in words and colour, never colour alone. */
export const EmergencyBadge = () => <span className="al-emergency">Emergency</span>;

/** StatusSelect is a lead's status selector (spec 4), for staff and
 * admins alike. */
export function StatusSelect({ lead, updating, onChange }: { lead: Lead; updating: boolean; onChange: (l: Lead, s: string) => void }) {
  return (
    <select className="a-input al-status" aria-label={`Status for ${fullName(lead)}`} value={lead.status} disabled={updating}
      onChange={(e) => onChange(lead, e.target.value)}>
      {!(LEAD_STATUSES as readonly string[]).includes(lead.status) && <option value={lead.status}>{lead.status}</option>}
      {LEAD_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
    </select>
  );
}

/** MESSAGE_LABEL names the homeowner's own words from the estimate form,
 * never to be taken for the team's notes (lead-work.tsx). */
export const MESSAGE_LABEL = "Message from the homeowner";

const missing = <span className="a-muted">Not provided</span>;
const text = (v: string | undefined | null) => (v ? v : missing);
const when = (v: string) => <time dateTime={v}>{fmtDateTime(v)}</time>;

/** Fact is one labelled value of the dialog. */
function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return <div className={wide ? "al-detail__wide" : undefined}><dt>{label}</dt><dd>{children}</dd></div>;
}

/** LeadDialog is a lead's dialog: a modal with focus kept inside; Escape,
 * the Close button or a click outside closes it, and focus goes back to
 * what opened it. full: the admin's unmasked lead (every column of spec
 * 3); else the masked row staff receive. */
export function LeadDialog({ lead, full, canAssign, workKey, updating, onStatus, onErase, onClose }: {
  lead: Lead; full: boolean; canAssign: boolean; workKey: number; updating: boolean; onStatus: (l: Lead, s: string) => void;
  /** onErase asks to delete the lead (admins: a privacy request) */
  onErase?: (l: Lead) => void; onClose: () => void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useModal(panel, true, onClose, false); // the list puts focus back on the row
  const name = fullName(lead);
  const typed = full && lead.phoneTyped && lead.phoneTyped !== (lead.phoneDisplay || lead.phone) ? lead.phoneTyped : "";
  const visit = full || lead.assignedToMe;
  return (
    <div className="a-dialog">
      <div className="a-dialog__overlay" aria-hidden="true" onClick={onClose} />
      <div ref={panel} className="a-dialog__panel al-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="al-dialog__head">
          <h2 id={titleId} className="a-dialog__title">{full ? "Lead details" : "Lead"}: {name}</h2>
          <button type="button" className="toast__close" aria-label="Close lead details" onClick={onClose}>×</button>
        </div>
        {full && lead.phoneHref && <div className="al-dialog__call"><CallText id={lead.id} name={name} phoneHref={lead.phoneHref} /></div>}
        <dl className="al-detail">
          {full && <><Fact label="First name">{text(lead.first_name)}</Fact><Fact label="Last name">{text(lead.last_name)}</Fact></>}
          <Fact label="Phone">{(lead.phone || lead.phone_masked) ? <><Phone lead={lead} />{typed && <span className="al-typed a-muted">Typed: {typed}</span>}</> : missing}</Fact>
          <Fact label="Email">{(lead.email || lead.email_masked) ? <Email lead={lead} /> : missing}</Fact>
          <Fact label="Emergency">{lead.is_emergency ? <EmergencyBadge /> : "No"}</Fact>
          <Fact label="Damage type">{text(lead.damage_type)}</Fact>
          {visit && <Fact label="Street address">{text(lead.street_address)}</Fact>}
          <Fact label="City">{text(lead.city)}</Fact>
          <Fact label="ZIP code">{text(lead.zip_code)}</Fact>
          {visit ? <Fact label={MESSAGE_LABEL} wide>{lead.notes ? <span className="al-message">{lead.notes}</span> : missing}</Fact>
            : <Fact label={MESSAGE_LABEL} wide><span className="a-muted">Shown to admins and to the crew member this lead is assigned to, with the street address.</span></Fact>}
          {full && <><Fact label="Insurance carrier">{text(lead.insurance_carrier)}</Fact><Fact label="Claim number">{text(lead.claim_number)}</Fact></>}
        </dl>
        <LeadWorkPanel leadId={lead.id} canAssign={canAssign} createdAt={lead.created_at} reloadKey={workKey}
          status={<StatusSelect lead={lead} updating={updating} onChange={onStatus} />} />
        <LeadSharePanel leadId={lead.id} />
        {visit && <LeadFilesPanel leadId={lead.id} reloadKey={workKey} />}
        <section className="al-work__section" aria-labelledby={titleId + "meta"}>
          <h3 id={titleId + "meta"} className="al-work__title">Record</h3>
          <dl className="al-detail">
            <Fact label="ID" wide><span className="al-mono">{lead.id}</span></Fact>
            <Fact label="Created">{when(lead.created_at)}</Fact>
            <Fact label="Updated">{when(lead.updated_at)}</Fact>
            <Fact label="Source">{text(lead.source)}</Fact>
          </dl>
        </section>
        {full && <LeadSource attribution={lead.attribution} />}
        <div className="a-dialog__actions">
          {onErase && <Button variant="danger" onClick={() => onErase(lead)}>Delete lead…</Button>}
          <Button variant="outline" onClick={onClose}>Close</Button>
        </div>
      </div>
    </div>
  );
}

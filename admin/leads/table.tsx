// The leads of one page: a table from 768 px, below it a card per lead
// laid out for a phone (name, when, contact, then the actions together).
import { useId } from "react";
import { DataTable, type Column } from "../data-table";
import { CallText } from "../lead-call";
import { Email, EmergencyBadge, fullName, Phone, StatusSelect, type Lead } from "../lead-dialog";
import { Button } from "../ui";
import { rowId } from "./link";

/** Received is a lead's date on one line and its time on the next, each
 * kept whole, so the column stays narrow without a date broken in four. */
function Received({ iso }: { iso: string }) {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return <>{iso}</>;
  return (
    <time dateTime={iso} className="al-when">
      <span>{d.toLocaleDateString("en-US", { dateStyle: "medium" })}</span>{" "}
      <span>{d.toLocaleTimeString("en-US", { timeStyle: "short" })}</span>
    </time>
  );
}

/** DetailsButton opens a lead's dialog: the admin's full details, or for
 * staff the masked row with its notes and timeline. */
function DetailsButton({ lead, admin, opening, onOpen }: { lead: Lead; admin: boolean; opening: boolean; onOpen: (l: Lead, el: HTMLElement) => void }) {
  const label = admin ? "Details" : "Notes";
  return (
    <Button variant="outline" className="a-btn a-btn--outline al-btn-sm" disabled={opening}
      aria-label={`${admin ? "Details" : "Notes and timeline"} for ${fullName(lead)}`} onClick={(e) => onOpen(lead, e.currentTarget)}>{opening ? "Loading..." : label}</Button>
  );
}

export interface LeadTableProps {
  leads: Lead[];
  isAdmin: boolean;
  /** target is the lead a link names: its row is marked. */
  target: string | null;
  updating: string | null;
  opening: string | null;
  onStatus: (lead: Lead, status: string) => void;
  onOpen: (lead: Lead, el: HTMLElement) => void;
}

export function LeadTable({ leads, isAdmin, target, updating, opening, onStatus, onOpen }: LeadTableProps) {
  const ids = useId();
  const call = (l: Lead, compact?: boolean) => <CallText id={l.id} name={fullName(l)} phoneHref={l.phoneHref} textOnly={!!l.phoneHref} compact={compact} />;
  const status = (l: Lead) => <StatusSelect lead={l} updating={updating === l.id} onChange={onStatus} />;
  const details = (l: Lead) => <DetailsButton lead={l} admin={isAdmin} opening={opening === l.id} onOpen={onOpen} />;
  const columns: Column<Lead>[] = [
    { key: "date", label: "Date", cell: (l) => <Received iso={l.created_at} /> },
    {
      key: "name", label: "Name", rowHeader: true, className: "al-name", cell: (l) => <>
        <span className="al-name__text">{fullName(l)}</span>
        {l.id === target && <span className="al-target__note">Linked lead</span>}
        {/* Shown when the table is too narrow for the City, Damage type
            and Emergency columns (styles/admin-leads.css). */}
        <span className="al-folded">
          {l.is_emergency && <EmergencyBadge />}
          <span className="al-folded__meta">{[l.city, l.damage_type].filter(Boolean).join(" · ")}</span>
        </span>
      </>,
    },
    { key: "phone", label: "Phone", cell: (l) => <><Phone lead={l} />{isAdmin && <div className="al-row-call">{call(l, true)}</div>}</> },
    { key: "email", label: "Email", cell: (l) => <Email lead={l} /> },
    { key: "city", label: "City", className: "al-fold", cell: (l) => l.city },
    { key: "damage", label: "Damage type", className: "al-fold", cell: (l) => l.damage_type },
    { key: "status", label: "Status", cell: status },
    { key: "emergency", label: "Emergency", className: "al-fold", cell: (l) => (l.is_emergency ? <EmergencyBadge /> : <span className="a-muted">No</span>) },
    { key: "actions", label: "Actions", hideLabel: true, cell: details },
  ];
  const card = (l: Lead) => <>
    {l.id === target && <p className="al-target__note">Linked lead</p>}
    <article aria-labelledby={ids + "n" + l.id}>
      {l.is_emergency && <p className="al-card__flag"><EmergencyBadge /></p>}
      <h3 className="al-card__name" id={ids + "n" + l.id}>{fullName(l)}</h3>
      <p className="al-card__when"><Received iso={l.created_at} /></p>
      <dl className="al-card__facts">
        <div><dt>Phone</dt><dd><Phone lead={l} /></dd></div>
        <div><dt>Email</dt><dd><Email lead={l} /></dd></div>
        {l.street_address ? <div><dt>Address</dt><dd>{[l.street_address, l.city, l.zip_code].filter(Boolean).join(", ")}</dd></div>
          : <div><dt>City</dt><dd>{l.city || <span className="a-muted">None</span>}</dd></div>}
        <div><dt>Damage type</dt><dd>{l.damage_type}</dd></div>
        {l.notes && !isAdmin && <div><dt>Message</dt><dd className="al-card__message">{l.notes}</dd></div>}
      </dl>
      <div className="al-card__actions">
        {isAdmin && call(l)}
        {status(l)}
        {details(l)}
      </div>
    </article>
  </>;
  return (
    <DataTable rows={leads} columns={columns} rowKey={(l) => l.id} caption="Leads, newest first" className="al-table al-leads"
      card={card} cardsClassName="al-cards" rowProps={(l, as) => ({
        id: rowId(l.id),
        tabIndex: l.id === target ? -1 : undefined,
        "aria-current": l.id === target ? "true" : undefined,
        className: (as === "card"
          ? ["al-card", l.is_emergency ? "al-card--emergency" : "", l.id === target ? "al-target" : ""]
          : [l.is_emergency ? "al-row--emergency" : "", l.id === target ? "al-target" : ""]).filter(Boolean).join(" ") || undefined,
      })} />
  );
}

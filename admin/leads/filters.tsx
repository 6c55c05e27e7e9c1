// The Secure Leads Manager's exports, search and filters, folded behind
// one control: closed on a phone, so the first lead is in the first
// screen; open on a laptop.
import { useId, useState } from "react";
import { DAMAGE_TYPES } from "../../components/estimate-form";
import { Icon } from "../../components/icons";
import { LEAD_STATUSES } from "../lead-dialog";
import { Button } from "../ui";
import { useLeadExport } from "./export";
import { PER_PAGE, type LeadQuery } from "./query";

export function LeadFilters({ lq, isAdmin, narrow, onFull }: { lq: LeadQuery; isAdmin: boolean; narrow: boolean; onFull: () => void }) {
  const ids = useId();
  const [fold, setFold] = useState<boolean | null>(null);
  const foldOpen = fold ?? !narrow;
  const { exporting, exportCsv } = useLeadExport(lq.filters);
  const { filters, badRange } = lq;
  const searchHint = isAdmin ? "Searches name, city, phone and email." : "Searches name and city.";
  return (
    <>
      <button type="button" className="a-btn a-btn--outline al-fold-toggle" aria-expanded={foldOpen} aria-controls={ids + "fold"} onClick={() => setFold(!foldOpen)}>
        <Icon name="search" size={16} /><span>Search and filters</span>
        {lq.active > 0 && <span className="al-fold-toggle__count">{lq.active} active</span>}
        <Icon name="chevron-right" size={16} />
      </button>
      <div id={ids + "fold"} className="al-fold" hidden={!foldOpen}>
        {isAdmin && (
          <div className="a-row al-exports">
            <Button onClick={() => exportCsv(false)} disabled={!!exporting} aria-busy={exporting === "plain"}>{exporting === "plain" ? "Exporting..." : "Export CSV"}</Button>
            <Button variant="outline" onClick={() => exportCsv(true)} disabled={!!exporting} aria-busy={exporting === "source"}
              title="The columns of Export CSV, then each lead's landing page, referrer, campaign, click ids, device and visit">{exporting === "source" ? "Exporting..." : "Export with source"}</Button>
          </div>
        )}
        <form className="al-filters" role="search" aria-label="Filter leads" onSubmit={(e) => { e.preventDefault(); lq.applySearch(); }}>
          <div className="a-field al-filters__search">
            <label htmlFor={ids + "q"} className="a-label">Search</label>
            <input id={ids + "q"} type="search" className="a-input" value={lq.q} onChange={(e) => lq.setQ(e.target.value)} maxLength={200} aria-describedby={ids + "qh"} />
            <p id={ids + "qh"} className="a-muted al-hint">{searchHint}</p>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "st"} className="a-label">Status</label>
            <select id={ids + "st"} className="a-input" value={filters.status} onChange={(e) => lq.setFilter("status", e.target.value)}>
              <option value="">All statuses</option>
              {LEAD_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "dt"} className="a-label">Damage type</label>
            <select id={ids + "dt"} className="a-input" value={filters.damageType} onChange={(e) => lq.setFilter("damageType", e.target.value)}>
              <option value="">All damage types</option>
              {DAMAGE_TYPES.map((d) => <option key={d} value={d}>{d}</option>)}
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "em"} className="a-label">Emergency</label>
            <select id={ids + "em"} className="a-input" value={filters.emergency} onChange={(e) => lq.setFilter("emergency", e.target.value)}>
              <option value="">All leads</option>
              <option value="true">Emergencies only</option>
              <option value="false">Not emergencies</option>
            </select>
          </div>
          <div className="a-field">
            <label htmlFor={ids + "from"} className="a-label">From</label>
            <input id={ids + "from"} type="date" className="a-input" value={filters.from} max={filters.to || undefined} onChange={(e) => lq.setFilter("from", e.target.value)}
              aria-invalid={badRange} aria-describedby={badRange ? ids + "range" : undefined} />
          </div>
          <div className="a-field">
            <label htmlFor={ids + "to"} className="a-label">To</label>
            <input id={ids + "to"} type="date" className="a-input" value={filters.to} min={filters.from || undefined} onChange={(e) => lq.setFilter("to", e.target.value)}
              aria-invalid={badRange} aria-describedby={badRange ? ids + "range" : undefined} />
          </div>
          <div className="al-filters__actions">
            <Button variant="ghost" onClick={lq.clear}>Clear filters</Button>
          </div>
          {badRange && <p id={ids + "range"} className="a-error al-filters__wide" role="alert">The From date is after the To date.</p>}
        </form>
        <div className="al-bar">
          {isAdmin && (
            <label className="a-switch al-full">
              <input type="checkbox" checked={lq.full} onChange={(e) => { onFull(); lq.setFull(e.target.checked); }} aria-describedby={ids + "fullh"} />
              <span><strong>Show full data</strong><span id={ids + "fullh"} className="a-muted al-hint"> Unmasked phone and email; recorded in the audit log.</span></span>
            </label>
          )}
          <div className="al-perpage">
            <label htmlFor={ids + "pp"} className="a-label">Rows per page</label>
            <select id={ids + "pp"} className="a-input" value={lq.perPage} onChange={(e) => lq.setPerPage(Number(e.target.value))}>
              {PER_PAGE.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </div>
        </div>
      </div>
    </>
  );
}

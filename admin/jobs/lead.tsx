import { useId } from "react";
import { api } from "../api";
import type * as wire from "../api.gen";
import { useResource } from "../use-resource";

const leadName = (l: wire.LeadMasked | wire.LeadFull) => {
  const name = [l.first_name, l.last_name].filter(Boolean).join(" ") || "A homeowner";
  const when = new Date(l.created_at).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
  return `${name}${l.city ? ", " + l.city : ""} (${when})`;
};

/** LeadPicker links the job to the lead it came from: the 50 latest
 * leads, as the session may see them. Only a session that may read
 * leads gets it (the server ignores the field for the others). */
export function LeadPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const id = useId();
  const { data, error } = useResource(() => api<wire.LeadList>("/api/admin/leads?perPage=50"), []);
  const leads = (data?.leads || []) as (wire.LeadMasked | wire.LeadFull)[];
  const known = value === "" || leads.some((l) => l.id === value);
  return (
    <div className="a-field">
      <label className="a-label" htmlFor={id}>The lead it came from (optional)</label>
      <select id={id} className="a-input" value={value} disabled={!data} onChange={(e) => onChange(e.target.value)}>
        <option value="">None</option>
        {!known && <option value={value}>The lead linked before</option>}
        {leads.map((l) => <option key={l.id} value={l.id}>{leadName(l)}</option>)}
      </select>
      {error && <p className="a-muted aj-hint">The leads could not be loaded; the link stays as it is.</p>}
    </div>
  );
}

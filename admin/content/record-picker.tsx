// Pickers for the fields that name other records (ADR 046): a
// city's nearby cities and services, a county's major cities, a post's
// category. The server stores the chosen records' ids, so a rename never
// breaks them; the owner chooses by name, and sees each chosen record's
// name, county and whether it is on the site. The chosen records are read
// by id; more are found by a search on the server as the owner types
// (record-search.tsx), or, when the server says there are only a few,
// all listed at once (ADR 069, amended 2026-11-29).
import "../../styles/admin-refs.css";
import { useRef } from "react";
import type { ContentProblem, Field } from "../data/content";
import { useResource } from "../use-resource";
import { a, findChoices, isID, PAGE, type Choice } from "./choices";
import { fieldId, Notes } from "./fields";
import { ChoiceList, ChosenList, useChosen } from "./record-chosen";
import { RecordSearch } from "./record-search";

export type RefField = Extract<Field, { type: "refs" }>;

/** RecordPicker chooses records by name. self is the record's own id (a
 * city is never its own neighbour); county limits the choices to one
 * county's cities (a county's major cities are its own). */
export function RecordPicker({ field, value, onChange, problems, self, county }: {
  field: RefField; value: any; onChange: (v: any) => void; problems: ContentProblem[]; self?: string; county?: string;
}) {
  const id = fieldId(field.key);
  const root = useRef<HTMLFieldSetElement>(null);
  // The first page, without a search: its total says whether a search box is needed.
  const first = useResource(() => findChoices(field.target, { q: "", county, exclude: self }), [field.target, county, self]);
  const list: string[] = field.single ? (typeof value === "string" && value ? [value] : []) : Array.isArray(value) ? value.filter((x) => typeof x === "string") : [];
  const [nameOf, chosenError] = useChosen(field.target, list);
  const hintId = field.hint ? id + "-hint" : undefined;
  const notesId = problems.length ? id + "-notes" : undefined;
  const describedBy = [hintId, notesId].filter(Boolean).join(" ") || undefined;
  const error = first.error ? "The choices could not be loaded. Reload the page to try again." : chosenError;
  const few = first.data && first.data.total <= PAGE ? first.data.choices : null;
  const missing = (v: string) => (isID(v) ? `${a(field.one).replace(/^a/, "A")} that no longer exists` : v);

  if (field.single && (few || !first.data)) {
    const v = list[0] || "";
    const known = few?.some((c) => c.id === v);
    return (
      <div className="a-field ac-field ac-field--short">
        <label className="a-label" htmlFor={id}>{field.label}</label>
        {field.hint && <p id={hintId} className="ac-hint">{field.hint}</p>}
        <select id={id} className="a-input" aria-describedby={describedBy} aria-invalid={problems.some((p) => p.hard) || undefined}
          value={v} onChange={(e) => onChange(e.target.value)} disabled={!few}>
          <option value="">{few ? `Choose ${a(field.one)}` : "Loading..."}</option>
          {few?.map((c) => <option key={c.id} value={c.id}>{c.name + (c.live ? "" : ", not on the site yet")}</option>)}
          {v && few && !known && <option value={v}>{nameOf(v)?.name || missing(v)}</option>}
        </select>
        {error && <p className="a-error">{error}</p>}
        <Notes id={id + "-notes"} label={field.label} problems={problems} />
      </div>
    );
  }

  const chosen = new Set(list);
  const focus = (selector: string) => requestAnimationFrame(() => root.current?.querySelector<HTMLElement>(selector)?.focus());
  const toggle = (c: Choice) => {
    if (field.single) onChange(c.id);
    else onChange(chosen.has(c.id) ? list.filter((v) => v !== c.id) : [...list, c.id]);
  };
  const remove = (i: number) => {
    onChange(field.single ? "" : list.filter((_, j) => j !== i));
    focus(list.length > 1 ? `[data-remove="${Math.min(i, list.length - 2)}"]` : "[data-choose]");
  };
  const move = (i: number, d: number) => {
    const j = i + d;
    const next = [...list];
    [next[i], next[j]] = [next[j], next[i]];
    onChange(next);
    focus(`[data-move="${j}${d < 0 ? "up" : "down"}"]`);
  };
  // A value that is not an id (an older screen's slug) is shown as written.
  const names = (v: string) => nameOf(v) || (nameOf(v) === null || !isID(v) ? { id: v, name: missing(v), group: "", live: true } : undefined);
  return (
    <fieldset ref={root} className="ac-group ac-refs" id={id} aria-describedby={describedBy}>
      <legend className="a-label">{field.label}</legend>
      {field.hint && <p id={hintId} className="ac-hint">{field.hint}</p>}
      {error && <p className="a-error">{error}</p>}
      <ChosenList list={list} nameOf={names} withGroup={!county} ordered={!field.single} onMove={move} onRemove={remove} />
      {few ? (
        <fieldset className="ac-refs__few">
          <legend className="ac-sublabel">{field.single ? `Choose ${a(field.one)}` : "Tick to add, untick to remove"}</legend>
          <ChoiceList choices={few} chosen={chosen} single={field.single} name={id + "-choice"} withGroup={!county} onToggle={toggle} />
        </fieldset>
      ) : first.data ? (
        <RecordSearch field={field} id={id} search={{ county, exclude: self }} total={first.data.total} chosen={chosen} withGroup={!county} onToggle={toggle} />
      ) : <p className="a-muted" role="status">Loading...</p>}
      <Notes id={id + "-notes"} label={field.label} problems={problems} />
    </fieldset>
  );
}

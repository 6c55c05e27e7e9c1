// Pickers for the fields that name other records (ADR 046): a
// city's nearby cities and services, a county's major cities, a post's
// category. The server stores the chosen records' ids, so a rename never
// breaks them; the owner chooses by name, and sees each chosen record's
// name, county and whether it is on the site.
import "../../styles/admin-refs.css";
import { useRef } from "react";
import { contentApi, type ContentProblem, type Field, type ItemView, type Kind } from "../data/content";
import { Button } from "../ui";
import { useResource } from "../use-resource";
import { fieldId, Notes } from "./fields";

export type RefField = Extract<Field, { type: "refs" }>;

/** Choice is a record that can be chosen. */
export interface Choice {
  id: string;
  name: string;
  /** group is where the record belongs (a city's county), "" for none. */
  group: string;
  /** live: the record is on the site. */
  live: boolean;
}

/** cache keeps a kind's records for a short while: the editor's pickers
 * share one request, and a record added meanwhile shows soon after. */
const cache = new Map<string, { at: number; list: Promise<Choice[]> }>();
const KEEP_MS = 30_000;

const titleCase = (s: string) => s.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");

/** choicesOf loads the records of a kind that can be chosen. */
export function choicesOf(kind: Kind): Promise<Choice[]> {
  const hit = cache.get(kind);
  let p = hit && Date.now() - hit.at < KEEP_MS ? hit.list : undefined;
  if (!p) {
    const counties = kind === "city" ? contentApi.all("county").then((l) => l.items) : Promise.resolve([] as ItemView[]);
    p = Promise.all([contentApi.all(kind), counties]).then(([l, cs]) => {
      const countyName = new Map(cs.map((c) => [c.slug, c.title]));
      return l.items.map((it) => {
        const county = kind === "city" ? it.slug.split("/")[0] : "";
        return { id: it.id, name: it.title, group: county ? countyName.get(county) || titleCase(county) : "", live: it.liveSlug !== "" };
      });
    });
    p.catch(() => cache.delete(kind));
    cache.set(kind, { at: Date.now(), list: p });
  }
  return p;
}

/** forgetChoices drops the loaded records (after a change of them). */
export const forgetChoices = () => cache.clear();

/** useChoices is the records of a kind, null while they load, and the
 * failure to load them as the owner reads it. */
function useChoices(kind: Kind): [Choice[] | null, string] {
  const r = useResource(() => choicesOf(kind), [kind]);
  return [r.data, r.error ? "The list could not be loaded. Reload the page to try again." : ""];
}

const label = (c: Choice, withGroup: boolean) => (withGroup && c.group ? `${c.name} (${c.group})` : c.name) + (c.live ? "" : ", not on the site yet");

/** RecordPicker chooses records by name. self is the record's own id (a
 * city is never its own neighbour); group limits the choices to one group
 * (a county's major cities are its own). */
export function RecordPicker({ field, value, onChange, problems, self, group }: {
  field: RefField; value: any; onChange: (v: any) => void; problems: ContentProblem[]; self?: string; group?: string;
}) {
  const id = fieldId(field.key);
  const [choices, error] = useChoices(field.target);
  const root = useRef<HTMLFieldSetElement>(null);
  const hintId = field.hint ? id + "-hint" : undefined;
  const notesId = problems.length ? id + "-notes" : undefined;
  const describedBy = [hintId, notesId].filter(Boolean).join(" ") || undefined;
  const byId = new Map((choices || []).map((c) => [c.id, c]));
  const options = (choices || []).filter((c) => c.id !== self && (!group || c.group === group));
  const grouped = !group && options.some((c) => c.group);

  if (field.single) {
    const v = typeof value === "string" ? value : "";
    const cur = byId.get(v);
    return (
      <div className="a-field ac-field ac-field--short">
        <label className="a-label" htmlFor={id}>{field.label}</label>
        {field.hint && <p id={hintId} className="ac-hint">{field.hint}</p>}
        <select id={id} className="a-input" aria-describedby={describedBy} aria-invalid={problems.some((p) => p.hard) || undefined}
          value={v} onChange={(e) => onChange(e.target.value)} disabled={!choices}>
          <option value="">{choices ? `Choose a ${field.one}` : "Loading..."}</option>
          {options.map((c) => <option key={c.id} value={c.id}>{label(c, false)}</option>)}
          {v && !cur && choices && <option value={v}>A {field.one} that no longer exists</option>}
        </select>
        {error && <p className="a-error">{error}</p>}
        <Notes id={id + "-notes"} label={field.label} problems={problems} />
      </div>
    );
  }

  const list: string[] = Array.isArray(value) ? value.filter((x) => typeof x === "string") : [];
  const chosen = new Set(list);
  const addable = options.filter((c) => !chosen.has(c.id));
  const groups = grouped ? Array.from(new Set(addable.map((c) => c.group))) : [""];
  const focus = (selector: string) => requestAnimationFrame(() => root.current?.querySelector<HTMLElement>(selector)?.focus());
  const remove = (i: number) => {
    onChange(list.filter((_, j) => j !== i));
    focus(list.length > 1 ? `[data-remove="${Math.min(i, list.length - 2)}"]` : `#${id}-add`);
  };
  const move = (i: number, d: number) => {
    const j = i + d;
    if (j < 0 || j >= list.length) return;
    const next = [...list];
    [next[i], next[j]] = [next[j], next[i]];
    onChange(next);
    focus(`[data-move="${j}${d < 0 ? "up" : "down"}"]`);
  };
  return (
    <fieldset ref={root} className="ac-group ac-refs" id={id} aria-describedby={describedBy}>
      <legend className="a-label">{field.label}</legend>
      {field.hint && <p id={hintId} className="ac-hint">{field.hint}</p>}
      {error && <p className="a-error">{error}</p>}
      {list.length === 0 && <p className="a-muted">None chosen.</p>}
      {list.length > 0 && (
        <ol className="ac-refs__list">
          {list.map((v, i) => {
            const c = byId.get(v);
            const name = c ? c.name : choices ? (/^[0-9a-f-]{36}$/.test(v) ? `A ${field.one} that no longer exists` : v) : "...";
            return (
              <li key={v + i} className="ac-refs__item">
                <span className="ac-refs__name">
                  {name}
                  {c?.group && grouped && <span className="a-muted"> {c.group}</span>}
                  {c && !c.live && <span className="ac-refs__off"> not on the site yet</span>}
                </span>
                <span className="ac-refs__actions">
                  <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-move={`${i}up`} disabled={i === 0} onClick={() => move(i, -1)}
                    aria-label={`Move ${name} up`}>↑</Button>
                  <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-move={`${i}down`} disabled={i === list.length - 1} onClick={() => move(i, 1)}
                    aria-label={`Move ${name} down`}>↓</Button>
                  <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-remove={i} onClick={() => remove(i)}>
                    Remove<span className="visually-hidden"> {name}</span>
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <label className="ac-sublabel" htmlFor={`${id}-add`}>Add {field.one === "city" ? "a city" : `a ${field.one}`}</label>
      <select id={`${id}-add`} className="a-input" value="" disabled={!choices || addable.length === 0}
        onChange={(e) => { if (e.target.value) onChange([...list, e.target.value]); }}>
        <option value="">{!choices ? "Loading..." : addable.length ? `Choose a ${field.one} to add` : `Every ${field.one} is chosen`}</option>
        {groups.map((g) => g
          ? <optgroup key={g} label={g}>{addable.filter((c) => c.group === g).map((c) => <option key={c.id} value={c.id}>{label(c, false)}</option>)}</optgroup>
          : addable.map((c) => <option key={c.id} value={c.id}>{label(c, false)}</option>))}
      </select>
      <Notes id={id + "-notes"} label={field.label} problems={problems} />
    </fieldset>
  );
}

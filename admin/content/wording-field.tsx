// One text of the site's wording (ADR 045). The record keeps inserts as
// {key}; the owner reads and types them as their names in square brackets
// ("[Office city]"), adds one from a list at the cursor, and sees under
// the field what each insert in the text stands for and where it comes
// from. A response time or a figure is a plain value, with the places it
// appears listed under it: it is written once and every text inserts it.
import { useRef } from "react";
import type { ContentProblem, Field } from "../data/content";
import { INSERTS, SOURCES, shown, stored } from "../data/words";
import { fieldId, Notes } from "./fields";

type WordingFieldDef = Extract<Field, { type: "wording" }>;

const GROUPS: [string, string][] = [["settings", "Business facts"], ["times", "Response times"], ["figures", "Trust figures"]];

export function WordingField({ field, value, onChange, problems }: {
  field: WordingFieldDef; value: unknown; onChange: (v: string) => void; problems: ContentProblem[];
}) {
  const id = fieldId(field.key);
  const box = useRef<HTMLTextAreaElement>(null);
  const raw = typeof value === "string" ? value : "";
  const text = shown(raw);
  const hard = problems.some((p) => p.hard);
  const hintId = id + "-hint";
  const notesId = problems.length ? id + "-notes" : undefined;
  const described = [hintId, notesId].filter(Boolean).join(" ");

  if (field.values) {
    return (
      <div className="a-field ac-field ac-wording">
        <label className="a-label" htmlFor={id}>{field.label}</label>
        <input id={id} type="text" className="a-input ac-wording__value" value={raw} aria-describedby={described} aria-invalid={hard || undefined}
          onChange={(e) => onChange(e.target.value)} />
        <div id={hintId} className="ac-hint ac-wording__where">
          {field.where && field.where.length > 0 ? (
            <>
              <p className="ac-wording__where-title">Shown on:</p>
              <ul>{field.where.map((w) => <li key={w}>{w}</li>)}</ul>
            </>
          ) : <p>Inserted wherever a text names it.</p>}
        </div>
        <Notes id={id + "-notes"} label={field.label} problems={problems} />
      </div>
    );
  }

  const insert = (key: string) => {
    const ins = INSERTS.find((i) => i.key === key);
    const el = box.current;
    if (!ins) return;
    const chip = `[${ins.label}]`;
    const at = el ? el.selectionStart ?? text.length : text.length;
    const end = el ? el.selectionEnd ?? at : at;
    const next = text.slice(0, at) + chip + text.slice(end);
    onChange(stored(next));
    requestAnimationFrame(() => {
      if (!box.current) return;
      box.current.focus();
      box.current.setSelectionRange(at + chip.length, at + chip.length);
    });
  };
  const used = INSERTS.filter((i) => raw.includes(`{${i.key}}`));

  return (
    <div className="a-field ac-field ac-wording">
      <label className="a-label" htmlFor={id}>{field.label}</label>
      <p id={hintId} className="ac-hint">
        {field.hint ? field.hint + " " : ""}{field.where?.length ? `Shown on: ${field.where.join("; ")}. ` : ""}Words in [square brackets] are filled in when the page is shown.
      </p>
      <textarea ref={box} id={id} className="a-input" rows={text.length > 90 ? 4 : 2} value={text} aria-describedby={described} aria-invalid={hard || undefined}
        onChange={(e) => onChange(stored(e.target.value))} />
      <div className="ac-wording__tools">
        <label className="visually-hidden" htmlFor={id + "-insert"}>Add to {field.label.toLowerCase()}</label>
        <select id={id + "-insert"} className="a-input ac-wording__add" value="" onChange={(e) => { insert(e.target.value); e.target.value = ""; }}>
          <option value="">Add a name, number or time...</option>
          {GROUPS.map(([from, title]) => (
            <optgroup key={from} label={title}>
              {INSERTS.filter((i) => i.from === from).map((i) => <option key={i.key} value={i.key}>{i.label}</option>)}
            </optgroup>
          ))}
        </select>
      </div>
      {used.length > 0 && (
        <ul className="ac-wording__chips" aria-label={`Filled in for ${field.label.toLowerCase()}`}>
          {used.map((i) => (
            <li key={i.key} className="ac-chip"><strong>{i.label}</strong> <span>{SOURCES[i.from]}</span></li>
          ))}
        </ul>
      )}
      <Notes id={id + "-notes"} label={field.label} problems={problems} />
    </div>
  );
}

// The controls of the content editor's forms, one per field type of
// admin/data/content.ts. Each shows the server's problems beside it: hard
// ones as errors that say publishing is blocked, the others as warnings.
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { ContentProblem, Field } from "../data/content";
import { Button } from "../ui";

/** fieldId is the id of a field's control (the problems summary links to it). */
export const fieldId = (key: string) => "f-" + (key === "" ? "root" : key.replace(/[^A-Za-z0-9]+/g, "-"));

/** problemText puts a problem's message after its field's label:
 * "SEO title is empty.", "Category: "x" is not a category." */
export function problemText(label: string, p: ContentProblem): string {
  const m = p.message.trim();
  const joined = /^(is|has|needs|names|does|must|should)\b/.test(m) ? `${label} ${m}` : label ? `${label}: ${m}` : m;
  return /[.!?]$/.test(joined) ? joined : joined + ".";
}

/** Notes are the problems beside one field. */
export function Notes({ id, label, problems }: { id: string; label: string; problems: ContentProblem[] }) {
  if (!problems.length) return null;
  return (
    <ul id={id} className="ac-notes">
      {problems.map((p, i) => (
        <li key={i} className={p.hard ? "ac-note ac-note--error" : "ac-note ac-note--warn"}>
          {p.hard
            ? <><strong>Error:</strong> {problemText(label, p)} Publishing is blocked until this is fixed.</>
            : <><strong>Warning:</strong> {problemText(label, p)}</>}
        </li>
      ))}
    </ul>
  );
}

/** describedBy joins the ids that describe a control. */
const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

/** runes counts characters as the server does (code points). */
export const runes = (s: string) => Array.from(s || "").length;

interface Props {
  field: Field;
  value: any;
  onChange: (v: any) => void;
  problems: ContentProblem[];
  /** data is the whole record (a slug's address shows its county). */
  data: any;
  /** derived is what the server uses while the field is empty (an SEO
   * title made from the title); shown as such, never sent. */
  derived?: string;
}

/** FieldControl renders one field of the simple types (the body and the
 * photo have their own components). */
export function FieldControl({ field, value, onChange, problems, data, derived }: Props) {
  const id = fieldId(field.key);
  const hintId = field.hint ? id + "-hint" : undefined;
  const notesId = problems.length ? id + "-notes" : undefined;
  const hard = problems.some((p) => p.hard);
  const hint = field.hint && <p id={hintId} className="ac-hint">{field.hint}</p>;
  const notes = <Notes id={id + "-notes"} label={field.label} problems={problems} />;
  const common = { id, "aria-describedby": describedBy(hintId, notesId), "aria-invalid": hard || undefined };

  switch (field.type) {
    case "text":
    case "textarea": {
      const text = typeof value === "string" ? value : "";
      const countId = field.count ? id + "-count" : undefined;
      const props = { ...common, "aria-describedby": describedBy(hintId, countId, notesId), className: "a-input", value: text,
        onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value) };
      const usesDerived = text.trim() === "" && !!derived;
      const n = runes(usesDerived ? derived! : text);
      return (
        <div className="a-field ac-field">
          <label className="a-label" htmlFor={id}>{field.label}</label>
          {hint}
          {field.type === "text" ? <input type="text" {...props} placeholder={derived || undefined} /> : <textarea rows={field.count ? 3 : 4} {...props} placeholder={derived || undefined} />}
          {usesDerived && <p className="ac-derived" id={id + "-derived"}><span className="ac-derived__tag">Made for you</span> Search engines get: “{derived}”. Type here to write your own.</p>}
          {field.count && (
            <p id={countId} className={"ac-count" + (n > field.count ? " ac-count--over" : "")}>{n}/{field.count} characters{usesDerived ? " (made for you)" : ""}</p>
          )}
          {notes}
        </div>
      );
    }
    case "number":
      return (
        <div className="a-field ac-field ac-field--short">
          <label className="a-label" htmlFor={id}>{field.label}</label>
          {hint}
          <input type="number" inputMode="numeric" min={0} step={1} className="a-input" {...common}
            value={typeof value === "number" ? String(value) : ""}
            onChange={(e) => onChange(e.target.value === "" ? 0 : Math.trunc(Number(e.target.value)) || 0)} />
          {notes}
        </div>
      );
    case "coordinate":
      return (
        <div className="a-field ac-field ac-field--short">
          <label className="a-label" htmlFor={id}>{field.label}</label>
          {hint}
          <CoordinateInput common={common} value={typeof value === "number" ? value : 0} onChange={onChange} />
          {notes}
        </div>
      );
    case "date":
      return (
        <div className="a-field ac-field ac-field--short">
          <label className="a-label" htmlFor={id}>{field.label}</label>
          {hint}
          <input type="date" className="a-input" {...common} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value)} />
          {notes}
        </div>
      );
    case "checkbox":
      return (
        <div className="a-field ac-field">
          <label className="a-switch">
            <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            <span>{field.label}</span>
          </label>
          {hint}
          {notes}
        </div>
      );
    case "readonly":
      return (
        <div className="a-field ac-field">
          <p className="a-label" id={id}>{field.label}</p>
          <p className="ac-readonly" aria-describedby={describedBy(hintId, notesId)}>{String(value ?? "")}</p>
          {hint}
          {notes}
        </div>
      );
    case "slug": {
      const prefix = field.prefix(data);
      const addrId = id + "-address";
      return (
        <div className="a-field ac-field">
          <label className="a-label" htmlFor={id}>{field.label}</label>
          {hint}
          <input type="text" className="a-input ac-mono" {...common} aria-describedby={describedBy(hintId, addrId, notesId)} spellCheck={false} autoCapitalize="off"
            value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value)} />
          <p id={addrId} className="ac-count">Address: <span className="ac-mono">{prefix}{typeof value === "string" ? value : ""}</span></p>
          {notes}
        </div>
      );
    }
    case "lines": {
      const lines: string[] = Array.isArray(value) ? value : [];
      return (
        <div className="a-field ac-field">
          <label className="a-label" htmlFor={id}>{field.label}</label>
          {hint}
          <textarea className="a-input" {...common} rows={Math.min(Math.max(lines.length + 1, 3), 10)} value={lines.join("\n")}
            onChange={(e) => onChange(e.target.value.split("\n"))} />
          {notes}
        </div>
      );
    }
    case "rows":
      return <RowsControl field={field} value={value} onChange={onChange} problems={problems} hint={hint} hintId={hintId} />;
    case "pairs":
      return <PairsControl field={field} value={value} onChange={onChange} problems={problems} hint={hint} hintId={hintId} />;
  }
  return null;
}

/** focusLater moves the focus once React has drawn the change. */
function focusLater(root: HTMLElement | null, selector: string, fallback: string) {
  requestAnimationFrame(() => (root?.querySelector<HTMLElement>(selector) || root?.querySelector<HTMLElement>(fallback))?.focus());
}

/** RowsControl is a list of longer texts (a service's paragraphs): one
 * text area per item, with Remove and Add. */
function RowsControl({ field, value, onChange, problems, hint, hintId }: {
  field: Extract<Field, { type: "rows" }>; value: any; onChange: (v: any) => void; problems: ContentProblem[]; hint: ReactNode; hintId?: string;
}) {
  const list: string[] = Array.isArray(value) ? value : [];
  const id = fieldId(field.key);
  const root = useRef<HTMLFieldSetElement>(null);
  const set = (i: number, v: string) => onChange(list.map((x, j) => (j === i ? v : x)));
  const remove = (i: number) => {
    onChange(list.filter((_, j) => j !== i));
    focusLater(root.current, `[data-remove="${Math.min(i, list.length - 2)}"]`, "[data-add]");
  };
  const add = () => {
    onChange([...list, ""]);
    focusLater(root.current, `#${id}-${list.length}`, "[data-add]");
  };
  return (
    <fieldset ref={root} className="ac-group" id={id} aria-describedby={describedBy(hintId, problems.length ? id + "-notes" : undefined)}>
      <legend className="a-label">{field.label}</legend>
      {hint}
      {list.length === 0 && <p className="a-muted">None yet.</p>}
      {list.map((text, i) => (
        <div className="ac-row" key={i}>
          <label className="ac-sublabel" htmlFor={`${id}-${i}`}>{field.item} {i + 1}</label>
          <textarea id={`${id}-${i}`} className="a-input" rows={3} value={text} onChange={(e) => set(i, e.target.value)} />
          <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-remove={i} onClick={() => remove(i)}>
            Remove<span className="visually-hidden"> {field.item.toLowerCase()} {i + 1}</span>
          </Button>
        </div>
      ))}
      <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-add onClick={add}>Add {field.item.toLowerCase()}</Button>
      <Notes id={id + "-notes"} label={field.label} problems={problems} />
    </fieldset>
  );
}

/** PairsControl is a repeatable group of two texts: FAQs (question and
 * answer), reasons (title and text). */
function PairsControl({ field, value, onChange, problems, hint, hintId }: {
  field: Extract<Field, { type: "pairs" }>; value: any; onChange: (v: any) => void; problems: ContentProblem[]; hint: ReactNode; hintId?: string;
}) {
  const list: Record<string, string>[] = Array.isArray(value) ? value : [];
  const id = fieldId(field.key);
  const root = useRef<HTMLFieldSetElement>(null);
  const [ak, al] = field.a;
  const [bk, bl] = field.b;
  const set = (i: number, k: string, v: string) => onChange(list.map((x, j) => (j === i ? { ...x, [k]: v } : x)));
  const remove = (i: number) => {
    onChange(list.filter((_, j) => j !== i));
    focusLater(root.current, `[data-remove="${Math.min(i, list.length - 2)}"]`, "[data-add]");
  };
  const add = () => {
    onChange([...list, { [ak]: "", [bk]: "" }]);
    focusLater(root.current, `#${id}-${list.length}-${ak}`, "[data-add]");
  };
  const move = (i: number, d: number) => {
    const j = i + d;
    if (j < 0 || j >= list.length) return;
    const next = [...list];
    [next[i], next[j]] = [next[j], next[i]];
    onChange(next);
    focusLater(root.current, `[data-move="${j}${d < 0 ? "up" : "down"}"]`, `[data-remove="${j}"]`);
  };
  return (
    <fieldset ref={root} className="ac-group" id={id} aria-describedby={describedBy(hintId, problems.length ? id + "-notes" : undefined)}>
      <legend className="a-label">{field.label}</legend>
      {hint}
      {list.length === 0 && <p className="a-muted">None yet.</p>}
      <ol className="ac-pairs">
        {list.map((x, i) => (
          <li key={i} className="ac-pair">
            <fieldset>
              <legend className="ac-sublabel">{field.item} {i + 1}</legend>
              <label className="ac-sublabel" htmlFor={`${id}-${i}-${ak}`}>{al}</label>
              <input id={`${id}-${i}-${ak}`} className="a-input" value={x?.[ak] ?? ""} onChange={(e) => set(i, ak, e.target.value)} />
              <label className="ac-sublabel" htmlFor={`${id}-${i}-${bk}`}>{bl}</label>
              <textarea id={`${id}-${i}-${bk}`} className="a-input" rows={3} value={x?.[bk] ?? ""} onChange={(e) => set(i, bk, e.target.value)} />
              <div className="a-row">
                <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-move={`${i}up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  Move up<span className="visually-hidden"> {field.item} {i + 1}</span>
                </Button>
                <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-move={`${i}down`} disabled={i === list.length - 1} onClick={() => move(i, 1)}>
                  Move down<span className="visually-hidden"> {field.item} {i + 1}</span>
                </Button>
                <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-remove={i} onClick={() => remove(i)}>
                  Remove<span className="visually-hidden"> {field.item} {i + 1}</span>
                </Button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-add onClick={add}>Add {field.item === "FAQ" ? "FAQ" : field.item.toLowerCase()}</Button>
      <Notes id={id + "-notes"} label={field.label} problems={problems} />
    </fieldset>
  );
}

/** CoordinateInput keeps what is typed ("33.", "-") while it is not yet a
 * number, and hands the record a number once it is; a phone's minus sign
 * (U+2212) or a dash is read as a minus. */
function CoordinateInput({ common, value, onChange }: { common: Record<string, any>; value: number; onChange: (v: any) => void }) {
  const [text, setText] = useState(value === 0 ? "" : String(value));
  useEffect(() => {
    if (Number(text.replace(/[\u2212\u2013]/g, "-")) !== value) setText(value === 0 ? "" : String(value));
    // Only a value from outside (another record, a reload) replaces the text.
  }, [value]);
  const n = Number(text.trim().replace(/[\u2212\u2013]/g, "-"));
  const bad = text.trim() !== "" && !Number.isFinite(n);
  return (
    <>
      <input type="text" inputMode="decimal" autoComplete="off" spellCheck={false} className="a-input" {...common}
        aria-invalid={bad || undefined} value={text}
        onChange={(e) => {
          setText(e.target.value);
          const t = e.target.value.trim().replace(/[\u2212\u2013]/g, "-");
          const v = Number(t);
          if (t === "") onChange(0);
          else if (Number.isFinite(v)) onChange(v);
        }} />
      {bad && <p className="ac-count ac-count--over">Type a number, such as 33.9526.</p>}
    </>
  );
}

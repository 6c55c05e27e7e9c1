// The server's problems with the content editor's form: which field
// each is about, which show (once a field is left or a save is tried,
// and not while its field is being changed), and the summary above the
// form that links to each field.
import { useMemo, useState } from "react";
import { getAt, type ContentProblem, type Field } from "../data/content";
import { fieldId, problemText } from "./fields";

/** ownerOf finds the field a problem is about: its own, or the group it
 * belongs to ("image.alt" is the photo's, "faqs.2" the FAQs'). */
function ownerOf(fields: Field[], p: ContentProblem): Field | undefined {
  return fields.find((f) => f.key === p.field) ||
    fields.filter((f) => f.key !== "" && p.field.startsWith(f.key + ".")).sort((a, b) => b.key.length - a.key.length)[0] ||
    (p.field === "" ? fields.find((f) => f.key === "") : undefined);
}

/** anchorOf is the id a problem's link goes to. */
function anchorOf(f: Field | undefined, p: ContentProblem): string | undefined {
  if (!f) return undefined;
  if (f.type === "image") return p.field === f.key + ".alt" ? fieldId(f.key) + "-alt" : p.field === f.key + ".caption" ? fieldId(f.key) + "-caption" : fieldId(f.key);
  return fieldId(f.key);
}

/** mergeProblems puts a refused change's problems (ps) before the ones
 * known, dropping the known warnings they repeat and the known errors
 * (the refusal names the errors that still hold). */
export function mergeProblems(cur: ContentProblem[], ps: ContentProblem[]): ContentProblem[] {
  return [...ps, ...cur.filter((p) => !p.hard && !ps.some((q) => q.field === p.field && q.message === p.message))];
}

/** useShownProblems says which of problems show. Problems show once a
 * field is left (touch) or a save is tried, never on a form nobody has
 * typed in yet (a new post opened with "5 problems"). A problem is about
 * the text as last saved (base, the saved draft as JSON): once its field
 * is changed it may be fixed, so it waits for the next save. */
export function useShownProblems(fields: Field[], problems: ContentProblem[], data: any, base: string, tried: boolean) {
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const savedDraft = useMemo(() => { try { return base ? JSON.parse(base) : null; } catch { return null; } }, [base]);
  const changed = (f: Field | undefined) => !!f && JSON.stringify(getAt(data, f.key) ?? null) !== JSON.stringify(getAt(savedDraft, f.key) ?? null);
  const shown = problems.filter((p) => {
    const f = ownerOf(fields, p);
    if (changed(f)) return false;
    return tried || (!!f && touched.has(f.key));
  });
  return {
    shown,
    /** forField is the shown problems of one field. */
    forField: (f: Field) => shown.filter((p) => ownerOf(fields, p) === f),
    /** touch is the blur handler of a field's wrapper: leaving the field
     * (not moving inside it) shows its problems. */
    touch: (key: string) => (e: React.FocusEvent<HTMLDivElement>) => {
      if (e.currentTarget.contains(e.relatedTarget as Node | null) || touched.has(key)) return;
      setTouched((t) => new Set(t).add(key));
    },
  };
}

/** ProblemSummary lists the shown problems above the form, each a link
 * to its field; dirty says they are about the text as last saved. */
export function ProblemSummary({ shown, fields, dirty }: { shown: ContentProblem[]; fields: Field[]; dirty: boolean }) {
  if (shown.length === 0) return null;
  const hard = shown.filter((p) => p.hard);
  return (
    <section className={"ac-summary" + (hard.length ? "" : " ac-summary--warn")} aria-labelledby="ac-summary-title">
      <h2 id="ac-summary-title" className="ac-summary__title">
        {dirty ? "As last saved: " : ""}{hard.length > 0 ? `${hard.length} ${hard.length === 1 ? "problem blocks" : "problems block"} publishing` : "Publishing is not blocked"}
        {shown.length > hard.length && `, ${shown.length - hard.length} ${shown.length - hard.length === 1 ? "warning" : "warnings"}`}
      </h2>
      <ul>
        {shown.map((p, i) => {
          const f = ownerOf(fields, p);
          const text = problemText(f?.label || p.field, p);
          const anchor = anchorOf(f, p);
          return (
            <li key={i} className={p.hard ? "ac-note--error" : "ac-note--warn"}>
              <strong>{p.hard ? "Error:" : "Warning:"}</strong>{" "}
              {anchor ? <a href={"#" + anchor} onClick={(e) => { e.preventDefault(); const el = document.getElementById(anchor); el?.scrollIntoView({ block: "center" }); el?.focus(); }}>{text}</a> : text}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

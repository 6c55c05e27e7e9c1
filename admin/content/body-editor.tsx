// The article body's editor (issue 22): a text area with the spec's line
// rules, a small toolbar that puts a line's prefix at the cursor, and the
// live preview drawn by the very component the public pages use.
import { useDeferredValue, useLayoutEffect, useRef, type KeyboardEvent } from "react";
import { ArticleBody } from "../../components/article-body";
import { Icon } from "../../components/icons";
import type { ContentProblem } from "../data/content";
import { fieldId, Notes } from "./fields";

/** LineKind is what a toolbar button makes of the cursor's line. */
export type LineKind = "h2" | "h3" | "bold" | "li" | "warn";

const TOOLS: { kind: LineKind; label: string; show: string | null }[] = [
  { kind: "h2", label: "Heading", show: "##" },
  { kind: "h3", label: "Subheading", show: "###" },
  { kind: "bold", label: "Bold line", show: "**" },
  { kind: "li", label: "List item", show: "-" },
  { kind: "warn", label: "Red warning line", show: null },
];

const PREFIX = /^(###\s|##\s|-\s|❌\uFE0F?\s?)/;
const BOLD = /^\*\*(.*)\*\*$/;

/** kindOf says which rule a line follows. */
function kindOf(line: string): LineKind | null {
  if (line.startsWith("### ")) return "h3";
  if (line.startsWith("## ")) return "h2";
  if (line.startsWith("- ")) return "li";
  if (line.startsWith("❌")) return "warn";
  if (BOLD.test(line) && line.length >= 4) return "bold";
  return null;
}

/** plain is a line without its rule's marks. */
function plain(line: string): string {
  const m = line.match(BOLD);
  if (m && line.length >= 4) return m[1];
  return line.replace(PREFIX, "");
}

/** applyLine gives the lines the selection touches the rule kind (or
 * takes it away when they all have it already), and says where the
 * selection goes. */
export function applyLine(text: string, start: number, end: number, kind: LineKind): { text: string; start: number; end: number } {
  const from = text.lastIndexOf("\n", start - 1) + 1;
  let to = text.indexOf("\n", Math.max(end - (end > start && text[end - 1] === "\n" ? 1 : 0), start));
  if (to < 0) to = text.length;
  const lines = text.slice(from, to).split("\n");
  const off = lines.every((l) => l.trim() === "" || kindOf(l) === kind) && lines.some((l) => l.trim() !== "");
  const out = lines.map((l) => {
    if (l.trim() === "" && lines.length > 1) return l;
    const bare = plain(l);
    if (off) return bare;
    switch (kind) {
      case "h2": return "## " + bare;
      case "h3": return "### " + bare;
      case "li": return "- " + bare;
      case "warn": return "❌ " + bare;
      case "bold": return "**" + bare + "**";
    }
  }).join("\n");
  const next = text.slice(0, from) + out + text.slice(to);
  if (lines.length > 1) return { text: next, start: from, end: from + out.length };
  // One empty line made bold: the cursor goes between the marks.
  const caret = kind === "bold" && !off && plain(lines[0]) === "" ? from + 2 : from + out.length;
  return { text: next, start: caret, end: caret };
}

export function BodyEditor({ fieldKey, label, hint, value, onChange, problems }: {
  fieldKey: string; label: string; hint?: string; value: string; onChange: (v: string) => void; problems: ContentProblem[];
}) {
  const id = fieldId(fieldKey);
  const area = useRef<HTMLTextAreaElement>(null);
  const tools = useRef<(HTMLButtonElement | null)[]>([]);
  const pending = useRef<{ start: number; end: number } | null>(null);
  const preview = useDeferredValue(value);
  const hard = problems.some((p) => p.hard);

  useLayoutEffect(() => {
    const p = pending.current;
    if (!p || !area.current) return;
    pending.current = null;
    area.current.focus();
    area.current.setSelectionRange(p.start, p.end);
  }, [value]);

  const apply = (kind: LineKind) => {
    const el = area.current;
    if (!el) return;
    const r = applyLine(value, el.selectionStart, el.selectionEnd, kind);
    pending.current = { start: r.start, end: r.end };
    onChange(r.text);
  };

  // The toolbar is one tab stop; arrow keys, Home and End move in it.
  const onToolKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    let j = -1;
    if (e.key === "ArrowRight") j = (i + 1) % TOOLS.length;
    if (e.key === "ArrowLeft") j = (i - 1 + TOOLS.length) % TOOLS.length;
    if (e.key === "Home") j = 0;
    if (e.key === "End") j = TOOLS.length - 1;
    if (j < 0) return;
    e.preventDefault();
    tools.current.forEach((b, k) => b?.setAttribute("tabindex", k === j ? "0" : "-1"));
    tools.current[j]?.focus();
  };

  return (
    <div className="a-field ac-field ac-body">
      <label className="a-label" htmlFor={id}>{label}</label>
      {hint && <p id={id + "-hint"} className="ac-hint">{hint}</p>}
      <div className="ac-body__grid">
        <div className="ac-body__edit">
          <div role="toolbar" aria-label={`${label} formatting`} aria-controls={id} className="ac-toolbar">
            {TOOLS.map((t, i) => (
              <button key={t.kind} ref={(el) => { tools.current[i] = el; }} type="button" className="ac-tool" tabIndex={i === 0 ? 0 : -1}
                title={`${t.label}: applies to the line the cursor is on`} onClick={() => apply(t.kind)} onKeyDown={(e) => onToolKey(e, i)}>
                <span aria-hidden="true" className={"ac-tool__mark" + (t.show ? "" : " ac-tool__mark--warn")}>{t.show ?? <Icon name="x" size={14} />}</span> {t.label}
              </button>
            ))}
          </div>
          <textarea ref={area} id={id} className="a-input ac-body__text" rows={20} value={value} spellCheck
            aria-describedby={[hint ? id + "-hint" : "", problems.length ? id + "-notes" : ""].filter(Boolean).join(" ") || undefined}
            aria-invalid={hard || undefined} onChange={(e) => onChange(e.target.value)} />
          <Notes id={id + "-notes"} label={label} problems={problems} />
        </div>
        <section className="ac-body__preview" aria-label={`${label} preview`}>
          <p className="ac-body__previewhead" aria-hidden="true">Preview</p>
          <div className="ac-prose">
            {preview.trim() ? <ArticleBody body={preview} /> : <p className="a-muted">The body is empty.</p>}
          </div>
        </section>
      </div>
    </div>
  );
}

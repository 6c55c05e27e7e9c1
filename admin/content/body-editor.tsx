// The article body's editor: a text area with the body
// syntax (docs/content-api.md "Body syntax"), a small toolbar whose
// buttons write valid marks (a line's prefix at the cursor, bold around
// the selection or the line, a link), and the live preview drawn by the
// very component the public pages use.
import { useDeferredValue, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { ArticleBody, safeHref } from "../../components/article-body";
import { Icon } from "../../components/icons";
import type { ContentProblem } from "../data/content";
import { fieldId, Notes } from "./fields";

/** LineKind is what a toolbar button makes of the cursor's line. */
export type LineKind = "h2" | "h3" | "li" | "warn";

type Tool = { kind: LineKind | "bold" | "link"; label: string; show: string | null; title: string };
const TOOLS: Tool[] = [
  { kind: "h2", label: "Heading", show: "##", title: "Heading: applies to the line the cursor is on" },
  { kind: "h3", label: "Subheading", show: "###", title: "Subheading: applies to the line the cursor is on" },
  { kind: "bold", label: "Bold", show: "**", title: "Bold: applies to the selected words, or to the cursor's line when nothing is selected" },
  { kind: "link", label: "Link", show: "[ ]", title: "Link: makes the selected words a link" },
  { kind: "li", label: "List item", show: "-", title: "List item: applies to the line the cursor is on" },
  { kind: "warn", label: "Red warning line", show: null, title: "Red warning line: applies to the line the cursor is on" },
];

const PREFIX = /^(###\s|##\s|-\s|❌\uFE0F?\s?)/;

/** kindOf says which line rule a line follows. */
function kindOf(line: string): LineKind | null {
  if (line.startsWith("### ")) return "h3";
  if (line.startsWith("## ")) return "h2";
  if (line.startsWith("- ")) return "li";
  if (line.startsWith("❌")) return "warn";
  return null;
}

/** Edit is a change of the text and where the selection goes after it;
 * note (when there is no change) says why. */
export type Edit = { text: string; start: number; end: number; note?: string };

/** applyLine gives the lines the selection touches the rule kind (or
 * takes it away when they all have it already), keeping their inline
 * marks, and says where the selection goes. */
export function applyLine(text: string, start: number, end: number, kind: LineKind): Edit {
  const from = text.lastIndexOf("\n", start - 1) + 1;
  let to = text.indexOf("\n", Math.max(end - (end > start && text[end - 1] === "\n" ? 1 : 0), start));
  if (to < 0) to = text.length;
  const lines = text.slice(from, to).split("\n");
  const off = lines.every((l) => l.trim() === "" || kindOf(l) === kind) && lines.some((l) => l.trim() !== "");
  const out = lines.map((l) => {
    if (l.trim() === "" && lines.length > 1) return l;
    const bare = l.replace(PREFIX, "");
    if (off) return bare;
    switch (kind) {
      case "h2": return "## " + bare;
      case "h3": return "### " + bare;
      case "li": return "- " + bare;
      case "warn": return "❌ " + bare;
    }
  }).join("\n");
  const next = text.slice(0, from) + out + text.slice(to);
  if (lines.length > 1) return { text: next, start: from, end: from + out.length };
  const caret = from + out.length;
  return { text: next, start: caret, end: caret };
}

/** applyBold makes the selected words bold (or plain again when they are
 * bold already); with nothing selected, the text of the cursor's line
 * after its prefix. It never writes an empty pair: on an empty line it
 * changes nothing and says what to do. A selection over several lines
 * makes each line's part bold, so every pair stays on one line. */
export function applyBold(text: string, start: number, end: number): Edit {
  if (start === end) {
    const from = text.lastIndexOf("\n", start - 1) + 1;
    let to = text.indexOf("\n", start);
    if (to < 0) to = text.length;
    const line = text.slice(from, to);
    const prefix = (line.match(PREFIX) || [""])[0];
    const rest = line.slice(prefix.length);
    const m = rest.match(/^(\s*)\*\*(.+)\*\*(\s*)$/);
    let out: string;
    if (m && !m[2].includes("**")) out = prefix + m[1] + m[2] + m[3];
    else if (rest.trim() === "") return { text, start, end, note: "Type the line first, or select words, then press Bold." };
    else {
      const lead = rest.match(/^\s*/)![0], trail = rest.match(/\s*$/)![0];
      out = prefix + lead + "**" + rest.trim() + "**" + trail;
    }
    const next = text.slice(0, from) + out + text.slice(to);
    return { text: next, start: from + out.length, end: from + out.length };
  }
  // Bold already: the marks just outside or just inside the selection go.
  if (text.slice(start - 2, start) === "**" && text.slice(end, end + 2) === "**") {
    const next = text.slice(0, start - 2) + text.slice(start, end) + text.slice(end + 2);
    return { text: next, start: start - 2, end: end - 2 };
  }
  const sel = text.slice(start, end);
  if (sel.length > 4 && sel.startsWith("**") && sel.endsWith("**") && !sel.slice(2, -2).includes("**") && !sel.includes("\n")) {
    const inner = sel.slice(2, -2);
    return { text: text.slice(0, start) + inner + text.slice(end), start, end: start + inner.length };
  }
  // Each line's part, without its edge spaces (a pair never opens or
  // closes on a space), and never across a line's prefix.
  const parts = sel.split("\n").map((part, i) => {
    const lineStart = i === 0 ? text.lastIndexOf("\n", start - 1) + 1 : -1;
    let prefix = "";
    if (i > 0 || lineStart === start) {
      prefix = (part.match(PREFIX) || [""])[0];
      part = part.slice(prefix.length);
    }
    const t = part.trim();
    if (!t) return prefix + part;
    const lead = part.match(/^\s*/)![0], trail = part.match(/\s*$/)![0];
    return prefix + lead + "**" + t.replace(/\*\*/g, "") + "**" + trail;
  });
  const out = parts.join("\n");
  if (out === sel) return { text, start, end, note: "Select some words, then press Bold." };
  return { text: text.slice(0, start) + out + text.slice(end), start, end: start + out.length };
}

/** normalHref completes what an owner types as an address: an email gets
 * mailto:, a host gets https://; it gives "" when the address cannot be a
 * body's link (the server refuses those too). */
export function normalHref(raw: string): string {
  let h = raw.trim();
  if (/^[^\s@/:]+@[^\s@/]+\.[^\s@/]+$/.test(h)) h = "mailto:" + h;
  else if (/^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?$/i.test(h)) h = "https://" + h;
  return safeHref(h) ? h : "";
}

/** linkText is a link's words as the syntax can hold them: one line, no
 * brackets. */
const linkText = (s: string) => s.replace(/[\[\]\n\r]+/g, " ").replace(/\s+/g, " ").trim();

/** insertLink replaces the selection with a link. */
export function insertLink(text: string, start: number, end: number, words: string, href: string): Edit {
  const link = `[${linkText(words)}](${href})`;
  return { text: text.slice(0, start) + link + text.slice(end), start: start + link.length, end: start + link.length };
}

/** splitBold is Enter inside a bold pair: the pair closes before the new
 * line and opens again after it, so a line never loses its partner. */
export function splitBold(text: string, at: number): Edit | null {
  const from = text.lastIndexOf("\n", at - 1) + 1;
  let to = text.indexOf("\n", at);
  if (to < 0) to = text.length;
  const before = text.slice(from, at), after = text.slice(at, to);
  const open = (before.match(/\*\*/g) || []).length % 2 === 1;
  if (!open || !after.includes("**") || before.endsWith("**") || after.startsWith("**")) return null;
  const ins = "**\n**";
  return { text: text.slice(0, at) + ins + text.slice(at), start: at + ins.length, end: at + ins.length };
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

  const [note, setNote] = useState("");
  const [link, setLink] = useState<null | { start: number; end: number; words: string; href: string; error: string }>(null);
  const linkRef = useRef<HTMLInputElement>(null);

  const take = (r: Edit) => {
    setNote(r.note || "");
    if (r.note) { area.current?.focus(); return; }
    pending.current = { start: r.start, end: r.end };
    onChange(r.text);
  };

  const apply = (kind: Tool["kind"]) => {
    const el = area.current;
    if (!el) return;
    const { selectionStart: a, selectionEnd: b } = el;
    if (kind === "link") {
      setNote("");
      setLink({ start: a, end: b, words: value.slice(a, b).split("\n")[0], href: "", error: "" });
      requestAnimationFrame(() => linkRef.current?.focus());
      return;
    }
    take(kind === "bold" ? applyBold(value, a, b) : applyLine(value, a, b, kind));
  };

  const addLink = () => {
    if (!link) return;
    const href = normalHref(link.href);
    if (!linkText(link.words)) { setLink({ ...link, error: "Type the words to show as the link." }); return; }
    if (!href) { setLink({ ...link, error: "Use a web address (https://...), an email address, a phone number (tel:...) or a page of this site (/...)." }); return; }
    setLink(null);
    take(insertLink(value, link.start, link.end, link.words, href));
  };

  const onAreaKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    const el = e.currentTarget;
    if (el.selectionStart !== el.selectionEnd) return;
    const r = splitBold(value, el.selectionStart);
    if (!r) return;
    e.preventDefault();
    take(r);
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
                title={t.title} aria-expanded={t.kind === "link" ? link !== null : undefined} onClick={() => apply(t.kind)} onKeyDown={(e) => onToolKey(e, i)}>
                <span aria-hidden="true" className={"ac-tool__mark" + (t.show ? "" : " ac-tool__mark--warn")}>{t.show ?? <Icon name="x" size={14} />}</span> {t.label}
              </button>
            ))}
          </div>
          <p className="ac-toolnote" role="status">{note}</p>
          {link && (
            <div className="ac-linkform" role="group" aria-label="Add a link">
              <label className="ac-sublabel" htmlFor={id + "-link-words"}>Words to show</label>
              <input id={id + "-link-words"} className="a-input" value={link.words} onChange={(e) => setLink({ ...link, words: e.target.value, error: "" })} />
              <label className="ac-sublabel" htmlFor={id + "-link-href"}>Address</label>
              <input ref={linkRef} id={id + "-link-href"} className="a-input" inputMode="url" autoCapitalize="off" spellCheck={false} placeholder="https://... or /blog/..."
                aria-describedby={link.error ? id + "-link-error" : undefined} aria-invalid={link.error ? true : undefined} value={link.href}
                onChange={(e) => setLink({ ...link, href: e.target.value, error: "" })}
                onKeyDown={(e) => { if (e.key === "Enter") { e.preventDefault(); addLink(); } if (e.key === "Escape") { setLink(null); area.current?.focus(); } }} />
              {link.error && <p id={id + "-link-error"} className="ac-note ac-note--error">{link.error}</p>}
              <div className="a-row">
                <button type="button" className="a-btn a-btn--primary ac-btn-sm" onClick={addLink}>Add link</button>
                <button type="button" className="a-btn a-btn--outline ac-btn-sm" onClick={() => { setLink(null); area.current?.focus(); }}>Cancel</button>
              </div>
            </div>
          )}
          <textarea ref={area} id={id} onKeyDown={onAreaKey} className="a-input ac-body__text" rows={20} value={value} spellCheck
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

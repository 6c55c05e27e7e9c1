import type { ReactNode } from "react";
import { Icon } from "./icons";
import "../styles/blog.css";

/** A Block is one rendered unit of a line-based body (content/SCHEMA.md). */
export type Block =
  | { kind: "h2" | "h3" | "p" | "bold" | "warn"; text: string; id?: string }
  | { kind: "ul"; items: string[] };

/** slugify makes a heading id: lowercase words joined by hyphens. */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "section";
}

const BOLD = /^\*\*(.+)\*\*$/;

/** Inline is one piece of a line: text, bold text, or a link (content/body.go
 * reads the same syntax on the server; docs/content-api.md "Body syntax"). */
export type Inline = { kind: "text" | "bold"; text: string } | { kind: "link"; text: string; href: string; bad: boolean };

// One link: text without brackets, an address without spaces or
// parentheses (the same expression as content/body.go's).
const LINK = /\[([^\[\]\n]+)\]\(([^()\u0000-\u0020]+)\)/g;

/** safeHref says whether a body's link may go to href: http(s), mailto:,
 * tel: or a path of this site; never javascript:, data: or "//host". */
export function safeHref(href: string): boolean {
  if (!href || href.length > 2000) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\<>"'`\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(href)) return false;
  const lower = href.toLowerCase();
  if (lower.startsWith("https://") || lower.startsWith("http://")) {
    const rest = lower.slice(lower.indexOf("//") + 2);
    return rest.length > 0 && !rest.startsWith("/");
  }
  if (lower.startsWith("mailto:")) return href.length > 7 && href.includes("@");
  if (lower.startsWith("tel:")) return href.length > 4 && /^[+0-9\-(). ]*$/.test(href.slice(4));
  return href.startsWith("/") && !href.startsWith("//");
}

/** parseBold splits text at pairs of **: the text between a pair (at least
 * one character) is bold; a ** with no partner stays text. */
function parseBold(s: string, out: Inline[]) {
  const add = (kind: "text" | "bold", text: string) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (kind === "text" && last && last.kind === "text") last.text += text;
    else out.push({ kind, text });
  };
  for (;;) {
    const i = s.indexOf("**");
    if (i < 0) { add("text", s); return; }
    const j = s.indexOf("**", i + 2) - (i + 2);
    if (j <= 0) { add("text", s.slice(0, i + 2)); s = s.slice(i + 2); continue; }
    add("text", s.slice(0, i));
    add("bold", s.slice(i + 2, i + 2 + j));
    s = s.slice(i + 2 + j + 2);
  }
}

/** parseInline reads one line's links (their text is plain) and, between
 * them, its bold pairs. Nothing else is markup: HTML stays text. */
export function parseInline(line: string): Inline[] {
  const out: Inline[] = [];
  let at = 0;
  LINK.lastIndex = 0;
  for (let m = LINK.exec(line); m; m = LINK.exec(line)) {
    parseBold(line.slice(at, m.index), out);
    out.push({ kind: "link", text: m[1], href: m[2], bad: !safeHref(m[2]) });
    at = m.index + m[0].length;
  }
  parseBold(line.slice(at), out);
  return out;
}

/** plainText is what a line reads as, without its inline marks. */
export const plainText = (line: string) => parseInline(line).map((p) => p.text).join("");

/** InlineText draws a line's inline forms; React escapes every text. A
 * link to an address the syntax does not allow is drawn as its text. */
export function InlineText({ text }: { text: string }) {
  const parts = parseInline(text);
  if (parts.length === 1 && parts[0].kind === "text") return <>{parts[0].text}</>;
  return (
    <>
      {parts.map((p, i) => {
        if (p.kind === "bold") return <strong key={i}>{p.text}</strong>;
        if (p.kind === "link" && !p.bad) return <a key={i} href={p.href}>{p.text}</a>;
        return <span key={i}>{p.text}</span>;
      })}
    </>
  );
}

/** parseBody turns a body into blocks, line by line (spec 2.3; the inline
 *  forms inside each line are InlineText's):
 *  '## ' second-level heading, '### ' third-level heading, a line entirely
 *  wrapped in ** a bold paragraph, '- ' list items (consecutive ones form one
 *  list), a line starting with ❌ a red warning line, any other line a
 *  paragraph. A blank line is a break: it ends the current list and
 *  separates blocks; runs of blank lines never produce empty paragraphs. */
export function parseBody(body: string): Block[] {
  const blocks: Block[] = [];
  // Heading ids are unique: a repeat of "base" becomes base-2, base-3...
  // next remembers where each base's count stands, so a body of n
  // repeated headings takes n steps, not n²/2 (a counter only moves past
  // ids that are taken, and each taken id belongs to one base).
  const ids = new Set<string>();
  const next = new Map<string, number>();
  const uniqueId = (text: string) => {
    const base = slugify(plainText(text));
    let id = base;
    if (ids.has(id)) {
      let n = next.get(base) ?? 2;
      while (ids.has(`${base}-${n}`)) n++;
      id = `${base}-${n}`;
      next.set(base, n + 1);
    }
    ids.add(id);
    return id;
  };
  let list: string[] | null = null;
  for (const raw of body.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("- ")) {
      const item = line.slice(2).trim();
      if (!item) continue;
      if (!list) {
        list = [];
        blocks.push({ kind: "ul", items: list });
      }
      list.push(item);
      continue;
    }
    if (line === "-") continue; // an empty list item
    list = null;
    if (line === "") continue;
    if (line.startsWith("### ")) {
      const text = line.slice(4).trim();
      blocks.push({ kind: "h3", text, id: uniqueId(text) });
    } else if (line.startsWith("## ")) {
      const text = line.slice(3).trim();
      blocks.push({ kind: "h2", text, id: uniqueId(text) });
    } else if (BOLD.test(line) && !line.slice(2, -2).includes("**")) {
      blocks.push({ kind: "bold", text: line.replace(BOLD, "$1").trim() });
    } else if (line.startsWith("❌")) {
      blocks.push({ kind: "warn", text: line.replace(/^❌\uFE0F?/, "").trim() });
    } else {
      blocks.push({ kind: "p", text: line });
    }
  }
  return blocks;
}

/** headings lists the second-level headings of a body, for a table of
 * contents; ids match the ones ArticleBody renders. */
export function headings(body: string): { id: string; text: string }[] {
  return parseBody(body).flatMap((b) => (b.kind === "h2" ? [{ id: b.id!, text: plainText(b.text) }] : []));
}

/** ArticleBody renders a line-based body (blog posts and info pages). */
export function ArticleBody({ body }: { body: string }) {
  const out: ReactNode[] = parseBody(body).map((b, i) => {
    switch (b.kind) {
      case "h2":
        return <h2 key={i} id={b.id}><InlineText text={b.text} /></h2>;
      case "h3":
        return <h3 key={i} id={b.id}><InlineText text={b.text} /></h3>;
      case "bold":
        return <p key={i} className="prose__bold"><strong><InlineText text={b.text} /></strong></p>;
      case "warn":
        return (
          <p key={i} className="warn">
            <span className="warn__mark"><Icon name="x" size={14} /></span>
            <span><span className="sr-only">Warning: </span><InlineText text={b.text} /></span>
          </p>
        );
      case "ul":
        return <ul key={i}>{b.items.map((it, j) => <li key={j}><InlineText text={it} /></li>)}</ul>;
      default:
        return <p key={i}><InlineText text={b.text} /></p>;
    }
  });
  return <div className="prose">{out}</div>;
}

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

/** parseBody turns a body into blocks, line by line (spec 2.3):
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
    const base = slugify(text);
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
    } else if (BOLD.test(line)) {
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
  return parseBody(body).flatMap((b) => (b.kind === "h2" ? [{ id: b.id!, text: b.text }] : []));
}

/** ArticleBody renders a line-based body (blog posts and info pages). */
export function ArticleBody({ body, className }: { body: string; className?: string }) {
  const out: ReactNode[] = parseBody(body).map((b, i) => {
    switch (b.kind) {
      case "h2":
        return <h2 key={i} id={b.id}>{b.text}</h2>;
      case "h3":
        return <h3 key={i} id={b.id}>{b.text}</h3>;
      case "bold":
        return <p key={i} className="prose__bold"><strong>{b.text}</strong></p>;
      case "warn":
        return (
          <p key={i} className="warn">
            <span className="warn__mark"><Icon name="x" size={14} /></span>
            <span><span className="sr-only">Warning: </span>{b.text}</span>
          </p>
        );
      case "ul":
        return <ul key={i}>{b.items.map((it, j) => <li key={j}>{it}</li>)}</ul>;
      default:
        return <p key={i}>{b.text}</p>;
    }
  });
  return <div className={className ? "prose " + className : "prose"}>{out}</div>;
}

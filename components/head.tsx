import { createContext, useContext, useEffect, type ReactNode } from "react";

/** HeadTag is one element of <head>. */
export interface HeadTag {
  tag: "title" | "meta" | "link" | "script";
  attrs: Record<string, string>;
  /** text content: the title, or already-escaped JSON-LD */
  text?: string;
}

/** HeadCollector gathers head tags during a server render (React runs no
 * effects there); the server entry turns them into markup for Go. */
export type HeadCollector = HeadTag[][];
export const HeadContext = createContext<HeadCollector | null>(null);

export function HeadProvider({ collector, children }: { collector: HeadCollector | null; children: ReactNode }) {
  return <HeadContext.Provider value={collector}>{children}</HeadContext.Provider>;
}

/** keyOf identifies a tag so a later page's tag replaces an earlier one. */
export function keyOf(t: HeadTag): string {
  switch (t.tag) {
    case "title": return "title";
    case "meta": return "meta:" + (t.attrs.name || t.attrs.property || t.attrs.charset || "");
    case "link": return "link:" + t.attrs.rel + (t.attrs.rel === "canonical" ? "" : ":" + t.attrs.href);
    default: return "script:" + (t.attrs.id || t.text || "").slice(0, 120);
  }
}

/** Head declares head tags. On the server they are collected into the
 * first response's <head>; in the browser they are kept in sync, and the
 * page's JSON-LD is removed when the component unmounts (leaving a page in
 * the admin's client-side navigation). */
export function Head({ tags }: { tags: HeadTag[] }) {
  const collector = useContext(HeadContext);
  if (collector) collector.push(tags);
  const sig = JSON.stringify(tags);
  useEffect(() => {
    const added: Element[] = [];
    for (const t of tags) {
      const key = keyOf(t);
      let el = document.head.querySelector(`[data-head="${CSS.escape(key)}"]`);
      if (!el) {
        el = document.createElement(t.tag);
        el.setAttribute("data-head", key);
        document.head.appendChild(el);
      }
      for (const [k, v] of Object.entries(t.attrs)) if (el.getAttribute(k) !== v) el.setAttribute(k, v);
      if (t.text !== undefined && el.textContent !== t.text) el.textContent = t.text;
      if (t.tag === "script") added.push(el);
    }
    return () => { for (const el of added) el.remove(); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sig]);
  return null;
}

// The expressions are made once: a regular expression literal is a new
// object (several in goja) each time it is evaluated, and esc runs for
// every attribute of every head tag of every render. replace() starts a
// global expression from the beginning whatever its lastIndex.
const SPECIAL = /[&<>"]/, AMP = /&/g, LT = /</g, GT = />/g, QUOT = /"/g, CLOSE = /<\//g;
const esc = (s: string) => (SPECIAL.test(s) ? s.replace(AMP, "&amp;").replace(LT, "&lt;").replace(GT, "&gt;").replace(QUOT, "&quot;") : s);

/** renderHead turns collected tags into markup; a later tag with the same
 * key wins, as it does in the browser. Script text is JSON-LD that was
 * escaped when it was serialised, so it cannot close the element. */
export function renderHead(collected: HeadCollector): string {
  const byKey = new Map<string, HeadTag>();
  for (const group of collected) for (const t of group) byKey.set(keyOf(t), t);
  let out = "";
  for (const [key, t] of byKey) {
    const attrs = Object.entries(t.attrs).map(([k, v]) => ` ${k}="${esc(v)}"`).join("") + ` data-head="${esc(key)}"`;
    if (t.tag === "title") out += `<title${attrs}>${esc(t.text || "")}</title>`;
    else if (t.tag === "script") out += `<script${attrs}>${(t.text || "").replace(CLOSE, "<\\/")}</script>`;
    else out += `<${t.tag}${attrs}>`;
  }
  return out;
}

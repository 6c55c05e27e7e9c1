// Where the owner fixes an SEO finding: the content editor
// opened at the field that fixes it, or, for what no page's text decides,
// what to do in plain words. Shared by SEO Audit and SEO & IndexNow.
import { adminPath } from "./screens";

/** priorityWords says an audit priority in words, with the code beside
 * them ("Fix first (P0)"); other priorities (high, medium...) as they are. */
export function priorityWords(p: string): string {
  switch (p) {
    case "P0": return "Fix first (P0)";
    case "P1": return "Fix next (P1)";
    case "P2": return "When there is time (P2)";
  }
  return p;
}

/** FIELDS name the editor field that fixes each check of the audit. A
 * field of "" opens the page's editor at the page text; "body" is
 * resolved per kind of page by the content screen (editor.tsx). */
const FIELDS: Record<string, { field: string; label: string }> = {
  "Title tag": { field: "seoTitle", label: "Edit the SEO title" },
  "Meta description": { field: "metaDescription", label: "Edit the meta description" },
  "H1 heading": { field: "body", label: "Edit the page text" },
  "H2 headings": { field: "body", label: "Edit the page text" },
  "Content length": { field: "body", label: "Edit the page text" },
  "Internal links": { field: "body", label: "Edit the page text" },
  "Image alt text": { field: "image", label: "Edit the photo's description" },
};

/** PLAIN say what to do for checks no page's text decides. */
const PLAIN: Record<string, string> = {
  "Canonical URL": "The site sets each page's address for search engines by itself; if this fails, tell your web developer.",
  "LocalBusiness structured data": "Built from the business details in System Settings: check the name, address and phone there.",
  "Business phone and address (NAP)": "Shown from the business details in System Settings: check the name, address and phone there.",
  "Viewport": "Part of how the site is built, the same on every page: tell your web developer.",
  "HTTPS": "Your web host serves the site over https and sets the site's https address; ask them to.",
  "Resource hints": "Part of how the site is built, the same on every page: tell your web developer.",
};

/** fixFor says where a finding of check on the page at path is fixed:
 * href to the editor (the content screen finds the record of the page),
 * or words when no page field fixes it. */
export function fixFor(path: string, check: string): { href?: string; label: string } {
  const f = FIELDS[check];
  if (f && path.startsWith("/")) {
    return { href: adminPath(`content?page=${encodeURIComponent(path)}&field=${encodeURIComponent(f.field)}`), label: f.label };
  }
  return { label: PLAIN[check] || "Nothing on this page's text decides this: tell your web developer." };
}

/** FixLink is fixFor as a link (a same-app navigation when navigate is
 * given) or, with plain (where no fix sentence is shown already), the
 * sentence saying what to do. */
export function FixLink({ path, check, navigate, plain }: { path: string; check: string; navigate?: (to: string) => void; plain?: boolean }) {
  const f = fixFor(path, check);
  if (!f.href) return plain ? <span className="a-muted">{f.label}</span> : null;
  const to = f.href.replace(/^\/admin\//, "");
  return (
    <a className="a-link" href={f.href} onClick={(e) => {
      if (!navigate || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(to);
    }}>{f.label}<span className="visually-hidden"> of {path}</span></a>
  );
}

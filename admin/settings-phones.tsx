import { useCallback } from "react";
import { api } from "./api";
import type * as wire from "./api.gen";
import { useResource } from "./use-resource";

/** PhoneUses is GET /api/admin/settings/phone-uses: where each number
 * appears, counted by the server in the pages the site serves (ADR 039). */
export type PhoneUses = wire.PhoneUses;
type KindUse = wire.KindUse;

const digits = (s: string) => {
  const d = s.replace(/\D/g, "");
  return d.length === 11 && d[0] === "1" ? d.slice(1) : d;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** usePhoneUses loads where the numbers appear; reload after a save. */
export function usePhoneUses() {
  const r = useResource(() => api<PhoneUses>("/api/admin/settings/phone-uses"), []);
  const { setData, refresh } = r;
  const reload = useCallback(() => {
    // After a save every page is drawn again before it can be counted:
    // say so rather than show the old figures.
    setData(() => null);
    refresh();
  }, [setData, refresh]);
  // While it counts again, the count is under way: not the last failure.
  const error = r.error && !r.loading ? r.error.message || "Could not count where the numbers appear." : "";
  return { uses: r.data, error, reload };
}

function kindLine(k: KindUse) {
  const parts = [];
  if (k.links) parts.push(plural(k.links, "call link"));
  if (k.texts) parts.push(`written ${plural(k.texts, "time")}`);
  if (k.structuredData) parts.push("in the search-engine data");
  return `${k.kind}${k.pages > 1 ? ` (${plural(k.pages, "page")})` : ""}: ${parts.join(", ")}`;
}

/** Where shows where one saved number appears now, and what a save of
 * the number typed in the field would change. */
export function Where({ which, uses, typed, error, id }: { which: "line" | "office"; uses: PhoneUses | null; typed: string; error: string; id: string }) {
  if (error) return <p id={id} className="a-error" role="alert">{error}</p>;
  if (!uses) return <p id={id} className="a-muted" role="status">Counting where this number appears on every page of the website (after a save this takes a little while, as every page is drawn again)...</p>;
  const n = uses.numbers.find((x) => x.which === which);
  const changed = (n ? digits(typed) !== digits(n.number) : digits(typed) !== "") && digits(typed).length === 10;
  return (
    <div id={id} className="st-where">
      {n && n.pages > 0 ? (
        <>
          <p><strong>Where {n.number} appears now</strong>: {plural(n.links, "call link")} and {plural(n.texts, "mention")} on {n.pages === uses.scanned ? `all ${plural(n.pages, "page")}` : `${plural(n.pages, "page")} of the ${uses.scanned}`} the
            website serves{n.structuredData ? ", and in what search engines read" : ""}{n.elsewhere.length ? `, and in ${plural(n.elsewhere.length, "place")} outside the pages` : ""}.</p>
          <details className="st-where__details">
            <summary>Show every kind of page</summary>
            <ul>
              {n.kinds.map((k) => <li key={k.kind}>{kindLine(k)}</li>)}
              {n.elsewhere.map((e) => <li key={e}>{e}</li>)}
            </ul>
          </details>
        </>
      ) : which === "office" ? (
        <p className="a-muted">No office number is shown: every page shows only the 24/7 number.</p>
      ) : (
        <p className="a-muted">This number does not appear on any page yet.</p>
      )}
      {changed && (
        <p className="st-change" role="status">
          {n && n.pages > 0
            ? <>When you save, {typed} replaces {n.number} in every place above: {plural(n.links, "call link")} and {plural(n.texts, "mention")} on {plural(n.pages, "page")}.</>
            : which === "office" ? <>When you save, the contact page shows {typed} as the office line.</> : <>When you save, every page shows and dials {typed}.</>}
        </p>
      )}
      {which === "office" && !changed && n && typed.trim() === "" && <p className="st-change" role="status">When you save, the office line is removed from the contact page.</p>}
    </div>
  );
}

/** OtherNumbers lists numbers the pages show that are not in Settings
 * (typed into a page's text): a save does not change them. */
export function OtherNumbers({ uses }: { uses: PhoneUses | null }) {
  if (!uses || uses.others.length === 0) return null;
  return (
    <div className="st-where st-where--warn" role="note">
      <p><strong>Other phone numbers on the website.</strong> These are written into page text, so saving here does not change them. Edit them in Content:</p>
      <ul>{uses.others.map((o) => <li key={o.number}>{o.number} on {o.paths.join(", ")}</li>)}</ul>
    </div>
  );
}

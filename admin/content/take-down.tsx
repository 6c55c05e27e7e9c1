// The dialog that unpublishes or deletes a page: when other
// pages name it (a city's neighbours, its county, a category's posts), it
// says which, by name, and offers to remove it from them in the same
// change, or, for a category, to move its posts to another one. The
// server checks all of it again inside one transaction.
import { useState } from "react";
import { useResource } from "../use-resource";
import { adminPath } from "../screens";
import { ConfirmDialog } from "../ui";
import { contentApi, type ItemDetail, type TakeDownRefs } from "../data/content";
import { choicesOf, forgetChoices } from "./choices";

const KIND_WORD: Record<string, string> = { city: "city page", county: "county page", article: "blog post", category: "category" };

type Props = {
  mode: "unpublish" | "delete" | null; item: ItemDetail; busy: boolean;
  onConfirm: (refs?: TakeDownRefs) => void; onCancel: () => void;
};

/** TakeDownDialog confirms an unpublish or a delete of item. Each time it
 * opens it asks the server afresh which pages name the item. */
export function TakeDownDialog(p: Props) {
  return p.mode === null ? null : <TakeDown {...p} mode={p.mode} />;
}

function TakeDown({ mode, item, busy, onConfirm, onCancel }: Props & { mode: "unpublish" | "delete" }) {
  const isCategory = item.kind === "category";
  const referrers = useResource(() => contentApi.referrers(item.id).then((r) => r.referrers), [item.id]);
  const refs = referrers.data;
  const error = referrers.error ? referrers.error.message : "";
  // A category's posts move to another category on the site.
  const categories = useResource(() => choicesOf("category"), [], { skip: !isCategory });
  const others = (categories.data || []).filter((c) => c.id !== item.id && c.live);
  const [replace, setReplace] = useState("");
  const [missing, setMissing] = useState(false);

  const verb = mode === "unpublish" ? "Unpublish" : "Delete";
  const what = mode === "unpublish"
    ? <><strong>{item.title}</strong> leaves the site: its address answers “not found” and it leaves the sitemap. The draft stays here to publish again.</>
    : <><strong>{item.title}</strong> is deleted{item.liveSlug ? " and leaves the site" : ""}. This cannot be undone.</>;
  const listed = refs !== null && refs.length > 0;
  const confirm = () => {
    if (refs === null && !error) return;
    if (listed && isCategory && !replace) {
      setMissing(true);
      return;
    }
    forgetChoices();
    onConfirm(listed ? { removeReferences: true, replaceWith: isCategory ? replace : undefined } : undefined);
  };

  let description;
  if (refs === null && !error) {
    description = <><p>{what}</p><p role="status">Checking which pages list it...</p></>;
  } else if (error) {
    description = <><p>{what}</p><p className="a-error">We could not check which pages list it: {error}</p></>;
  } else if (!listed) {
    description = <p>{what}</p>;
  } else {
    description = (
      <>
        <p>{what}</p>
        <p>{isCategory ? <>These posts are in <strong>{item.title}</strong>:</> : <><strong>{item.title}</strong> is listed on these pages:</>}</p>
        <ul className="ac-takedown-list">
          {refs!.map((r) => (
            <li key={r.id}>
              <a href={adminPath(`content?item=${encodeURIComponent(r.id)}`)} target="_blank" rel="noopener">{r.title}<span className="visually-hidden"> (opens in a new tab)</span></a>
              <span className="a-muted"> {KIND_WORD[r.kind] || "page"}{isCategory ? "" : `, under “${r.fields.join("”, “")}”`}</span>
            </li>
          ))}
        </ul>
        {isCategory ? (
          <>
            <label className="a-label" htmlFor="ac-takedown-move">Move these posts to</label>
            <select id="ac-takedown-move" className="a-input" value={replace} onChange={(e) => { setReplace(e.target.value); setMissing(false); }}
              aria-invalid={missing || undefined} aria-describedby={missing ? "ac-takedown-missing" : undefined}>
              <option value="">Choose a category</option>
              {others.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
            </select>
            {missing && <p id="ac-takedown-missing" className="a-error" role="alert">Choose the category the posts move to.</p>}
            <p className="ac-hint">A post always has a category: they move, and go on showing on the site.</p>
          </>
        ) : (
          <p>{verb === "Delete" ? "Deleting" : "Unpublishing"} it removes it from {refs!.length === 1 ? "that page" : `these ${refs!.length} pages`} too, in the same step; they stay published.</p>
        )}
      </>
    );
  }
  const label = !listed ? verb : isCategory ? `Move the posts and ${verb.toLowerCase()}` : `Remove from ${refs!.length === 1 ? "that page" : "these pages"} and ${verb.toLowerCase()}`;
  return (
    <ConfirmDialog open title={`${verb} this ${KIND_WORD[item.kind] || "page"}?`} confirmLabel={label}
      busy={busy}
      description={description} onConfirm={confirm} onCancel={onCancel} />
  );
}

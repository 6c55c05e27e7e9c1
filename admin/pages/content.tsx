import "../../styles/admin-manage.css";
import "../../styles/admin-content.css";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { LOCATION_EVENT } from "../leave";
import { errorText, useResource } from "../use-resource";
import { adminPath } from "../screens";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Button, Card, Dialog, PageHeader, Tabs } from "../ui";
import { PageNav, PageSummary, SearchBox, usePaging } from "../paging";
import { Editor } from "../content/editor";
import { listPath, readRoute } from "../content/route";
import { fieldId, Notes } from "../content/fields";
import { lastChange, StatusBadge } from "../content/status";
import {
  contentApi, KINDS, kindInfo, newRecord, problemsOf, suggestSlug,
  type ContentProblem, type ItemList, type Kind,
} from "../data/content";

/** Content Management: the site's content by kind, each item
 * with its state, and the editor. The address says what is shown:
 * ?kind= a list, ?item= an editor, ?new=city&county= the add dialog. */
export default function Content({ navigate }: AdminPageProps) {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const on = () => setRoute(readRoute());
    window.addEventListener(LOCATION_EVENT, on);
    return () => window.removeEventListener(LOCATION_EVENT, on);
  }, []);
  if (route.item) return <Editor key={route.item} id={route.item} navigate={navigate} />;
  if (route.page) return <FindPage key={route.page} path={route.page} field={route.field} navigate={navigate} />;
  return <ContentLists route={route} navigate={navigate} />;
}

/** KINDS_AT are the kinds whose records make pages under each address. */
function kindsAt(path: string): Kind[] {
  if (path === "/") return ["home"];
  if (path.startsWith("/services/")) return ["service"];
  if (path.startsWith("/service-areas/")) return ["county"];
  // A fixed city page is served at its address before the city record of
  // the same address (the route table's order), so it is the page's record.
  if (path.startsWith("/areas/")) return ["city-profile", "city"];
  if (path.startsWith("/blog/")) return ["article"];
  return ["page"];
}

/** FindPage opens the editor of the record that makes the page at path
 * (?page=, the SEO findings' links), at field; a page no record makes
 * says so. */
function FindPage({ path, field, navigate }: { path: string; field: string; navigate: (to: string) => void }) {
  // The address's last part is in the record's slug: the server's search
  // finds it without reading the whole kind.
  const last = path.split("/").filter(Boolean).pop() || "";
  const found = useResource(() => Promise.all(kindsAt(path).map((k) => contentApi.list(k, last ? "perPage=200&q=" + encodeURIComponent(last) : "perPage=200")))
    .then((lists) => ({ item: lists.flatMap((l) => l.items).find((x) => x.path === path) })), [path], {
    onData: ({ item }) => {
      if (!item) return;
      const to = `content?item=${encodeURIComponent(item.id)}${field ? "&field=" + encodeURIComponent(field) : ""}`;
      history.replaceState(null, "", adminPath(to));
      navigate(to);
    },
  });
  const error = found.error ? errorText(found.error) : "";
  const none = !!found.data && !found.data.item;
  return (
    <>
      <PageHeader title="Content Management" description={`The page ${path}`} />
      <Card title="Opening the editor">
        {error ? <p className="a-error" role="alert">The page's content could not be found: {error}</p>
          : none ? <p>No content record makes {path}: its text is part of how the site is built. Tell your web developer what should change.</p>
          : <p role="status">Loading...</p>}
        <a className="a-link" href={adminPath("content")} onClick={(e) => { e.preventDefault(); navigate("content"); }}>All content</a>
      </Card>
    </>
  );
}

/** ADD_LABEL names the button that adds a record of each kind that can be added. */
const ADD_LABEL: Partial<Record<Kind, string>> = { article: "Create New Blog Post", city: "New city", category: "New category" };

function ContentLists({ route, navigate }: { route: ReturnType<typeof readRoute>; navigate: (to: string) => void }) {
  const kind = kindInfo(route.kind || "article").kind;
  // Each kind's first page as last seen, so a tab opened again shows its
  // list at once while it is asked for again.
  const [seen, setSeen] = useState<Partial<Record<Kind, ItemList>>>({});
  const remember = useCallback((l: ItemList) => setSeen((m) => ({ ...m, [l.kind]: l })), []);
  const [adding, setAdding] = useState<{ kind: Kind; county: string } | null>(route.create === "city" || route.create === "article" || route.create === "category" ? { kind: route.create as Kind, county: route.county } : null);
  const choose = (k: string) => {
    history.replaceState(null, "", adminPath(listPath(k)));
    window.dispatchEvent(new Event(LOCATION_EVENT));
  };
  const open = (id: string) => navigate(`content?item=${encodeURIComponent(id)}`);
  const closeAdd = useCallback(() => {
    setAdding(null);
    if (readRoute().create) history.replaceState(null, "", adminPath(listPath(readRoute().kind || "article")));
  }, []);

  return (
    <>
      <PageHeader title="Content Management" description="The website's pages and blog posts: edit, preview, publish now or on a schedule."
        actions={<Button onClick={() => setAdding({ kind: "article", county: "" })}>Create New Blog Post</Button>} />
      <Tabs label="Kinds of content" value={kind} onChange={choose}
        tabs={KINDS.map((k) => ({
          id: k.kind, label: k.label,
          // Only the open kind asks the server; its page and search stay while it is open.
          content: k.kind === kind ? <KindList key={k.kind} kind={k.kind} seen={seen[k.kind]} onSeen={remember} onOpen={open} onAdd={(county) => setAdding({ kind: k.kind, county })} /> : null,
        }))} />
      {adding && <AddDialog kind={adding.kind} county={adding.county} onClose={closeAdd} onAdded={(id) => { setAdding(null); open(id); }} />}
    </>
  );
}

/** KindList is one page of a kind's items, searched on the server (the
 * name and the address). */
function KindList({ kind, seen, onSeen, onOpen, onAdd }: {
  kind: Kind; seen?: ItemList; onSeen: (l: ItemList) => void; onOpen: (id: string) => void; onAdd: (county: string) => void;
}) {
  const info = kindInfo(kind);
  const paging = usePaging(50);
  const r = useResource(() => contentApi.list(kind, paging.query), [kind, paging.query], {
    onData: (l) => { paging.fit(l); if (l.page === 1 && !l.q) onSeen(l); },
  });
  // Until the first answer, the kind's first page as last seen.
  const list = r.data ?? (paging.page === 1 && !paging.applied ? seen : undefined);
  if (r.error && !r.loading && !list) {
    return (
      <div>
        <p className="a-error" role="alert">The {info.label.toLowerCase()} could not be loaded: {errorText(r.error)}</p>
        <Button variant="outline" onClick={r.retry}>Try again</Button>
      </div>
    );
  }
  if (!list) return <p role="status">Loading {info.label.toLowerCase()}...</p>;
  const add = list.creatable && kind !== "article" ? ADD_LABEL[kind] : undefined;
  const searchable = list.total > 10 || list.q !== "" || paging.q !== "";
  return (
    <Card title={`${info.label} (${list.q ? list.total + " found" : list.total})`} className="ac-list"
      actions={add && <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" onClick={() => onAdd("")}>{add}</Button>}>
      {searchable && <div className="ac-filter"><SearchBox paging={paging} label={`Search ${info.label.toLowerCase()}`} placeholder="Name or address" /></div>}
      {searchable && <PageSummary info={list} rows={list.items.length} one={info.one} many={info.label.toLowerCase()} />}
      {list.items.length === 0 ? (!searchable && <p className="a-empty">{`No ${info.label.toLowerCase()} yet.`}</p>) : (
        <ul className="am-list ac-items" aria-label={info.label} aria-busy={r.loading}>
          {list.items.map((it) => (
            <li key={it.id}>
              <div className="am-list__main">
                <p className="am-list__title">{it.title || <span className="a-muted">Untitled</span>} <StatusBadge item={it} /></p>
                <p className="am-list__desc">
                  {it.path ? <span className="ac-mono">{it.path}</span> : <span className="ac-mono">{it.previewPath || it.slug}</span>}
                  {" · "}{lastChange(it)}
                </p>
              </div>
              <div className="am-list__actions">
                {it.path && (
                  <a className="a-link" href={it.path} target="_blank" rel="noopener">View live<span className="visually-hidden">: {it.title} (opens in a new tab)</span></a>
                )}
                <a className="a-btn a-btn--outline am-btn-sm" href={adminPath(`content?item=${encodeURIComponent(it.id)}`)}
                  onClick={(e) => { if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return; e.preventDefault(); onOpen(it.id); }}>
                  Edit<span className="visually-hidden"> {it.title}</span>
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
      <PageNav info={list} paging={paging} label={`${info.label} pages`} />
    </Card>
  );
}

/** AddDialog adds a draft: a post, a city (in a county) or a category. It
 * asks for the name and the address; the server checks both. */
function AddDialog({ kind, county: initialCounty, onClose, onAdded }: { kind: Kind; county: string; onClose: () => void; onAdded: (id: string) => void }) {
  const toast = useToast();
  const info = kindInfo(kind);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugTyped, setSlugTyped] = useState(false);
  const [county, setCounty] = useState(initialCounty);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [problems, setProblems] = useState<ContentProblem[]>([]);
  const nameRef = useRef<HTMLInputElement>(null);
  // A city is in a county; the failure to list them shows as the form's error.
  const counties = useResource(() => contentApi.all("county").then((l) => l.items.map((c) => ({ slug: c.slug, title: c.title }))), [kind], {
    skip: kind !== "city",
    onError: (e) => setError(errorText(e)),
  });
  const nameLabel = kind === "article" ? "Title" : kind === "city" ? "City name" : "Name";
  const title = kind === "article" ? "Create New Blog Post" : kind === "city" ? "New city" : "New category";
  const prefix = kind === "article" ? "/blog/" : kind === "city" ? `/areas/${county || "county"}/` : "";
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    setProblems([]);
    try {
      const today = new Date();
      const pad = (n: number) => String(n).padStart(2, "0");
      const d = await contentApi.create(kind, newRecord(kind, name.trim(), slug.trim(), county, `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`));
      toast({ title: `Draft added: ${d.title}`, description: "It is not on the site until you publish it." });
      onAdded(d.id);
    } catch (err) {
      setError(errorText(err));
      setProblems(problemsOf(err) || []);
    } finally {
      setBusy(false);
    }
  };
  const slugProblems = problems.filter((p) => p.field === "slug");
  return (
    <Dialog open title={title} onClose={onClose}>
      <form onSubmit={submit} className="ac-add">
        <p className="a-muted">The new {info.one} is a draft: it is on the site once you publish it.</p>
        {kind === "city" && (
          <div className="a-field">
            <label className="a-label" htmlFor="ac-add-county">County</label>
            <select id="ac-add-county" className="a-input" value={county} onChange={(e) => setCounty(e.target.value)} required>
              <option value="">Choose a county</option>
              {(counties.data || []).map((c) => <option key={c.slug} value={c.slug}>{c.title}</option>)}
            </select>
          </div>
        )}
        <div className="a-field">
          <label className="a-label" htmlFor="ac-add-name">{nameLabel}</label>
          <input ref={nameRef} id="ac-add-name" className="a-input" data-autofocus value={name} required
            onChange={(e) => { setName(e.target.value); if (!slugTyped) setSlug(suggestSlug(e.target.value)); }} />
        </div>
        <div className="a-field">
          <label className="a-label" htmlFor="ac-add-slug">Slug</label>
          <input id="ac-add-slug" className="a-input ac-mono" value={slug} required spellCheck={false} autoCapitalize="off"
            aria-describedby={"ac-add-slug-hint" + (slugProblems.length ? " " + fieldId("add-slug") + "-notes" : "")}
            onChange={(e) => { setSlug(e.target.value); setSlugTyped(true); }} />
          <p className="ac-count" id="ac-add-slug-hint">{prefix ? <>Address: <span className="ac-mono">{prefix}{slug}</span></> : "Lower-case words joined by dashes; it cannot change later."}</p>
          <Notes id={fieldId("add-slug") + "-notes"} label="Slug" problems={slugProblems} />
        </div>
        {error && <p className="a-error" role="alert">{error}</p>}
        <div className="a-dialog__actions">
          <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
          <Button type="submit" disabled={busy}>{busy ? "Adding..." : `Add ${info.one}`}</Button>
        </div>
      </form>
    </Dialog>
  );
}

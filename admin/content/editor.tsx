// The content editor: one item's working copy as a form made
// from its record's fields, saved as a draft, published now or at a time,
// previewed in the real layout, with its history. The server judges
// everything: its problems show beside their fields, its SEO checks after
// each save, its 409 names who changed the page first, and nothing typed
// here is lost to it.
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { ApiError } from "../api";
import { setLeaveGuard } from "../leave";
import { fmtDateTime } from "../listing";
import { errorText } from "../use-resource";
import { adminPath } from "../screens";
import { useToast } from "../toast";
import { Badge, Button, Card, ConfirmDialog } from "../ui";
import {
  clean, conflictOf, contentApi, getAt, kindInfo, previewUrl, problemsOf, setAt,
  type ConflictAnswer, type ContentProblem, type Field, type Guidance, type ItemDetail, type Kind, type RevisionView, type TakeDownRefs,
} from "../data/content";
import { BodyEditor } from "./body-editor";
import { FieldControl, fieldId, problemText } from "./fields";
import { WordingField } from "./wording-field";
import { HistoryPanel } from "./history";
import { IconPicker } from "./icon-picker";
import { ImageField } from "./image-field";
import { RecordPicker } from "./record-picker";
import { lastChange, StatusBadge } from "./status";
import { TakeDownDialog } from "./take-down";

/** listPath is the address of a kind's list. */
export const listPath = (kind: string) => `content?kind=${encodeURIComponent(kind)}`;

/** localRFC3339 writes a datetime-local value (the browser's time zone)
 * as RFC 3339 with its offset: "2026-11-26T06:00:00-05:00". */
export function localRFC3339(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  if (isNaN(d.getTime())) return null;
  const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");
  const off = -d.getTimezoneOffset();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` +
    `${off >= 0 ? "+" : "-"}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
}

/** fieldsOf lists a kind's fields with their labels, for the problems summary. */
function fieldsOf(kind: Kind): Field[] {
  return kindInfo(kind).sections.flatMap((s) => s.fields);
}

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

const CHECK_TONE = { pass: "good", warning: "warn", fail: "bad" } as const;

export function Editor({ id, navigate }: { id: string; navigate: (to: string) => void }) {
  const toast = useToast();
  const [item, setItem] = useState<ItemDetail | null>(null);
  const [loadError, setLoadError] = useState("");
  const [data, setDataState] = useState<any>(null);
  const [base, setBase] = useState("");
  const [problems, setProblems] = useState<ContentProblem[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState("");
  const [errorAt, setErrorAt] = useState(0);
  const [saved, setSaved] = useState("");
  const [restored, setRestored] = useState(false);
  const [conflict, setConflict] = useState<ConflictAnswer | null>(null);
  const [kept, setKept] = useState<string | null>(null);
  const [keptNote, setKeptNote] = useState("");
  const [guidance, setGuidance] = useState<Guidance | null>(null);
  const [guidanceState, setGuidanceState] = useState<"idle" | "busy" | string>("idle");
  const [when, setWhen] = useState("");
  const [confirm, setConfirm] = useState<null | "unpublish" | "delete" | RevisionView>(null);
  const [history, setHistory] = useState(false);
  const [categories, setCategories] = useState<{ slug: string; title: string }[]>([]);
  // Problems show once a field is left or a save is tried, never on a
  // form nobody has typed in yet (a new post opened with "5 problems").
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [tried, setTried] = useState(false);
  const cancelConfirm = useCallback(() => setConfirm(null), []);
  const dataRef = useRef<any>(null);
  const conflictRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const setData = useCallback((d: any) => { dataRef.current = d; setDataState(d); }, []);
  const kind = (item?.kind || "article") as Kind;
  const info = kindInfo(kind);
  const fields = useMemo(() => fieldsOf(kind), [kind]);
  const labels = useMemo(() => Object.fromEntries(fields.filter((f) => f.key).map((f) => [f.key, f.label])), [fields]);
  const dirty = item !== null && data !== null && JSON.stringify(clean(kind, data)) !== base;
  const savedDraft = useMemo(() => { try { return base ? JSON.parse(base) : null; } catch { return null; } }, [base]);
  const dirtyRef = useRef(false);
  dirtyRef.current = dirty;

  // Unsaved changes are kept in this tab's sessionStorage until saved, so
  // an ended session or a reload loses none of them.
  useEffect(() => {
    if (!item) return;
    if (dirty) writeBackup(item.id, base, clean(kind, data));
    else clearBackup(item.id);
  }, [item, dirty, base, kind, data]);

  // Unsaved changes: the app asks before leaving; the browser before closing.
  useEffect(() => {
    setLeaveGuard(() => dirtyRef.current);
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onUnload);
    return () => { setLeaveGuard(null); window.removeEventListener("beforeunload", onUnload); };
  }, []);

  // A deep link (?field=, from an SEO finding) opens the editor at the
  // field that fixes it, once, when the form is there.
  const focused = useRef(false);
  useEffect(() => {
    if (!item || data === null || focused.current) return;
    const field = readRoute().field;
    if (!field) return;
    focused.current = true;
    const el = document.getElementById(fieldTarget(kind, field));
    if (el) { el.scrollIntoView({ block: "center" }); el.focus(); }
  }, [item, data, kind]);

  // The checks render the draft; while another preview or check is
  // rendering the server answers 503, and the editor asks again itself
  // (the newest request wins; leaving the editor stops it).
  const guidanceRun = useRef(0);
  useEffect(() => () => { guidanceRun.current++; }, []);
  const loadGuidance = useCallback((itemId: string) => {
    const run = ++guidanceRun.current;
    setGuidanceState("busy");
    const ask = () => contentApi.guidance(itemId).then((g) => {
      if (run === guidanceRun.current) { setGuidance(g); setGuidanceState("idle"); }
    }, (e) => {
      if (run !== guidanceRun.current) return;
      if (e instanceof ApiError && e.status === 503) setTimeout(() => { if (run === guidanceRun.current) ask(); }, 2000);
      else setGuidanceState(errorText(e));
    });
    ask();
  }, []);

  /** accept takes the server's answer as the item; the form takes its
   * working copy unless more was typed while the answer was on its way. */
  const accept = useCallback((d: ItemDetail, sent?: any) => {
    setItem(d);
    setBase(JSON.stringify(d.draft));
    setProblems(d.problems || []);
    if (sent === undefined || dataRef.current === sent) setData(d.draft);
  }, [setData]);

  const load = useCallback(async () => {
    try {
      const d = await contentApi.get(id);
      accept(d);
      if (d.liveSlug || d.version > 1) setTried(true);
      setLoadError("");
      loadGuidance(d.id);
      // Text typed before the session ended (a sign-in again, a reload)
      // is kept in this tab: back in the form when the page has not
      // changed since, else shown to copy.
      const backup = readBackup(id);
      if (backup && backup.base === JSON.stringify(d.draft)) {
        setData(backup.data);
        setRestored(true);
      } else if (backup) {
        setKept(JSON.stringify(backup.data, null, 2));
        setKeptNote("This page changed since you last typed in it: your unsaved text is kept below to copy.");
      }
      return d;
    } catch (e) {
      setLoadError(errorText(e));
      return null;
    }
  }, [id, accept, loadGuidance]);
  useEffect(() => { load(); }, [load]);

  useEffect(() => {
    if (kind !== "article") return;
    contentApi.list("category").then((l) => setCategories(l.items.map((c) => ({ slug: c.slug, title: c.status === "published" || c.status === "scheduled" ? c.title : `${c.title} (${c.status})` }))), () => {});
  }, [kind]);

  /** fail shows why a change was refused, beside the fields when the
   * server named them. */
  const fail = useCallback((e: unknown) => {
    if (e instanceof ApiError && e.status === 401) return;
    const c = conflictOf(e);
    if (c) {
      setConflict(c);
      setError("");
      return;
    }
    const ps = problemsOf(e);
    if (ps) setProblems((cur) => [...ps, ...cur.filter((p) => !p.hard && !ps.some((q) => q.field === p.field && q.message === p.message))]);
    setError(errorText(e));
    setErrorAt(Date.now());
  }, []);
  // The message gets the focus, so a keyboard or screen reader user is
  // where the choice is.
  useEffect(() => { if (conflict) conflictRef.current?.focus(); }, [conflict]);
  useEffect(() => { if (errorAt) errorRef.current?.focus(); }, [errorAt]);

  /** save stores the form as the working copy; it resolves with the
   * saved item, or null when the server refused. */
  const save = useCallback(async (): Promise<ItemDetail | null> => {
    if (!item) return null;
    setTried(true);
    const sent = dataRef.current;
    setError("");
    try {
      const d = await contentApi.save(item.id, item.version, clean(item.kind, sent));
      accept(d, sent);
      setConflict(null);
      setRestored(false);
      setSaved(`Draft saved at ${new Date().toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" })}.`);
      loadGuidance(d.id);
      return d;
    } catch (e) {
      fail(e);
      return null;
    }
  }, [item, accept, fail, loadGuidance]);

  /** run does one action: saves first when there are changes, then asks
   * the server, and takes its answer. */
  const run = async (name: string, act: (cur: ItemDetail) => Promise<ItemDetail>, done: (d: ItemDetail) => string) => {
    if (!item || busy) return;
    setTried(true);
    setBusy(name);
    setError("");
    try {
      let cur: ItemDetail | null = item;
      if (dirtyRef.current) cur = await save();
      if (!cur) return;
      const d = await act(cur);
      accept(d);
      setConflict(null);
      toast({ title: done(d) });
      setSaved(done(d));
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  const onSave = async () => {
    if (busy) return;
    setBusy("save");
    await save();
    setBusy(null);
  };
  const publish = () => run("publish", (c) => contentApi.publish(c.id, c.version), (d) => d.path ? `Published: ${d.path}` : "Published.");
  const schedule = () => run("schedule", (c) => contentApi.schedule(c.id, c.version, localRFC3339(when)), (d) => `Scheduled for ${fmtDateTime(d.publishAt)}.`);
  const unschedule = () => run("unschedule", (c) => contentApi.unschedule(c.id, c.version), () => "The schedule is cancelled.");
  const unpublish = (refs?: TakeDownRefs) => { setConfirm(null); run("unpublish", (c) => contentApi.unpublish(c.id, c.version, refs), () => "Unpublished: the page is no longer on the site."); };
  const restore = (rev: RevisionView) => {
    setConfirm(null);
    if (!item || busy) return;
    setBusy("restore");
    setError("");
    contentApi.restore(item.id, item.version, rev.id).then((d) => {
      accept(d);
      setConflict(null);
      toast({ title: `Version ${rev.number} restored as a new draft.` });
      setSaved(`Version ${rev.number} restored as a new draft.`);
      loadGuidance(d.id);
    }, fail).finally(() => setBusy(null));
  };
  const remove = async (refs?: TakeDownRefs) => {
    setConfirm(null);
    if (!item || busy) return;
    setBusy("delete");
    try {
      await contentApi.remove(item.id, item.version, refs);
      setLeaveGuard(null);
      dirtyRef.current = false;
      toast({ title: `Deleted: ${item.title}` });
      navigate(listPath(item.kind));
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  /** preview opens the draft's real render in a new tab, after saving
   * what was typed (the tab opens at once, so no pop-up blocker stops it). */
  const preview = async (e: MouseEvent<HTMLAnchorElement>) => {
    if (!item || !dirtyRef.current) return; // the link opens it
    e.preventDefault();
    setTried(true);
    const tab = window.open("about:blank", "_blank");
    setBusy("preview");
    const d = await save();
    setBusy(null);
    if (!d) { tab?.close(); return; }
    if (tab) {
      tab.opener = null;
      tab.location.href = previewUrl(d.id);
    }
  };

  const myText = () => JSON.stringify(clean(kind, dataRef.current), null, 2);
  const copyMine = async () => {
    const text = myText();
    setKept(text);
    try {
      await navigator.clipboard.writeText(text);
      setKeptNote("Your text is copied to the clipboard, and shown below.");
    } catch {
      setKeptNote("The clipboard is not available: select your text below and copy it.");
    }
  };
  const reloadTheirs = async () => {
    if (kept === null) {
      setKept(myText());
      setKeptNote("Your text is kept below: copy what you need from it.");
    }
    setBusy("reload");
    try {
      const d = await contentApi.get(id);
      accept(d);
      setConflict(null);
      setError("");
      setSaved(`Reloaded the version ${d.updatedBy} saved.`);
      loadGuidance(d.id);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  if (!item || data === null) {
    return (
      <>
        <p className="ac-crumbs"><a href={adminPath("content")} onClick={(e) => { e.preventDefault(); navigate("content"); }}>Content Management</a></p>
        {loadError ? <p className="a-error" role="alert">This page could not be loaded: {loadError}</p> : <p role="status">Loading...</p>}
      </>
    );
  }

  // A problem is about the text as last saved: once its field is changed
  // it may be fixed, so it waits for the next save.
  const changed = (f: Field | undefined) => !!f && JSON.stringify(getAt(data, f.key) ?? null) !== JSON.stringify(getAt(savedDraft, f.key) ?? null);
  const shown = problems.filter((p) => {
    const f = ownerOf(fields, p);
    if (changed(f)) return false;
    return tried || (!!f && touched.has(f.key));
  });
  const forField = (f: Field) => shown.filter((p) => ownerOf(fields, p) === f);
  const hard = shown.filter((p) => p.hard);
  const touch = (key: string) => (e: React.FocusEvent<HTMLDivElement>) => {
    if (e.currentTarget.contains(e.relatedTarget as Node | null) || touched.has(key)) return;
    setTouched((t) => new Set(t).add(key));
  };
  const creatable = item.kind === "article" || item.kind === "city" || item.kind === "category";
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const upToDate = item.status === "published" && !item.pending && !dirty;

  const renderField = (f: Field) => {
    const value = getAt(data, f.key);
    const onChange = (v: any) => setData(setAt(dataRef.current, f.key, v));
    const ps = forField(f);
    let control;
    if (f.type === "body") control = <BodyEditor fieldKey={f.key} label={f.label} hint={f.hint} value={typeof value === "string" ? value : ""} onChange={onChange} problems={ps} />;
    else if (f.type === "wording") control = <WordingField field={f} value={value} onChange={onChange} problems={ps} />;
    else if (f.type === "refs") control = <RecordPicker field={f} value={value} onChange={onChange} problems={ps} self={item.id} group={item.kind === "county" ? item.title : undefined} />;
    else if (f.type === "image") control = <ImageField fieldKey={f.key} label={f.label} value={value} onChange={onChange} problems={ps} navigate={navigate} />;
    else if (f.type === "icon") control = <IconPicker fieldKey={f.key} label={f.label} hint={f.hint} value={typeof value === "string" ? value : ""} onChange={onChange} problems={ps} />;
    else {
      // The reading time and the empty SEO texts are the server's work.
      const derived = f.key === "seoTitle" || f.key === "metaDescription" ? item.derived?.[f.key] : undefined;
      const shownValue = f.key === "readTime" && item.derived ? item.derived.readTime : value;
      control = <FieldControl field={f} value={shownValue} onChange={onChange} problems={ps} data={data} categories={categories} derived={derived} />;
    }
    return <div key={f.key} className="ac-fieldwrap" onBlur={touch(f.key)}>{control}</div>;
  };

  return (
    <div className="ac-editor">
      <p className="ac-crumbs">
        <a href={adminPath("content")} onClick={(e) => { e.preventDefault(); navigate("content"); }}>Content Management</a>
        <span aria-hidden="true"> › </span>
        <a href={adminPath(listPath(item.kind))} onClick={(e) => { e.preventDefault(); navigate(listPath(item.kind)); }}>{info.label}</a>
      </p>
      <div className="a-pagehead">
        <div>
          <h1 className="a-pagehead__title">{item.title || "Untitled"}</h1>
          <p className="a-pagehead__desc ac-meta">
            <StatusBadge item={item} /> <span>{info.one[0].toUpperCase() + info.one.slice(1)}</span> <span>{lastChange(item)}</span>
            {item.path && <a className="a-link" href={item.path} target="_blank" rel="noopener">View live<span className="visually-hidden"> (opens in a new tab)</span></a>}
          </p>
        </div>
      </div>

      {restored && dirty && <p className="ac-restored" role="status">Your unsaved changes are back. Save them when ready.</p>}
      {conflict && (
        <div ref={conflictRef} tabIndex={-1} className="ac-alert ac-alert--conflict" role="alert">
          <p className="ac-alert__title">Not saved: someone else changed this page</p>
          <p>{conflict.error}</p>
          <div className="a-row">
            <Button onClick={reloadTheirs} disabled={busy !== null}>Reload their version</Button>
            <Button variant="outline" onClick={copyMine}>Copy my text</Button>
          </div>
        </div>
      )}
      {kept !== null && (
        <Card className="ac-kept" title="Your text, not saved" description={keptNote}
          actions={<div className="a-row">
            <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" onClick={() => navigator.clipboard?.writeText(kept).then(() => setKeptNote("Your text is copied to the clipboard, and shown below."), () => setKeptNote("The clipboard is not available: select your text below and copy it."))}>Copy again</Button>
            <Button variant="ghost" className="a-btn a-btn--ghost ac-btn-sm" onClick={() => { setKept(null); setKeptNote(""); }}>Dismiss</Button>
          </div>}>
          <label className="visually-hidden" htmlFor="ac-kept-text">Your text, not saved</label>
          <textarea id="ac-kept-text" className="a-input ac-mono" readOnly rows={10} value={kept} />
        </Card>
      )}
      {error && (
        <div ref={errorRef} tabIndex={-1} className="ac-alert ac-alert--error" role="alert">
          <p>{error}</p>
        </div>
      )}
      {shown.length > 0 && (
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
      )}

      <form className="ac-form" noValidate onSubmit={(e) => { e.preventDefault(); onSave(); }} aria-label={`Edit ${info.one}`}>
        {info.sections.filter((s) => !s.when || (getAt(data, s.when) && typeof getAt(data, s.when) === "object")).map((s) => (
          <section key={s.title} className="a-card ac-section" aria-label={s.title}>
            <h2 className="a-card__title">{s.title}</h2>
            {s.intro && <p className="ac-hint">{s.intro}</p>}
            {s.fields.map(renderField)}
          </section>
        ))}

        <div className="ac-bar" role="group" aria-label="Save and publish">
          <Button type="submit" disabled={busy !== null || !dirty}>{busy === "save" ? "Saving..." : "Save draft"}</Button>
          <Button variant={dirty ? "outline" : "primary"} onClick={publish} disabled={busy !== null || upToDate}>{busy === "publish" ? "Publishing..." : "Publish"}</Button>
          <a className="a-btn a-btn--outline" href={previewUrl(item.id)} target="_blank" rel="noopener" onClick={preview} aria-disabled={busy !== null || undefined}>
            {busy === "preview" ? "Saving..." : "Preview"}<span className="visually-hidden"> (opens in a new tab; unsaved changes are saved first)</span>
          </a>
          <p className="ac-bar__state" role="status">{dirty ? "Unsaved changes" : saved || "No unsaved changes"}</p>
        </div>
      </form>

      <div className="ac-after">
        <Card title="Publishing" className="ac-publishing">
          <p><StatusBadge item={item} /></p>
          {item.publishedAt && <p className="a-muted">Last published {fmtDateTime(item.publishedAt)}.</p>}
          <div className="ac-schedule">
            <label className="a-label" htmlFor="ac-when">Publish at</label>
            <p className="ac-hint" id="ac-when-hint">In your time zone ({tz}).</p>
            <div className="a-row">
              <input id="ac-when" type="datetime-local" className="a-input ac-when" aria-describedby="ac-when-hint" value={when} onChange={(e) => setWhen(e.target.value)} />
              <Button variant="outline" onClick={schedule} disabled={busy !== null}>{busy === "schedule" ? "Scheduling..." : "Schedule"}</Button>
            </div>
          </div>
          <div className="a-row ac-takedown">
            {item.status === "scheduled" && <Button variant="outline" onClick={unschedule} disabled={busy !== null}>Unschedule</Button>}
            {creatable && item.liveSlug && <Button variant="outline" onClick={() => setConfirm("unpublish")} disabled={busy !== null}>Unpublish</Button>}
            {creatable && <Button variant="danger" onClick={() => setConfirm("delete")} disabled={busy !== null}>Delete</Button>}
          </div>
        </Card>

        <Card title="SEO checks" className="ac-checks" description={guidance ? `On the draft's render of ${guidance.path}${guidance.words ? `: ${guidance.words} words` : ""}.` : "The SEO audit's page rules, run by the server on the draft."}>
          {guidanceState === "busy" && <p role="status">Checking the draft...</p>}
          {guidanceState !== "busy" && guidanceState !== "idle" && <p className="a-error">The checks could not be run: {guidanceState}</p>}
          {guidance?.renderError && <p className="ac-note--warn">{guidance.renderError}</p>}
          {guidance && guidance.checks.length > 0 && (
            <ul className="ac-checklist">
              {guidance.checks.map((c) => (
                <li key={c.check}>
                  <span className="ac-status"><Badge tone={CHECK_TONE[c.status] || "neutral"}>{c.status}</Badge></span>{" "}
                  <strong>{c.check}</strong>: {c.message}
                  {c.fix && c.status !== "pass" && <span className="a-muted"> {c.fix}</span>}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <Card title="History" description="Every published version, with what it changed. Restoring one makes it a new draft: the live page changes when you publish."
        actions={<Button variant="outline" className="a-btn a-btn--outline ac-btn-sm ac-nowrap" aria-expanded={history} aria-controls="ac-history" onClick={() => setHistory((h) => !h)}>{history ? "Hide history" : "Show history"}</Button>}>
        <div id="ac-history">{history && <HistoryPanel id={item.id} version={item.version} busy={busy !== null} onRestore={(r) => setConfirm(r)} labels={labels} />}</div>
      </Card>

      <TakeDownDialog mode={confirm === "unpublish" || confirm === "delete" ? confirm : null} item={item} busy={busy !== null}
        onConfirm={(refs) => (confirm === "unpublish" ? unpublish(refs) : remove(refs))} onCancel={cancelConfirm} />
      <ConfirmDialog open={typeof confirm === "object" && confirm !== null} title={`Restore version ${(confirm as RevisionView | null)?.number ?? ""}?`} confirmLabel="Restore" busy={busy !== null}
        description={<p>The editor's text becomes that version's, as a new draft{dirty ? "; your unsaved changes are replaced" : ""}. The live page does not change until you publish.</p>}
        onConfirm={() => restore(confirm as RevisionView)} onCancel={cancelConfirm} />
    </div>
  );
}

/** readRoute reads the content screen's address: ?kind= (a list),
 * ?item= (an editor), ?new=city&county= (the add dialog). */
export function readRoute(): { kind: string; item: string; create: string; county: string; field: string; page: string } {
  const q = new URLSearchParams(typeof window === "undefined" ? "" : window.location.search);
  return { kind: q.get("kind") || "", item: q.get("item") || "", create: q.get("new") || "", county: q.get("county") || "",
    field: q.get("field") || "", page: q.get("page") || "" };
}

/** BODY_FIELD is each kind's main text, where "body" deep links go
 * (the SEO findings' links). */
const BODY_FIELD: Partial<Record<Kind, string>> = { article: "content", page: "content", service: "body", county: "intro", city: "intro", "city-profile": "intro", home: "heroLead" };

/** fieldTarget is the id of the control a deep link (?field=) names:
 * "body" is the kind's main text, "image" the photo's description. A
 * field the kind lacks gives "". */
export function fieldTarget(kind: Kind, field: string): string {
  const key = field === "body" ? BODY_FIELD[kind] || "" : field;
  const f = fieldsOf(kind).find((x) => x.key === key);
  if (!f) return "";
  return f.type === "image" ? fieldId(f.key) + "-alt" : fieldId(f.key);
}

/** The unsaved text of an item, kept in this tab (never sent anywhere). */
interface Backup { base: string; data: unknown }
const backupKey = (id: string) => "content-unsaved:" + id;

function readBackup(id: string): Backup | null {
  try {
    const raw = sessionStorage.getItem(backupKey(id));
    return raw ? (JSON.parse(raw) as Backup) : null;
  } catch {
    return null;
  }
}

function writeBackup(id: string, base: string, data: unknown) {
  try { sessionStorage.setItem(backupKey(id), JSON.stringify({ base, data })); } catch { /* storage full or off: the leave guard still asks */ }
}

function clearBackup(id: string) {
  try { sessionStorage.removeItem(backupKey(id)); } catch { /* nothing kept */ }
}

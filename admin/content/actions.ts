// What the content editor's buttons do: save the draft, publish now or
// at a time, unschedule, unpublish, delete, restore a version, preview,
// and the two ways out of a conflict. Each action saves what was typed
// first; the server judges, and a refusal shows its reason (with the
// fields it names) or the conflict.
import { useCallback, useState, type MouseEvent } from "react";
import { ApiError } from "../api";
import { clean, conflictOf, contentApi, previewUrl, problemsOf, type ConflictAnswer, type ItemDetail, type RevisionView, type TakeDownRefs } from "../data/content";
import { setLeaveGuard } from "../leave";
import { fmtDateTime } from "../listing";
import { useToast } from "../toast";
import { errorText } from "../use-resource";
import type { useKept } from "./alerts";
import type { Draft } from "./draft";
import { mergeProblems } from "./problems";
import { localRFC3339 } from "./publishing";
import { listPath } from "./route";

/** useEditorActions works on draft. checks runs the SEO checks on a saved
 * item; kept shows the owner's text to copy; navigate leaves the editor
 * (after a delete). */
export function useEditorActions(draft: Draft, checks: (itemId: string) => void, kept: ReturnType<typeof useKept>, navigate: (to: string) => void) {
  const toast = useToast();
  const { item, accept, dataRef, dirtyRef, setTried, setProblems, setRestored } = draft;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState("");
  const [errorAt, setErrorAt] = useState(0);
  const [saved, setSaved] = useState("");
  const [conflict, setConflict] = useState<ConflictAnswer | null>(null);

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
    if (ps) setProblems((cur) => mergeProblems(cur, ps));
    setError(errorText(e));
    setErrorAt(Date.now());
  }, [setProblems]);

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
      checks(d.id);
      return d;
    } catch (e) {
      fail(e);
      return null;
    }
  }, [item, accept, fail, checks, dataRef, setTried, setRestored]);

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
  const schedule = (when: string) => run("schedule", (c) => contentApi.schedule(c.id, c.version, localRFC3339(when)), (d) => `Scheduled for ${fmtDateTime(d.publishAt)}.`);
  const unschedule = () => run("unschedule", (c) => contentApi.unschedule(c.id, c.version), () => "The schedule is cancelled.");
  const unpublish = (refs?: TakeDownRefs) => run("unpublish", (c) => contentApi.unpublish(c.id, c.version, refs), () => "Unpublished: the page is no longer on the site.");
  const restore = (rev: RevisionView) => {
    if (!item || busy) return;
    setBusy("restore");
    setError("");
    contentApi.restore(item.id, item.version, rev.id).then((d) => {
      accept(d);
      setConflict(null);
      toast({ title: `Version ${rev.number} restored as a new draft.` });
      setSaved(`Version ${rev.number} restored as a new draft.`);
      checks(d.id);
    }, fail).finally(() => setBusy(null));
  };
  const remove = async (refs?: TakeDownRefs) => {
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

  const myText = () => JSON.stringify(clean(draft.kind, dataRef.current), null, 2);
  const copyMine = () => kept.copy(myText());
  const reloadTheirs = async () => {
    if (kept.text === null) kept.show(myText(), "Your text is kept below: copy what you need from it.");
    setBusy("reload");
    try {
      const d = await contentApi.get(item!.id);
      accept(d);
      setConflict(null);
      setError("");
      setSaved(`Reloaded the version ${d.updatedBy} saved.`);
      checks(d.id);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  return { busy, error, errorAt, saved, conflict, onSave, publish, schedule, unschedule, unpublish, restore, remove, preview, copyMine, reloadTheirs };
}

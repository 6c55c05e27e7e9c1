// The content editor: one item's working copy as a form made
// from its record's fields, saved as a draft, published now or at a time,
// previewed in the real layout, with its history. The server judges
// everything: its problems show beside their fields, its SEO checks after
// each save, its 409 names who changed the page first, and nothing typed
// here is lost to it. The parts, by subject: the working copy (draft.ts,
// unsaved.ts), the actions (actions.ts), the form (form.tsx), the
// problems (problems.tsx), the checks (checks.tsx), publishing
// (publishing.tsx), the refusals and conflicts (alerts.tsx).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { RevisionView } from "../data/content";
import { adminPath } from "../screens";
import { Button, Card, ConfirmDialog } from "../ui";
import { ConflictAlert, ErrorAlert, KeptText, useKept } from "./alerts";
import { useEditorActions } from "./actions";
import { SeoChecks, useGuidance } from "./checks";
import { useDraft } from "./draft";
import { EditorForm } from "./form";
import { HistoryPanel } from "./history";
import { ProblemSummary, useShownProblems } from "./problems";
import { Publishing } from "./publishing";
import { fieldTarget, listPath, readRoute } from "./route";
import { lastChange, StatusBadge } from "./status";
import { TakeDownDialog } from "./take-down";

/** useFieldLink opens the editor at the field a deep link (?field=, from
 * an SEO finding) names, once, when the form is there. */
function useFieldLink(ready: boolean, kind: Parameters<typeof fieldTarget>[0]) {
  const focused = useRef(false);
  useEffect(() => {
    if (!ready || focused.current) return;
    const field = readRoute().field;
    if (!field) return;
    focused.current = true;
    const el = document.getElementById(fieldTarget(kind, field));
    if (el) { el.scrollIntoView({ block: "center" }); el.focus(); }
  }, [ready, kind]);
}

export function Editor({ id, navigate }: { id: string; navigate: (to: string) => void }) {
  const guidance = useGuidance();
  const kept = useKept();
  const draft = useDraft(id, (d) => guidance.load(d.id), kept);
  const act = useEditorActions(draft, guidance.load, kept, navigate);
  const { item, data, fields, info, dirty } = draft;
  const [when, setWhen] = useState("");
  const [confirm, setConfirm] = useState<null | "unpublish" | "delete" | RevisionView>(null);
  const [history, setHistory] = useState(false);
  const cancelConfirm = useCallback(() => setConfirm(null), []);
  const labels = useMemo(() => Object.fromEntries(fields.filter((f) => f.key).map((f) => [f.key, f.label])), [fields]);
  const problems = useShownProblems(fields, draft.problems, data, draft.base, draft.tried);
  useFieldLink(item !== null && data !== null, draft.kind);
  const toList = (to: string) => (e: React.MouseEvent) => { e.preventDefault(); navigate(to); };

  if (!item || data === null) {
    return (
      <>
        <p className="ac-crumbs"><a href={adminPath("content")} onClick={toList("content")}>Content Management</a></p>
        {draft.loadError ? <p className="a-error" role="alert">This page could not be loaded: {draft.loadError.message}</p> : <p role="status">Loading...</p>}
      </>
    );
  }

  return (
    <div className="ac-editor">
      <p className="ac-crumbs">
        <a href={adminPath("content")} onClick={toList("content")}>Content Management</a>
        <span aria-hidden="true"> › </span>
        <a href={adminPath(listPath(item.kind))} onClick={toList(listPath(item.kind))}>{info.label}</a>
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

      {draft.restored && dirty && <p className="ac-restored" role="status">Your unsaved changes are back. Save them when ready.</p>}
      <ConflictAlert conflict={act.conflict} busy={act.busy !== null} onReload={act.reloadTheirs} onCopy={act.copyMine} />
      <KeptText kept={kept} />
      <ErrorAlert error={act.error} at={act.errorAt} />
      <ProblemSummary shown={problems.shown} fields={fields} dirty={dirty} />

      <EditorForm draft={draft} item={item} forField={problems.forField} touch={problems.touch} busy={act.busy} saved={act.saved}
        onSave={act.onSave} onPublish={act.publish} onPreview={act.preview} />

      <div className="ac-after">
        <Publishing item={item} busy={act.busy} when={when} onWhen={setWhen} onSchedule={() => act.schedule(when)} onUnschedule={act.unschedule} onTakeDown={setConfirm} />
        <SeoChecks guidance={guidance.guidance} state={guidance.state} />
      </div>

      <Card title="History" description="Every published version, with what it changed. Restoring one makes it a new draft: the live page changes when you publish."
        actions={<Button variant="outline" className="a-btn a-btn--outline ac-btn-sm ac-nowrap" aria-expanded={history} aria-controls="ac-history" onClick={() => setHistory((h) => !h)}>{history ? "Hide history" : "Show history"}</Button>}>
        <div id="ac-history">{history && <HistoryPanel id={item.id} version={item.version} busy={act.busy !== null} onRestore={(r) => setConfirm(r)} labels={labels} />}</div>
      </Card>

      <TakeDownDialog mode={confirm === "unpublish" || confirm === "delete" ? confirm : null} item={item} busy={act.busy !== null}
        onConfirm={(refs) => { const mode = confirm; setConfirm(null); if (mode === "unpublish") act.unpublish(refs); else act.remove(refs); }} onCancel={cancelConfirm} />
      <ConfirmDialog open={typeof confirm === "object" && confirm !== null} title={`Restore version ${(confirm as RevisionView | null)?.number ?? ""}?`} confirmLabel="Restore" busy={act.busy !== null}
        description={<p>The editor's text becomes that version's, as a new draft{dirty ? "; your unsaved changes are replaced" : ""}. The live page does not change until you publish.</p>}
        onConfirm={() => { setConfirm(null); act.restore(confirm as RevisionView); }} onCancel={cancelConfirm} />
    </div>
  );
}

// The content editor's working copy: the item as the server last sent
// it, the form's data, whether it differs from the saved draft, and the
// server's problems with it. Text typed before the session ended (a sign-in
// again, a reload) comes back from this tab's keeping (unsaved.ts).
import { useCallback, useMemo, useRef, useState } from "react";
import { clean, contentApi, kindInfo, type ContentProblem, type ItemDetail, type Kind } from "../data/content";
import { useResource } from "../use-resource";
import type { useKept } from "./alerts";
import { fieldsOf } from "./route";
import { readBackup, useKeepUnsaved } from "./unsaved";

/** useDraft loads item id and holds its working copy. onLoaded runs with
 * each item the server sends (the checks run on it); kept shows text
 * that could not go back into the form. */
export function useDraft(id: string, onLoaded: (d: ItemDetail) => void, kept: ReturnType<typeof useKept>) {
  const [item, setItem] = useState<ItemDetail | null>(null);
  const [data, setDataState] = useState<any>(null);
  const [base, setBase] = useState("");
  const [problems, setProblems] = useState<ContentProblem[]>([]);
  // A save was tried (or the page was saved before): every problem shows.
  const [tried, setTried] = useState(false);
  const [restored, setRestored] = useState(false);
  const dataRef = useRef<any>(null);
  const setData = useCallback((d: any) => { dataRef.current = d; setDataState(d); }, []);
  const kind = (item?.kind || "article") as Kind;
  const fields = useMemo(() => fieldsOf(kind), [kind]);
  const dirty = item !== null && data !== null && JSON.stringify(clean(kind, data)) !== base;
  const dirtyRef = useRef(false);
  dirtyRef.current = dirty;
  useKeepUnsaved(item?.id, kind, data, dirty, base, dirtyRef);

  /** accept takes the server's answer as the item; the form takes its
   * working copy unless more was typed while the answer was on its way
   * (sent is the data the request sent). */
  const accept = useCallback((d: ItemDetail, sent?: any) => {
    setItem(d);
    setBase(JSON.stringify(d.draft));
    setProblems(d.problems || []);
    if (sent === undefined || dataRef.current === sent) setData(d.draft);
  }, [setData]);

  const loaded = useResource(() => contentApi.get(id), [id], {
    onData: (d) => {
      accept(d);
      if (d.liveSlug || d.version > 1) setTried(true);
      onLoaded(d);
      // Unsaved text goes back in the form when the page has not changed
      // since it was typed, else it is shown to copy.
      const backup = readBackup(id);
      if (backup && backup.base === JSON.stringify(d.draft)) {
        setData(backup.data);
        setRestored(true);
      } else if (backup) {
        kept.show(JSON.stringify(backup.data, null, 2), "This page changed since you last typed in it: your unsaved text is kept below to copy.");
      }
    },
  });

  return {
    item, data, setData, dataRef, base, problems, setProblems, tried, setTried, restored, setRestored,
    accept, kind, info: kindInfo(kind), fields, dirty, dirtyRef, loadError: loaded.error,
  };
}

/** Draft is a working copy (useDraft). */
export type Draft = ReturnType<typeof useDraft>;

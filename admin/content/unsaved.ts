// Unsaved changes in the content editor: kept in this tab's
// sessionStorage until saved (never sent anywhere), so an ended session
// or a reload loses none of them; and asked about before the editor or
// the tab is left.
import { useEffect, type MutableRefObject } from "react";
import { clean, type Kind } from "../data/content";
import { setLeaveGuard } from "../leave";

/** Backup is the unsaved text of an item and the saved draft it was typed over. */
export interface Backup { base: string; data: unknown }
const backupKey = (id: string) => "content-unsaved:" + id;

export function readBackup(id: string): Backup | null {
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

/** useKeepUnsaved keeps the form's data (of item itemId, of kind) in
 * this tab while it differs from base, the saved draft, and has the app
 * ask before leaving (the browser, before closing) while dirtyRef says
 * there are changes. */
export function useKeepUnsaved(itemId: string | undefined, kind: Kind, data: unknown, dirty: boolean, base: string, dirtyRef: MutableRefObject<boolean>) {
  useEffect(() => {
    if (!itemId) return;
    if (dirty) writeBackup(itemId, base, clean(kind, data));
    else clearBackup(itemId);
  }, [itemId, dirty, base, kind, data]);

  useEffect(() => {
    setLeaveGuard(() => dirtyRef.current);
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onUnload);
    return () => { setLeaveGuard(null); window.removeEventListener("beforeunload", onUnload); };
  }, [dirtyRef]);
}

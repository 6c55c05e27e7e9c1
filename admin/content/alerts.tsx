// What the content editor says above its form when a change is refused:
// the server's reason, a conflict with someone else's save (reload their
// version, or copy mine), and the owner's own text kept to copy, so that
// nothing typed is lost to a refusal.
import { useEffect, useRef, useState } from "react";
import type { ConflictAnswer } from "../data/content";
import { Button, Card } from "../ui";

/** useKept is the owner's text kept on screen to copy (null: none), with
 * a note saying why it is there. */
export function useKept() {
  const [text, setText] = useState<string | null>(null);
  const [note, setNote] = useState("");
  return {
    text, note,
    show: (t: string, n: string) => { setText(t); setNote(n); },
    /** copy shows t and puts it on the clipboard, or says it cannot. */
    copy: async (t: string) => {
      setText(t);
      try {
        await navigator.clipboard.writeText(t);
        setNote("Your text is copied to the clipboard, and shown below.");
      } catch {
        setNote("The clipboard is not available: select your text below and copy it.");
      }
    },
    dismiss: () => { setText(null); setNote(""); },
  };
}

/** KeptText shows the kept text, to copy. */
export function KeptText({ kept }: { kept: ReturnType<typeof useKept> }) {
  if (kept.text === null) return null;
  return (
    <Card className="ac-kept" title="Your text, not saved" description={kept.note}
      actions={<div className="a-row">
        <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" onClick={() => kept.copy(kept.text!)}>Copy again</Button>
        <Button variant="ghost" className="a-btn a-btn--ghost ac-btn-sm" onClick={kept.dismiss}>Dismiss</Button>
      </div>}>
      <label className="visually-hidden" htmlFor="ac-kept-text">Your text, not saved</label>
      <textarea id="ac-kept-text" className="a-input ac-mono" readOnly rows={10} value={kept.text} />
    </Card>
  );
}

/** ConflictAlert says someone else saved the page first, and offers
 * their version or a copy of mine. It takes the focus, so a keyboard or
 * screen reader user is where the choice is. */
export function ConflictAlert({ conflict, busy, onReload, onCopy }: {
  conflict: ConflictAnswer | null; busy: boolean; onReload: () => void; onCopy: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => { if (conflict) ref.current?.focus(); }, [conflict]);
  if (!conflict) return null;
  return (
    <div ref={ref} tabIndex={-1} className="ac-alert ac-alert--conflict" role="alert">
      <p className="ac-alert__title">Not saved: someone else changed this page</p>
      <p>{conflict.error}</p>
      <div className="a-row">
        <Button onClick={onReload} disabled={busy}>Reload their version</Button>
        <Button variant="outline" onClick={onCopy}>Copy my text</Button>
      </div>
    </div>
  );
}

/** ErrorAlert is why a change was refused. It takes the focus each time a
 * refusal comes (at, its time), like ConflictAlert. */
export function ErrorAlert({ error, at }: { error: string; at: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => { if (at) ref.current?.focus(); }, [at]);
  if (!error) return null;
  return (
    <div ref={ref} tabIndex={-1} className="ac-alert ac-alert--error" role="alert">
      <p>{error}</p>
    </div>
  );
}

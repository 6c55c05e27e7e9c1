import { useEffect, useState } from "react";
import { Button, Dialog } from "../ui";
import type { TestimonialItem } from "../data/testimonials";

/** EditDialog fixes a testimonial's typos: the words only; the name and
 * city are the customer's. */
export function EditDialog({ item, busy, error, onSave, onClose }: {
  item: TestimonialItem | null; busy: boolean; error: string; onSave: (text: string) => void; onClose: () => void;
}) {
  const [text, setText] = useState("");
  useEffect(() => { setText(item?.text || ""); }, [item]);
  return (
    <Dialog open={item !== null} title="Fix typos" onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); onSave(text); }}>
        <div className="a-field">
          <label className="a-label" htmlFor="tm-edit">Words of {item?.firstName}, {item?.city}</label>
          <textarea id="tm-edit" className="a-input" rows={6} maxLength={1000} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        {error && <p className="a-error" role="alert">{error}</p>}
        <div className="a-dialog__actions">
          <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={busy}>{busy ? "Saving..." : "Save"}</Button>
        </div>
      </form>
    </Dialog>
  );
}

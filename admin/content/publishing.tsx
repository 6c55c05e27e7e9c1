// The content editor's Publishing card: the item's state, publishing at
// a time of the owner's choosing, and taking the page down.
import { fmtDateTime } from "../listing";
import { Button, Card } from "../ui";
import type { ItemDetail } from "../data/content";
import { StatusBadge } from "./status";

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

/** Publishing shows item's state, the time to publish at (when, in the
 * browser's time zone) and the actions that change the state; busy is
 * the action under way, if any. Only posts, cities and categories are
 * unpublished or deleted here (the others are part of the site's shape). */
export function Publishing({ item, busy, when, onWhen, onSchedule, onUnschedule, onTakeDown }: {
  item: ItemDetail; busy: string | null; when: string; onWhen: (v: string) => void;
  onSchedule: () => void; onUnschedule: () => void; onTakeDown: (mode: "unpublish" | "delete") => void;
}) {
  const creatable = item.kind === "article" || item.kind === "city" || item.kind === "category";
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Card title="Publishing" className="ac-publishing">
      <p><StatusBadge item={item} /></p>
      {item.publishedAt && <p className="a-muted">Last published {fmtDateTime(item.publishedAt)}.</p>}
      <div className="ac-schedule">
        <label className="a-label" htmlFor="ac-when">Publish at</label>
        <p className="ac-hint" id="ac-when-hint">In your time zone ({tz}).</p>
        <div className="a-row">
          <input id="ac-when" type="datetime-local" className="a-input ac-when" aria-describedby="ac-when-hint" value={when} onChange={(e) => onWhen(e.target.value)} />
          <Button variant="outline" onClick={onSchedule} disabled={busy !== null}>{busy === "schedule" ? "Scheduling..." : "Schedule"}</Button>
        </div>
      </div>
      <div className="a-row ac-takedown">
        {item.status === "scheduled" && <Button variant="outline" onClick={onUnschedule} disabled={busy !== null}>Unschedule</Button>}
        {creatable && item.liveSlug && <Button variant="outline" onClick={() => onTakeDown("unpublish")} disabled={busy !== null}>Unpublish</Button>}
        {creatable && <Button variant="danger" onClick={() => onTakeDown("delete")} disabled={busy !== null}>Delete</Button>}
      </div>
    </Card>
  );
}

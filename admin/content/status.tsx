// How an item's state reads in lists and the editor: the server's status,
// in the words the content screens use.
import { fmtDateTime } from "../listing";
import type { ItemView } from "../data/content";
import { Badge } from "../ui";

/** statusText is an item's state: Draft, Scheduled for …, Published,
 * Published, changes not published, or Unpublished. */
export function statusText(it: Pick<ItemView, "status" | "pending" | "publishAt">): string {
  switch (it.status) {
    case "draft": return "Draft";
    case "scheduled": return `Scheduled for ${fmtDateTime(it.publishAt)}`;
    case "unpublished": return "Unpublished";
  }
  return it.pending ? "Published, changes not published" : "Published";
}

export function StatusBadge({ item }: { item: Pick<ItemView, "status" | "pending" | "publishAt"> }) {
  const tone = item.status === "published" ? (item.pending ? "warn" : "good") : item.status === "scheduled" ? "info" : item.status === "unpublished" ? "bad" : "neutral";
  return <span className="ac-status"><Badge tone={tone}>{statusText(item)}</Badge></span>;
}

/** lastChange says who changed an item last, and when. */
export function lastChange(it: Pick<ItemView, "updatedBy" | "updatedAt">): string {
  return `Last change by ${it.updatedBy || "unknown"}, ${fmtDateTime(it.updatedAt)}`;
}

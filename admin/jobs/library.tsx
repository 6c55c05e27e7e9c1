import { useState } from "react";
import { api } from "../api";
import type * as wire from "../api.gen";
import { PageNav, PageSummary, SearchBox, usePaging } from "../paging";
import { useResource } from "../use-resource";
import { Button, Dialog, LoadError } from "../ui";

/** LibraryPicker adds a photo or video already in the photo library to
 * the job (one uploaded from Photo Upload, or from a phone earlier).
 * The photos of this job are left out. */
export function LibraryPicker({ inJob, busy, onPick }: { inJob: string[]; busy: boolean; onPick: (id: string) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  // A page of the library at a time, newest first, searched on the server.
  const paging = usePaging(50);
  const lib = useResource(() => api<wire.MediaLibrary>("/api/admin/media?" + paging.query), [open, paging.query], { skip: !open });
  const items = (lib.data?.items || []).filter((m) => !inJob.includes(m.id));
  return (
    <>
      <Button type="button" variant="outline" disabled={busy} onClick={() => setOpen(true)}>Add from the photo library</Button>
      <Dialog open={open} title="Add from the photo library" onClose={() => setOpen(false)} wide>
        <SearchBox paging={paging} label="Search the library" placeholder="File name, project or caption" />
        {lib.data && <PageSummary info={lib.data} rows={lib.data.items.length} one="photo or video" many="photos and videos" />}
        {lib.error ? <LoadError error={lib.error} onRetry={lib.retry} prefix="The photo library could not be loaded: " /> : !lib.data ? <p role="status">Loading the photo library...</p>
          : items.length === 0 ? (lib.data.total === 0 ? null : <p className="a-empty">No other photos in the library.</p>) : (
            <ul className="aj-photos" aria-label="The photo library">
              {items.map((m) => (
                <li key={m.id} className="aj-photo">
                  {m.type === "video" ? <video src={m.url} className="aj-thumb" muted preload="metadata" aria-label={m.alt} /> : <img src={m.url} alt={m.alt} className="aj-thumb" width={160} height={120} loading="lazy" />}
                  <Button type="button" variant="outline" disabled={busy} onClick={() => onPick(m.id).then(() => setOpen(false))}>
                    Add to the job<span className="visually-hidden">: {m.alt}</span>
                  </Button>
                </li>
              ))}
            </ul>
          )}
        {lib.data && <PageNav info={lib.data} paging={paging} label="Library pages" />}
      </Dialog>
    </>
  );
}

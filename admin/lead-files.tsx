// A lead's files on its screen (ADR 067): what the homeowner and the
// insurer see on their private pages. The owner attaches documents (an
// estimate, a work authorization, a moisture log, a certificate of
// completion: a PDF or a photo), shares photos of the lead's jobs, and
// sees the photos the homeowner sent. The list follows the live stream
// (reloadKey). The server decides who may see it: admins on every lead,
// staff on the leads assigned to them.
import { useId, useState } from "react";
import { api, apiFetch, ApiError } from "./api";
import type * as wire from "./api.gen";
import { fmtDateTime } from "./listing";
import { useToast } from "./toast";
import { errorText, useResource } from "./use-resource";
import { Button } from "./ui";

const base = (leadId: string) => `/api/admin/leads/${encodeURIComponent(leadId)}/files`;

async function uploadDocument(leadId: string, kind: string, file: File): Promise<wire.LeadFileItem> {
  const body = new FormData();
  body.append("kind", kind); // before the file: the server reads parts in order
  body.append("file", file);
  const res = await apiFetch(base(leadId), { method: "POST", body });
  const out = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, out?.error || `HTTP ${res.status}`, out);
  return out as wire.LeadFileItem;
}

function FileRow({ f, onRemove }: { f: wire.LeadFileItem; onRemove: (f: wire.LeadFileItem) => void }) {
  const from = f.kind === "homeowner_photo" ? "sent by the homeowner" : f.kind === "crew_photo" ? "shared from the job" : `added by ${f.by || "the office"}`;
  return (
    <li className="alf-file">
      {f.photo ? <img src={f.href} alt={`${f.label}, ${from}`} width={96} height={72} className="alf-thumb" loading="lazy" /> : <span className="alf-pdf" aria-hidden="true">PDF</span>}
      <span className="alf-what"><strong>{f.label}</strong>{f.name && f.name !== f.label && <> {f.name}</>}<br />
        <span className="a-muted">{fmtDateTime(f.createdAt)}, {from}</span></span>
      <a className="a-btn a-btn--outline" href={f.href}>Download</a>
      <Button variant="outline" onClick={() => onRemove(f)}>{f.kind === "crew_photo" ? "Stop sharing" : "Remove"}</Button>
    </li>
  );
}

/** LeadFilesPanel is the Files part of a lead's dialog. */
export function LeadFilesPanel({ leadId, reloadKey = 0 }: { leadId: string; reloadKey?: number }) {
  const id = useId();
  const toast = useToast();
  const { data, error, refresh } = useResource(() => api<wire.LeadFiles>(base(leadId)), [leadId, reloadKey]);
  const [kind, setKind] = useState("estimate");
  const [busy, setBusy] = useState(false);
  if (error instanceof ApiError && error.status === 403) return null; // not this account's lead
  const act = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await what();
      toast({ title: done });
      refresh();
    } catch (err) {
      toast({ title: "Not saved", description: errorText(err), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  const remove = (f: wire.LeadFileItem) => act(() => api(`${base(leadId)}/${encodeURIComponent(f.id)}`, { method: "DELETE" }),
    f.kind === "crew_photo" ? "The photo is no longer shared" : "File removed");
  const share = (p: wire.ShareablePhoto) => act(() => api(`${base(leadId)}/shared/${encodeURIComponent(p.mediaId)}`, { method: "PUT" }), "Photo shared with the homeowner");
  const unshare = (p: wire.ShareablePhoto) => {
    const f = data?.files.find((x) => x.mediaId === p.mediaId);
    if (f) remove(f);
  };
  return (
    <section className="al-work__section" aria-labelledby={id + "t"}>
      <h3 id={id + "t"} className="al-work__title">Files the homeowner sees</h3>
      {error && <p role="alert">{errorText(error)} <Button variant="outline" onClick={refresh}>Try again</Button></p>}
      {data && (
        <>
          {data.files.length === 0 ? <p className="a-muted al-work__empty">No files yet.</p> : (
            <ul className="alf-list" aria-label="Files on the homeowner's page">
              {data.files.map((f) => <FileRow key={f.id} f={f} onRemove={remove} />)}
            </ul>
          )}
          <form className="alf-add" onSubmit={(e) => {
            e.preventDefault();
            const input = e.currentTarget.elements.namedItem("file") as HTMLInputElement;
            const file = input.files?.[0];
            if (!file) return;
            act(() => uploadDocument(leadId, kind, file), "Document added").then(() => { input.value = ""; });
          }}>
            <label htmlFor={id + "k"}>Document</label>
            <select id={id + "k"} value={kind} onChange={(e) => setKind(e.target.value)}>
              {data.kinds.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
            </select>
            <label htmlFor={id + "f"}>File (PDF up to {data.maxDocument}, or a photo up to {data.maxPhoto})</label>
            <input id={id + "f"} name="file" type="file" accept="application/pdf,image/jpeg,image/png,image/webp,image/gif" required />
            <Button type="submit" disabled={busy}>Add document</Button>
          </form>
          {data.jobPhotos.length > 0 && (
            <ul className="alf-list" aria-label="Photos of this lead's jobs">
              {data.jobPhotos.map((p) => (
                <li key={p.mediaId} className="alf-file">
                  <img src={p.url} alt={p.alt || `Photo of ${p.job}`} width={96} height={72} className="alf-thumb" loading="lazy" />
                  <span className="alf-what">{p.job}<br /><span className="a-muted">{p.published ? "On the website (with the homeowner's consent)" : "Private: not on the website"}</span></span>
                  {p.shared ? <Button variant="outline" disabled={busy} onClick={() => unshare(p)}>Stop sharing</Button>
                    : <Button variant="outline" disabled={busy} onClick={() => share(p)}>Share with the homeowner</Button>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

import { useEffect, useRef, useState } from "react";
import { Icon } from "../../components/icons";
import { api, ApiError, getToken } from "../api";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { Button, Card, ConfirmDialog, PageHeader } from "../ui";

interface Item { id: string; name: string; url: string; type: "image" | "video"; projectName: string; uploadedAt: string; path: string; width: number; height: number }

/** uploadOne posts one file. XMLHttpRequest rather than fetch: it streams
 * the file and reports progress. */
function uploadOne(project: string, file: File, token: () => string | null, onProgress: (p: number) => void): Promise<Item> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/admin/media?project=${encodeURIComponent(project)}`);
    const t = token();
    if (t) xhr.setRequestHeader("Authorization", `Bearer ${t}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let body: any = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as Item);
      else reject(new ApiError(xhr.status, body?.error || ""));
    };
    xhr.onerror = () => reject(new ApiError(0, ""));
    const fd = new FormData();
    fd.append("file", file, file.name);
    xhr.send(fd);
  });
}

/** Upload is the Photo Upload screen (spec 2.4, 4, 5, 8). */
export default function Upload(_: AdminPageProps) {
  const [items, setItems] = useState<Item[] | null>(null);
  const [project, setProject] = useState("");
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ name: string; pct: number } | null>(null);
  const [pending, setPending] = useState<Item | null>(null);
  const [deleting, setDeleting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const toast = useToast();

  const load = async () => {
    try {
      setItems(await api<Item[]>("/api/admin/media"));
    } catch (err) {
      console.error("Failed to load existing photos", err);
      toast({ title: "Failed to load existing photos", variant: "destructive" });
      setItems([]);
    }
  };
  useEffect(() => { load(); }, []);

  const nameMissing = project.trim() === "";
  const choose = () => {
    if (nameMissing) {
      toast({ title: "Please enter a project name before uploading.", variant: "destructive" });
      return;
    }
    fileInput.current?.click();
  };

  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const name = project.trim();
    if (!name) {
      toast({ title: "Please enter a project name before uploading.", variant: "destructive" });
      return;
    }
    setBusy(true);
    const added: Item[] = [];
    let failed = false;
    for (const file of Array.from(files)) {
      setProgress({ name: file.name, pct: 0 });
      try {
        const item = await uploadOne(name, file, getToken, (pct) => setProgress({ name: file.name, pct }));
        added.push(item);
        toast({ title: `${file.name} uploaded successfully!` });
      } catch (err) {
        const msg = err instanceof ApiError && err.message ? `Upload failed: ${err.message}` : "An error occurred during upload.";
        toast({ title: msg, variant: "destructive" });
        failed = true;
        break; // the batch stops at the first failing file
      }
    }
    if (failed) {
      // Files saved before the failure are in storage: show what is stored.
      await load();
    } else {
      setItems((cur) => [...added.reverse(), ...(cur || [])]);
    }
    setProgress(null);
    setBusy(false);
    if (fileInput.current) fileInput.current.value = "";
  };

  const confirmDelete = async () => {
    if (!pending) return;
    setDeleting(true);
    try {
      await api(`/api/admin/media/${encodeURIComponent(pending.id)}`, { method: "DELETE" });
      setItems((cur) => (cur || []).filter((i) => i.id !== pending.id));
      toast({ title: "Photo deleted successfully" });
    } catch (err) {
      const msg = err instanceof ApiError && err.message ? `Delete failed: ${err.message}` : "An error occurred during deletion.";
      toast({ title: msg, variant: "destructive" });
    } finally {
      setDeleting(false);
      setPending(null); // closes in every case
    }
  };

  return (
    <>
      <PageHeader title="Photo Upload" description="Add photos and videos of finished projects. They appear in the portfolio on the home page and /portfolio." />
      <Card title="Upload to a project">
        <div className="a-field">
          <label htmlFor="project-name" className="a-label">Project name</label>
          <input id="project-name" className="a-input" value={project} onChange={(e) => setProject(e.target.value)} maxLength={100}
            placeholder="e.g. Kitchen Fire Repair Marietta" aria-describedby="project-hint" />
          <p id="project-hint" className="a-muted">Photos are grouped by project. The name becomes the folder: “Kitchen Fire Repair” → kitchen-fire-repair.</p>
        </div>
        <input ref={fileInput} type="file" accept="image/*,video/*" multiple hidden onChange={(e) => onFiles(e.target.files)} data-testid="file-input" />
        <Button onClick={choose} disabled={nameMissing || busy}><Icon name="camera" size={16} /> {busy ? "Uploading..." : "Select Photos & Videos"}</Button>
        {progress && (
          <p className="a-muted" role="status">Uploading {progress.name}: {progress.pct}%</p>
        )}
      </Card>
      <Card title={items === null ? "Uploaded media" : `Uploaded media (${items.length})`}>
        {items === null ? (
          <p role="status">Loading existing media...</p>
        ) : items.length === 0 ? (
          <div className="a-empty"><Icon name="camera" size={32} /><p>No photos yet</p><p className="a-muted">Enter a project name and select photos or videos to start the portfolio.</p></div>
        ) : (
          <ul className="a-media">
            {items.map((it) => (
              <li key={it.id} className="a-media__item">
                {it.type === "video" ? (
                  <video src={it.url} controls preload="metadata" width={320} height={180}>Your browser does not support the video tag.</video>
                ) : (
                  <img src={it.url} alt={`${it.projectName}: ${it.name}`} loading="lazy" width={it.width || 320} height={it.height || 240} />
                )}
                <div className="a-media__meta">
                  <span className="a-badge a-badge--info">{it.projectName}</span>
                  <span className="a-muted">{it.type === "video" ? "Video" : "Photo"}</span>
                  <Button variant="danger" onClick={() => setPending(it)} aria-label={`Delete ${it.name}`}>Delete</Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog open={pending !== null} title="Delete this photo?" confirmLabel="Delete" busy={deleting}
        description={<p>This removes <strong>{pending?.name}</strong> from the {pending?.projectName} project and from the website. This cannot be undone.</p>}
        onConfirm={confirmDelete} onCancel={() => setPending(null)} />
    </>
  );
}

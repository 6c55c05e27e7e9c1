import { useRef, useState } from "react";
import { Icon } from "../../components/icons";
import { api, ApiError } from "../api";
import type * as wire from "../api.gen";
import { uploadMedia } from "../media-upload";
import { useToast } from "../toast";
import type { AdminPageProps } from "../types";
import { captureFrame, drawFrame } from "../poster";
import { Button, Card, ConfirmDialog, PageHeader } from "../ui";
import { PageNav, PageSummary, SearchBox, usePaging } from "../paging";
import { useResource } from "../use-resource";

/** Item is a GalleryItem as GET /api/admin/media lists it (media/gallery.go):
 * every photo and video of the library; portfolio marks project work. */
type Item = wire.MediaItem;

/** putPoster sends a poster (a captured frame or a picked image) for a
 * video; the server checks, re-encodes and stores it. */
function putPoster(id: string, image: Blob, name: string): Promise<Item> {
  const fd = new FormData();
  fd.append("file", image, name);
  return api<Item>(`/api/admin/media/${encodeURIComponent(id)}/poster`, { method: "PUT", body: fd });
}

/** Upload is the Photo Upload screen (spec 2.4, 4, 5, 8): the photo
 * library, and which of its photos the portfolio shows. */
export default function Upload(_: AdminPageProps) {
  const toast = useToast();
  // A page of the library at a time, newest first, searched on the server.
  const paging = usePaging(50);
  const library = useResource(() => api<wire.MediaLibrary>("/api/admin/media?" + paging.query).then((l) => ({ ...l, items: l.items as Item[] })), [paging.query], {
    onData: paging.fit,
    onError: (err) => {
      console.error("Failed to load existing photos", err);
      toast({ title: "Failed to load existing photos", variant: "destructive" });
    },
  });
  // A library that could not be read shows as empty, as before any upload.
  const items = library.data ? library.data.items : library.error ? [] : null;
  const setItems = (f: (cur: Item[]) => Item[]) => library.setData((d) => d && { ...d, items: f(d.items) });
  const [project, setProject] = useState("");
  const [caption, setCaption] = useState("");
  const [alt, setAlt] = useState("");
  const [work, setWork] = useState(true);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ name: string; pct: number; poster?: boolean } | null>(null);
  const [pending, setPending] = useState<Item | null>(null);
  const [deleting, setDeleting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const replace = (item: Item) => setItems((cur) => cur.map((i) => (i.id === item.id ? item : i)));

  /** capturePoster makes a just-uploaded video's poster from the local
   * file. A failure keeps the upload: the owner can pick an image. */
  const capturePoster = async (item: Item, file: File): Promise<Item> => {
    const url = URL.createObjectURL(file);
    try {
      return await putPoster(item.id, await captureFrame(url), "frame.jpg");
    } catch (err) {
      const why = err instanceof ApiError && err.message ? err.message : err instanceof Error ? err.message : "";
      toast({ title: `No poster for ${file.name}`, description: `${why ? why + ". " : ""}Choose a poster image for it below.`, variant: "destructive" });
      return item;
    } finally {
      URL.revokeObjectURL(url);
    }
  };

  const nameMissing = work && project.trim() === "";
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
    if (work && !name) {
      toast({ title: "Please enter a project name before uploading.", variant: "destructive" });
      return;
    }
    setBusy(true);
    const added: Item[] = [];
    let failed = false;
    for (const file of Array.from(files)) {
      setProgress({ name: file.name, pct: 0 });
      try {
        let item = await uploadMedia<Item>({ portfolio: work, project: name }, file, { caption, alt }, (pct) => setProgress({ name: file.name, pct }));
        toast({ title: `${file.name} uploaded successfully!` });
        if (item.type === "video") {
          setProgress({ name: file.name, pct: 100, poster: true });
          item = await capturePoster(item, file);
        }
        added.push(item);
      } catch (err) {
        const msg = err instanceof ApiError && err.message ? `Upload failed: ${err.message}` : "An error occurred during upload.";
        toast({ title: msg, variant: "destructive" });
        failed = true;
        break; // the batch stops at the first failing file
      }
    }
    // The library is read again: the new files lead its first page, and
    // after a failure it shows what was stored before it.
    if (paging.page !== 1 || paging.applied) paging.reset();
    else await library.refresh();
    setProgress(null);
    setBusy(false);
    if (fileInput.current) fileInput.current.value = "";
  };

  const confirmDelete = async () => {
    if (!pending) return;
    setDeleting(true);
    try {
      await api(`/api/admin/media/${encodeURIComponent(pending.id)}`, { method: "DELETE" });
      setItems((cur) => cur.filter((i) => i.id !== pending.id));
      toast({ title: "Photo deleted successfully" });
      library.refresh(); // the next page's first photo moves up
    } catch (err) {
      const msg = err instanceof ApiError && err.message ? `Delete failed: ${err.message}` : "An error occurred during deletion.";
      toast({ title: msg, variant: "destructive" });
    } finally {
      setDeleting(false);
      setPending(null); // closes in every case
    }
  };

  const inPortfolio = (items || []).filter((i) => i.portfolio);
  const projectCount = new Set(inPortfolio.map((i) => i.projectName)).size;

  return (
    <>
      <PageHeader title="Photo Upload" description="Every photo and video you upload is kept here, in your photo library, ready for pages and blog posts. The portfolio (Our Work on the home page, and the Portfolio page) shows only the ones marked as project work." />
      <Card title="Upload photos and videos">
        <label className="a-switch a-upload__work">
          <input type="checkbox" role="switch" checked={work} onChange={(e) => setWork(e.target.checked)} aria-describedby="work-hint" />
          <span><strong>Project work: show them in the portfolio</strong><br />
            <span id="work-hint" className="a-muted">{work
              ? "On: the photos appear in Our Work on the home page and on the Portfolio page, under the project's name."
              : "Off: the photos go to your photo library only, for pages and blog posts. You can show any of them in the portfolio later."}</span></span>
        </label>
        <div className="a-field">
          <label htmlFor="project-name" className="a-label">{work ? "Project name" : "Project name (optional)"}</label>
          <input id="project-name" className="a-input" value={project} onChange={(e) => setProject(e.target.value)} maxLength={100}
            placeholder="e.g. Kitchen Fire Repair Marietta" aria-describedby="project-hint" />
          <p id="project-hint" className="a-muted">Photos are grouped by project. The name becomes the folder: “Kitchen Fire Repair” → kitchen-fire-repair.</p>
        </div>
        <div className="a-form-grid">
          <div className="a-field">
            <label htmlFor="upload-caption" className="a-label">Caption (optional)</label>
            <input id="upload-caption" className="a-input" value={caption} onChange={(e) => setCaption(e.target.value)} aria-describedby="text-hint"
              placeholder="e.g. Kitchen dried and rebuilt in 9 days" />
          </div>
          <div className="a-field">
            <label htmlFor="upload-alt" className="a-label">Alt text (optional)</label>
            <input id="upload-alt" className="a-input" value={alt} onChange={(e) => setAlt(e.target.value)} aria-describedby="text-hint"
              placeholder="What the picture shows, for people who cannot see it" />
          </div>
        </div>
        <p id="text-hint" className="a-muted">These go with every file you select now; change them for each file below. Without alt text, the site names the project. A video's poster is taken about 1 second in.</p>
        <input ref={fileInput} type="file" accept="image/*,video/*" multiple hidden onChange={(e) => onFiles(e.target.files)} data-testid="file-input" />
        <Button onClick={choose} disabled={nameMissing || busy}><Icon name="camera" size={16} /> {busy ? "Uploading..." : "Select Photos & Videos"}</Button>
        {progress && (
          <p className="a-muted" role="status">{progress.poster ? `Making a poster for ${progress.name}...` : `Uploading ${progress.name}: ${progress.pct}%`}</p>
        )}
      </Card>
      <Card title={!library.data ? "Uploaded media" : `Uploaded media (${library.data.total}${library.data.q ? " found" : ""})`}>
        {library.data && (library.data.total > library.data.perPage || library.data.q || paging.q) && <>
          <SearchBox paging={paging} label="Search the library" placeholder="File name, project or caption" />
          <PageSummary info={library.data} rows={library.data.items.length} one="photo or video" many="photos and videos" />
        </>}
        {items !== null && items.length > 0 && library.data && library.data.total > library.data.perPage && (
          <p className="a-muted a-upload__summary">{`Of those on this page, the portfolio shows ${inPortfolio.length}. The others are in your photo library only.`}</p>
        )}
        {items !== null && items.length > 0 && !(library.data && library.data.total > library.data.perPage) && (
          <p className="a-muted a-upload__summary" role="status">{inPortfolio.length === 0
            ? "None of these is in the portfolio: the home page and the Portfolio page say “No projects yet”. Turn on “In the portfolio” under a photo to show it."
            : `The portfolio shows ${inPortfolio.length} of them, from ${projectCount} ${projectCount === 1 ? "project" : "projects"}. The others are in your photo library only.`}</p>
        )}
        {items === null ? (
          <p role="status">Loading existing media...</p>
        ) : items.length === 0 ? (library.data?.q ? null :
          <div className="a-empty"><Icon name="camera" size={32} /><p>No photos yet</p><p className="a-muted">Enter a project name and select photos or videos to start the portfolio.</p></div>
        ) : (
          <ul className="a-media">
            {items.map((it) => <MediaItem key={it.id} item={it} onSaved={replace} onDelete={() => setPending(it)} />)}
          </ul>
        )}
        {library.data && <PageNav info={library.data} paging={paging} label="Library pages" />}
      </Card>
      <ConfirmDialog open={pending !== null} title="Delete this photo?" confirmLabel="Delete" busy={deleting}
        description={<p>This removes <strong>{pending?.name}</strong> from {pending?.projectName ? `the ${pending.projectName} project` : "your photo library"} and from the website. This cannot be undone.</p>}
        onConfirm={confirmDelete} onCancel={() => setPending(null)} />
    </>
  );
}

/** PortfolioSwitch marks a photo as project work, or takes it out of the
 * portfolio, with one tap. A photo of no project asks for the project's
 * name first: the portfolio names every photo's project. */
function PortfolioSwitch({ item, onSaved }: { item: Item; onSaved: (i: Item) => void }) {
  const [busy, setBusy] = useState(false);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState("");
  const toast = useToast();
  const send = async (on: boolean, project = "") => {
    setBusy(true);
    try {
      const saved = await api<Item>(`/api/admin/media/${encodeURIComponent(item.id)}/portfolio`, { method: "PUT", body: JSON.stringify({ portfolio: on, project }) });
      onSaved(saved);
      setNaming(false);
      toast({ title: on ? `Shown in the portfolio under ${saved.projectName}` : "Taken out of the portfolio (still in your photo library)" });
    } catch (err) {
      toast({ title: err instanceof ApiError && err.message ? `Not changed: ${err.message}` : "An error occurred while changing the portfolio.", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  const id = `portfolio-${item.id}`;
  return (
    <div className="a-media__portfolio">
      <label className="a-switch">
        <input id={id} type="checkbox" role="switch" checked={item.portfolio} disabled={busy} aria-describedby={`${id}-hint`}
          onChange={(e) => (e.target.checked && !item.projectName ? setNaming(true) : send(e.target.checked))} />
        <strong>In the portfolio</strong>
      </label>
      <p className="a-muted a-media__hint" id={`${id}-hint`}>{item.portfolio ? "Shown as project work on the home page and the Portfolio page." : "Not shown in the portfolio."}</p>
      {naming && (
        <form className="a-media__name" onSubmit={(e) => { e.preventDefault(); send(true, name); }}>
          <label className="a-label" htmlFor={`${id}-project`}>Which project is it?</label>
          <input id={`${id}-project`} className="a-input" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required
            placeholder="e.g. Basement Flood Decatur" />
          <div className="a-row">
            <Button type="submit" disabled={busy || !name.trim()}>Show in the portfolio</Button>
            <Button variant="outline" onClick={() => setNaming(false)}>Cancel</Button>
          </div>
        </form>
      )}
    </div>
  );
}

/** MediaItem is one uploaded photo or video in the grid: its preview, its
 * caption and alt text (saved with Save), and for a video its poster. */
function MediaItem({ item, onSaved, onDelete }: { item: Item; onSaved: (i: Item) => void; onDelete: () => void }) {
  const [caption, setCaption] = useState(item.caption);
  const [alt, setAlt] = useState(item.altDefault ? "" : item.alt);
  const [busy, setBusy] = useState<"" | "text" | "poster">("");
  const video = useRef<HTMLVideoElement>(null);
  const posterInput = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const kind = item.type === "video" ? "Video" : "Photo";
  const changed = caption !== item.caption || alt !== (item.altDefault ? "" : item.alt);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy("text");
    try {
      const saved = await api<Item>(`/api/admin/media/${encodeURIComponent(item.id)}`, { method: "PATCH", body: JSON.stringify({ caption, alt }) });
      onSaved(saved);
      setCaption(saved.caption);
      setAlt(saved.altDefault ? "" : saved.alt);
      toast({ title: "Caption and alt text saved" });
    } catch (err) {
      toast({ title: err instanceof ApiError && err.message ? `Save failed: ${err.message}` : "An error occurred while saving.", variant: "destructive" });
    } finally {
      setBusy("");
    }
  };

  const sendPoster = async (make: () => Promise<Blob>, name: string) => {
    setBusy("poster");
    try {
      onSaved(await putPoster(item.id, await make(), name));
      toast({ title: "Poster saved" });
    } catch (err) {
      const msg = err instanceof ApiError || err instanceof Error ? err.message : "";
      toast({ title: msg ? `Poster failed: ${msg}` : "An error occurred while saving the poster.", variant: "destructive" });
    } finally {
      setBusy("");
    }
  };
  // The frame the preview shows, or (before it has loaded one) the
  // frame at about 1 s.
  const takeFrame = () => sendPoster(() => {
    const v = video.current;
    if (v && v.readyState >= 2) return drawFrame(v);
    return captureFrame(item.url, v && v.currentTime > 0 ? v.currentTime : undefined);
  }, "frame.jpg");

  return (
    <li className="a-media__item">
      {item.type === "video" ? (
        <video ref={video} src={item.url} poster={item.poster || undefined} controls preload="metadata" width={320} height={180} aria-label={item.alt}>
          Your browser does not support the video tag.
        </video>
      ) : (
        <img src={item.url} alt={item.alt} loading="lazy" width={item.width || 320} height={item.height || 240} />
      )}
      <div className="a-media__meta">
        <span className="a-media__what">{item.projectName
          ? <span className="a-badge a-badge--info">{item.projectName}</span>
          : <span className="a-badge">Photo library</span>} <span className="a-muted">{kind}</span></span>
        <Button variant="danger" onClick={onDelete} aria-label={`Delete ${item.name}`}>Delete</Button>
      </div>
      <PortfolioSwitch item={item} onSaved={onSaved} />
      {item.type === "video" && (
        <div className="a-media__poster">
          <p className="a-muted">{item.poster ? "Poster: shown before the video plays." : "No poster yet: the site shows a placeholder with the project name."}</p>
          <div className="a-row">
            <Button variant="outline" onClick={takeFrame} disabled={busy !== ""}>Use current frame</Button>
            <Button variant="outline" onClick={() => posterInput.current?.click()} disabled={busy !== ""}>Choose poster image</Button>
          </div>
          <input ref={posterInput} type="file" accept="image/jpeg,image/png,image/webp" hidden aria-label={`Poster image for ${item.alt}`}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) sendPoster(async () => f, f.name);
            }} />
        </div>
      )}
      <form className="a-media__text" onSubmit={save}>
        <label className="a-label" htmlFor={`caption-${item.id}`}>Caption</label>
        <input id={`caption-${item.id}`} className="a-input" value={caption} onChange={(e) => setCaption(e.target.value)} placeholder="Shown under the picture" />
        <label className="a-label" htmlFor={`alt-${item.id}`}>Alt text</label>
        <input id={`alt-${item.id}`} className="a-input" value={alt} onChange={(e) => setAlt(e.target.value)}
          placeholder={item.altDefault ? item.alt : "What the picture shows"} />
        <Button type="submit" variant={changed ? "primary" : "outline"} disabled={busy !== "" || !changed}>{busy === "text" ? "Saving..." : "Save"}</Button>
      </form>
    </li>
  );
}

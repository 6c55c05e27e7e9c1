import { useId, useState } from "react";
import { ApiError } from "../api";
import { uploadMedia } from "../media-upload";
import { useToast } from "../toast";
import { errorText } from "../use-resource";
import { Button, Card } from "../ui";
import { LibraryPicker } from "./library";
import { jobsApi, PHASES, type JobDetail, type JobPhoto, type Phase } from "../data/jobs";

/** JobPhotos are a job's photos and videos by phase: add them (from the
 * phone's camera roll or camera) with a phase, change a phase, take one
 * out of the job (it stays in the photo library). */
export function JobPhotos({ job, onChange }: { job: JobDetail; onChange: (j: JobDetail) => void }) {
  const id = useId();
  const toast = useToast();
  const [phase, setPhase] = useState<Phase>("before");
  const [progress, setProgress] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  const fail = (err: unknown) => {
    if (!(err instanceof ApiError && err.status === 401)) setProblem(errorText(err));
  };

  const add = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    setProblem("");
    const list = Array.from(files);
    let done = 0;
    try {
      for (const f of list) {
        setProgress(`Uploading ${done + 1} of ${list.length}...`);
        await uploadMedia({ portfolio: false, job: job.id, phase }, f, { caption: "", alt: "" }, (p) => setProgress(`Uploading ${done + 1} of ${list.length}: ${p}%`));
        done++;
      }
      toast({ title: done === 1 ? "Photo added" : `${done} photos added`, description: "Where they were taken is kept private: the site shows the city only." });
    } catch (err) {
      fail(err);
    } finally {
      setProgress("");
      setBusy(false);
      try { onChange(await jobsApi.get(job.id)); } catch (err) { fail(err); }
    }
  };

  const act = async (f: () => Promise<JobDetail>): Promise<void> => {
    setBusy(true);
    setProblem("");
    try { onChange(await f()); } catch (err) { fail(err); } finally { setBusy(false); }
  };

  return (
    <Card title={`Photos and videos (${job.photos.length})`} description="Before, during and after: a before and an after photo make the strongest proof of the work.">
      <div className="aj-add">
        <div className="a-field">
          <label className="a-label" htmlFor={id + "phase"}>Add as</label>
          <select id={id + "phase"} className="a-input" value={phase} onChange={(e) => setPhase(e.target.value as Phase)}>
            {PHASES.map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
          </select>
        </div>
        <div className="a-field">
          <label className="a-label" htmlFor={id + "files"}>Photos or videos</label>
          <input id={id + "files"} type="file" className="a-input" accept="image/*,video/*" multiple disabled={busy}
            onChange={(e) => { const fs = e.target.files; add(fs).then(() => { e.target.value = ""; }); }} />
        </div>
      </div>
      <LibraryPicker inJob={job.photos.map((p) => p.id)} busy={busy} onPick={(media) => act(() => jobsApi.addPhoto(job.id, media, phase))} />
      {progress && <p role="status">{progress}</p>}
      {problem && <p className="a-error" role="alert">{problem}</p>}
      {job.photos.length === 0 ? <p className="a-empty">No photos yet.</p> : (
        <ul className="aj-photos" aria-label="The job's photos and videos">
          {job.photos.map((p, i) => <PhotoItem key={p.id} photo={p} n={i + 1} busy={busy}
            onPhase={(ph) => act(() => jobsApi.setPhase(job.id, p.id, ph))} onRemove={() => act(() => jobsApi.removePhoto(job.id, p.id))} />)}
        </ul>
      )}
    </Card>
  );
}

function PhotoItem({ photo, n, busy, onPhase, onRemove }: { photo: JobPhoto; n: number; busy: boolean; onPhase: (p: Phase) => void; onRemove: () => void }) {
  const id = useId();
  return (
    <li className="aj-photo">
      {photo.kind === "video" ? <video src={photo.url} className="aj-thumb" muted preload="metadata" aria-label={photo.alt} /> : <img src={photo.url} alt={photo.alt} className="aj-thumb" width={160} height={120} loading="lazy" />}
      <label className="a-label" htmlFor={id}>Phase of {photo.kind === "video" ? "video" : "photo"} {n}</label>
      <select id={id} className="a-input" value={photo.phase} disabled={busy} onChange={(e) => onPhase(e.target.value as Phase)}>
        {PHASES.map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
      </select>
      <Button type="button" variant="outline" disabled={busy} onClick={onRemove}>Take out of the job<span className="visually-hidden"> ({photo.kind} {n})</span></Button>
    </li>
  );
}

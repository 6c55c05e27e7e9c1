import type { FileView, FilesForm, FilesView, Site } from "./props.gen";
import { word } from "./words";

// The files section of the private job pages (ADR 067): the documents
// the office attached, the crew's shared photos, the homeowner's own, and
// on the homeowner's page a plain form (no JavaScript needed) that sends
// photos and a message. Every file is downloaded through the page's own
// link; nothing here loads from anywhere else.

const w = (site: Site, key: string) => word(site, "jobfiles", key);

/** NOTICE_WORDS are the words of each answer the server sends back. */
const NOTICE_WORDS: Record<Exclude<FilesView["notice"], "">, string> = {
  sent: "sent", type: "errType", size: "errSize", count: "errCount", full: "errFull", empty: "errEmpty",
  damaged: "errDamaged", broken: "errBroken", busy: "errBusy", toolong: "errTooLong",
};

function Documents({ site, files }: { site: Site; files: FileView[] }) {
  return (
    <ul className="job-files__docs">
      {files.map((f) => (
        <li key={f.href} className="job-files__doc">
          <span className="job-files__kind">{f.label}</span>
          <span className="job-files__name">{f.name !== f.label ? f.name : ""}</span>
          <span className="job-files__meta">{f.date}{f.size ? ` · PDF, ${f.size}` : ""}</span>
          <a className="btn btn--outline job-files__get" href={f.href} download={f.photo ? true : undefined}>
            {w(site, "download")}<span className="visually-hidden">: {f.label}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function Photos({ files, title }: { files: FileView[]; title: string }) {
  return (
    <ul className="job-files__photos" aria-label={title}>
      {files.map((f, i) => (
        <li key={f.href}>
          <a href={f.href}>
            <img src={f.href} alt={`${f.name || f.label} ${i + 1}, ${f.date}`} loading="lazy" width={160} height={120} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** SendForm posts photos and a message to the homeowner's own link. */
function SendForm({ site, form }: { site: Site; form: FilesForm }) {
  const full = form.left === 0;
  return (
    <form method="post" action={form.photosAction} encType="multipart/form-data" className="estimate-form job-files__form">
      <h3>{w(site, "sendTitle")}</h3>
      {!full && (
        <div className="field">
          <label htmlFor="job-files-photos">{w(site, "photosLabel")}</label>
          <input id="job-files-photos" type="file" name="photos" accept="image/jpeg,image/png,image/webp,image/gif" multiple aria-describedby="job-files-limits" />
          <p id="job-files-limits" className="job-files__hint">
            JPEG, PNG, WebP or GIF: up to {form.perPost} at a time, {form.maxSize} each ({form.left} more for this job).
          </p>
        </div>
      )}
      <div className="field">
        <label htmlFor="job-files-message">{w(site, "messageLabel")}</label>
        <textarea id="job-files-message" name="message" rows={4} maxLength={form.maxMessage} />
      </div>
      <button type="submit" className="btn btn--primary">{w(site, "send")}</button>
    </form>
  );
}

/** JobFiles is the section; send is null on the insurer's read-only view.
 * Its title is an h2 inside a page, the h1 on the section's own page. */
export function JobFiles({ site, files, Title = "h2" }: { site: Site; files: FilesView; Title?: "h1" | "h2" }) {
  const notice = files.notice ? w(site, NOTICE_WORDS[files.notice]) : "";
  const empty = files.documents.length + files.photos.length + files.yours.length === 0;
  return (
    <section id="files" className="job-files" aria-labelledby="job-files-title">
      <Title id="job-files-title">{w(site, "title")}</Title>
      {notice && (files.notice === "sent"
        ? <p className="form-success" role="status">{notice}</p>
        : <p className="form-error" role="alert">{notice}</p>)}
      {empty && <p>{w(site, "none")}</p>}
      {files.documents.length > 0 && <><h3>{w(site, "documents")}</h3><Documents site={site} files={files.documents} /></>}
      {files.photos.length > 0 && <><h3>{w(site, "crewPhotos")}</h3><Photos files={files.photos} title={w(site, "crewPhotos")} /></>}
      {files.yours.length > 0 && (
        <>
          <h3>{files.send ? w(site, "yourPhotos") : w(site, "theirPhotos")}</h3>
          <Photos files={files.yours} title={files.send ? w(site, "yourPhotos") : w(site, "theirPhotos")} />
        </>
      )}
      {files.send && <SendForm site={site} form={files.send} />}
    </section>
  );
}

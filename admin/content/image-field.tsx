// The hero or cover photo of a page: a photo of the media
// library, the alt text the page gives it (required: the server says so
// when it is missing) and a caption. The picker lists the whole library
// and uploads a new photo in place (library only, never
// project work, so a cover never lands in the portfolio).
import { useCallback, useState } from "react";
import { fmtDateTime } from "../listing";
import { contentApi, type ContentProblem, type MediaItem } from "../data/content";
import { useResource } from "../use-resource";
import { Button, Dialog } from "../ui";
import { fieldId, Notes, runes } from "./fields";
import { PhotoUpload } from "./photo-upload";

export interface ImageValue { media: string; alt: string; caption?: string }

/** useMedia loads the photo library's newest photos once, when first wanted. */
function useMedia(wanted: boolean) {
  const [asked, setAsked] = useState(wanted);
  if (wanted && !asked) setAsked(true);
  // The newest 200 photos (the server's largest page), images only.
  const r = useResource(() => contentApi.media("type=image&perPage=200").then((lib) => lib.items), [], { skip: !asked });
  const { setData } = r;
  /** add puts a photo just uploaded at the top of the library. */
  const add = useCallback((m: MediaItem) => setData((cur) => [m, ...(cur || []).filter((i) => i.id !== m.id)]), [setData]);
  // Asking again shows the library as loading, as the first time.
  return { items: r.data, error: r.loading ? null : r.error, retry: r.retry, add };
}

export function ImageField({ fieldKey, label, value, onChange, problems }: {
  fieldKey: string; label: string; value: ImageValue | undefined | null; onChange: (v: ImageValue | undefined) => void;
  problems: ContentProblem[];
}) {
  const id = fieldId(fieldKey);
  const [picking, setPicking] = useState(false);
  const lib = useMedia(picking || !!value?.media);
  const chosen = value?.media ? lib.items?.find((m) => m.id === value.media) : undefined;
  const forKey = (k: string) => problems.filter((p) => p.field === k);
  const mediaProblems = problems.filter((p) => p.field === fieldKey || p.field === fieldKey + ".media" ||
    (p.field.startsWith(fieldKey + ".") && ![fieldKey + ".alt", fieldKey + ".caption"].includes(p.field)));
  const altProblems = forKey(fieldKey + ".alt");
  const capProblems = forKey(fieldKey + ".caption");
  const close = useCallback(() => setPicking(false), []);

  const pick = (m: MediaItem) => {
    onChange({
      media: m.id,
      alt: value?.alt || (m.altDefault ? "" : m.alt || ""),
      caption: value?.caption || m.caption || undefined,
    });
    setPicking(false);
  };
  /** uploaded uses a photo just uploaded from the picker, with the alt
   * text and caption written there. */
  const uploaded = (m: MediaItem, text: { alt: string; caption: string }) => {
    lib.add(m);
    onChange({ media: m.id, alt: text.alt, caption: text.caption || undefined });
    setPicking(false);
  };
  const set = (k: "alt" | "caption", v: string) => {
    const next: ImageValue = { media: value?.media || "", alt: value?.alt || "", caption: value?.caption };
    next[k] = v;
    if (!next.caption) delete next.caption;
    onChange(next);
  };

  return (
    <div className="a-field ac-field ac-image">
      <p className="visually-hidden" id={id + "-label"}>{label}</p>
      {!value ? (
        <div className="ac-image__none">
          <p className="a-muted">No photo: the page shows its usual design.</p>
          <Button variant="outline" id={id} onClick={() => setPicking(true)}>Choose photo<span className="visually-hidden"> for the {label.toLowerCase()}</span></Button>
        </div>
      ) : (
        <div className="ac-image__set">
          <div className="ac-image__thumb">
            {chosen ? (
              <img src={chosen.url} srcSet={chosen.srcset || undefined} sizes="240px" width={chosen.width || undefined} height={chosen.height || undefined}
                alt={value.alt || ""} loading="lazy" />
            ) : (
              <p className="a-muted">{!value.media ? "No photo chosen." : lib.error ? "The photo could not be shown." : lib.items ? "This photo is no longer in the media library." : "Loading the photo..."}</p>
            )}
          </div>
          <div className="ac-image__fields">
            {chosen && <p className="ac-hint">{chosen.projectName ? `${chosen.projectName} project` : "Photo library"}, uploaded {fmtDateTime(chosen.uploadedAt)}</p>}
            <div className="a-row">
              <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" id={id} aria-describedby={mediaProblems.length ? id + "-notes" : undefined}
                onClick={() => setPicking(true)}>Change photo<span className="visually-hidden"> of the {label.toLowerCase()}</span></Button>
              <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" onClick={() => onChange(undefined)}>Remove photo<span className="visually-hidden"> from the {label.toLowerCase()}</span></Button>
            </div>
            <Notes id={id + "-notes"} label={label} problems={mediaProblems} />
            <label className="a-label" htmlFor={id + "-alt"}>Alt text (required)</label>
            <p className="ac-hint" id={id + "-alt-hint"}>Say what the photo shows, for people who cannot see it.</p>
            <input id={id + "-alt"} className="a-input" aria-required="true" value={value.alt || ""} onChange={(e) => set("alt", e.target.value)}
              aria-invalid={altProblems.some((p) => p.hard) || undefined}
              aria-describedby={[id + "-alt-hint", id + "-alt-count", altProblems.length ? id + "-alt-notes" : ""].filter(Boolean).join(" ")} />
            <p className="ac-count" id={id + "-alt-count"}>{runes(value.alt || "")}/200 characters</p>
            <Notes id={id + "-alt-notes"} label="Alt text" problems={altProblems} />
            <label className="a-label" htmlFor={id + "-caption"}>Caption (optional)</label>
            <input id={id + "-caption"} className="a-input" value={value.caption || ""} onChange={(e) => set("caption", e.target.value)}
              aria-describedby={capProblems.length ? id + "-caption-notes" : undefined} />
            <Notes id={id + "-caption-notes"} label="Caption" problems={capProblems} />
          </div>
        </div>
      )}
      {!value && <Notes id={id + "-notes"} label={label} problems={mediaProblems} />}
      <Dialog open={picking} title={`Choose the ${label.toLowerCase()}`} onClose={close} wide>
        <PhotoUpload idBase={id + "-new"} onUploaded={uploaded} />
        <h3 className="ac-picker__head">Or choose one from your photo library</h3>
        {lib.error ? (
          <div>
            <p className="a-error" role="alert">The photo library could not be loaded: {lib.error.message}</p>
            <Button variant="outline" onClick={lib.retry}>Try again</Button>
          </div>
        ) : lib.items === null ? (
          <p role="status">Loading the photo library...</p>
        ) : lib.items.length === 0 ? (
          <p className="a-muted">Your photo library has no photos yet: upload one above.</p>
        ) : (
          <>
            <p className="a-muted">{lib.items.length} {lib.items.length === 1 ? "photo" : "photos"} in your photo library.</p>
            <ul className="ac-picker" aria-label="Photos">
              {lib.items.map((m) => (
                <li key={m.id}>
                  <button type="button" className="ac-picker__item" aria-pressed={m.id === value?.media} onClick={() => pick(m)}>
                    <img src={m.url} srcSet={m.srcset || undefined} sizes="180px" width={m.width || undefined} height={m.height || undefined} alt="" loading="lazy" />
                    <span className="ac-picker__name">{m.alt}</span>
                    <span className="ac-picker__project">{m.caption || `Uploaded ${fmtDateTime(m.uploadedAt)}`}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </Dialog>
    </div>
  );
}

// Uploading a photo from the content editor's photo field,
// without leaving the editor: on a phone the file picker offers the
// camera roll and the camera. The photo goes to the photo library only
// (portfolio=false): a post's cover never appears in the portfolio. The
// server checks the file (type, size, pixels) and the texts again.
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../api";
import type { MediaItem } from "../data/content";
import { uploadMedia } from "../media-upload";
import { Button } from "../ui";
import { runes } from "./fields";

export function PhotoUpload({ idBase, onUploaded }: {
  idBase: string; onUploaded: (m: MediaItem, text: { alt: string; caption: string }) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState("");
  const [alt, setAlt] = useState("");
  const [caption, setCaption] = useState("");
  const [pct, setPct] = useState<number | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const upload = async () => {
    if (busy) return;
    if (!file) return setError("Choose a photo first.");
    if (!alt.trim()) return setError("Write the alt text first: say what the photo shows.");
    setError("");
    setPct(0);
    try {
      const m = await uploadMedia<MediaItem>({ portfolio: false }, file, { caption, alt }, setPct);
      onUploaded(m, { alt: m.altDefault ? alt.trim() : m.alt, caption: m.caption });
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : "The photo could not be uploaded. Check the connection and try again.");
    } finally {
      setPct(null);
    }
  };

  const busy = pct !== null;
  // A group, not a form: the picker sits inside the editor's form. Enter
  // in its fields uploads, and never saves the page's draft.
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Enter" && (e.target as HTMLElement).tagName === "INPUT") {
      e.preventDefault();
      upload();
    }
  };
  return (
    <div className="ac-upload" role="group" aria-labelledby={idBase + "-head"} onKeyDown={onKey}>
      <h3 className="ac-picker__head" id={idBase + "-head"}>Upload a new photo</h3>
      <p className="ac-hint" id={idBase + "-hint"}>From this phone or computer (on a phone: your photos or the camera). It goes to your photo library,
        ready for any page, and is not shown in the portfolio.</p>
      <input ref={input} id={idBase + "-file"} type="file" accept="image/*" hidden aria-describedby={idBase + "-hint"}
        onChange={(e) => { const f = e.target.files?.[0]; if (f) { setFile(f); setError(""); } }} />
      <div className="ac-upload__pick">
        {preview && <img src={preview} alt="" className="ac-upload__preview" />}
        <div>
          <Button variant="outline" onClick={() => input.current?.click()} disabled={busy}>{file ? "Choose another photo" : "Choose a photo from this device"}</Button>
          {file && <p className="ac-hint ac-upload__name">{file.name}</p>}
        </div>
      </div>
      <label className="a-label" htmlFor={idBase + "-alt"}>Alt text of the new photo (required)</label>
      <input id={idBase + "-alt"} className="a-input" value={alt} onChange={(e) => { setAlt(e.target.value); setError(""); }} aria-required="true"
        placeholder="What the photo shows, for people who cannot see it" aria-describedby={idBase + "-alt-count"} />
      <p className="ac-count" id={idBase + "-alt-count"}>{runes(alt)}/200 characters</p>
      <label className="a-label" htmlFor={idBase + "-caption"}>Caption of the new photo (optional)</label>
      <input id={idBase + "-caption"} className="a-input" value={caption} onChange={(e) => setCaption(e.target.value)} />
      {error && <p className="a-error" role="alert">{error}</p>}
      <div className="a-row">
        <Button onClick={upload} disabled={busy}>{busy ? `Uploading... ${pct}%` : "Upload and use this photo"}</Button>
      </div>
      {busy && <p className="visually-hidden" role="status">Uploading the photo: {pct}%</p>}
    </div>
  );
}

// Uploading one photo or video to the media library: the
// Photo Upload screen's uploads (project work, with a project name) and
// the content editor's photo field's (the library only). The server
// checks everything again: the type, the size, the texts, the session.
import { ApiError, authHeaders, expired } from "./api";

/** Where an upload goes: project work (shown in the portfolio, a project
 * name required) or the photo library only; with a job, into that job
 * with a phase (the Jobs screen). */
export interface UploadTarget { portfolio: boolean; project?: string; job?: string; phase?: string }

/** uploadMedia posts one file, with the caption and alt text before it.
 * XMLHttpRequest rather than fetch: it streams the file and reports
 * progress. */
export function uploadMedia<T>(target: UploadTarget, file: File, text: { caption: string; alt: string }, onProgress: (p: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const q = new URLSearchParams();
    if (target.project?.trim()) q.set("project", target.project.trim());
    q.set("portfolio", String(target.portfolio));
    if (target.job) {
      q.set("job", target.job);
      if (target.phase) q.set("phase", target.phase);
    }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/admin/media?${q}`);
    // The session's headers, as api() sends them (the PIN's bearer token,
    // or for an account the cookie plus the CSRF header).
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let body: any = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status === 401) expired();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body?.error || ""));
    };
    xhr.onerror = () => reject(new ApiError(0, ""));
    const fd = new FormData();
    fd.append("caption", text.caption);
    fd.append("alt", text.alt);
    fd.append("file", file, file.name);
    xhr.send(fd);
  });
}

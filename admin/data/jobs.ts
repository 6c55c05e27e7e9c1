// Jobs (docs/jobs.md, ADR 061): finished work the crews did, with its
// photos before, during and after, its city and month. The server keeps
// where the photos were taken to itself and only suggests the city.
import { api } from "../api";
import type * as wire from "../api.gen";

/** JobList is GET /api/admin/work (web/work.JobList). */
export type JobList = wire.JobList;
/** JobRow is one job of the list (web/work.JobRow). */
export type JobRow = wire.JobRow;
/** JobDetail is one job as the screen edits it (web/work.JobDetail). */
export type JobDetail = wire.JobDetail;
/** JobPhoto is a photo or video of a job (web/work.JobPhoto). */
export type JobPhoto = wire.JobPhoto;
/** JobChoices are the cities and damage types to pick (web/work.JobChoices). */
export type JobChoices = wire.JobChoices;
export type Phase = JobPhoto["phase"];

/** JobFields are what a create or save sends (work.Fields). */
export type JobFields = wire.JobFields;

export const PHASES: { value: Phase; label: string }[] = [
  { value: "before", label: "Before" },
  { value: "during", label: "During" },
  { value: "after", label: "After" },
  { value: "", label: "Not sorted" },
];

const path = (id: string) => `/api/admin/work/${encodeURIComponent(id)}`;
const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

export const jobsApi = {
  list: (page: number) => api<JobList>(`/api/admin/work?page=${page}`),
  choices: () => api<JobChoices>("/api/admin/work/choices"),
  get: (id: string) => api<JobDetail>(path(id)),
  create: (f: JobFields) => api<JobDetail>("/api/admin/work", json("POST", f)),
  save: (id: string, version: number, f: JobFields) => api<JobDetail>(path(id), json("PUT", { ...f, version })),
  remove: (id: string) => api<wire.DeletedAnswer>(path(id), { method: "DELETE" }),
  addPhoto: (id: string, media: string, phase: Phase) => api<JobDetail>(`${path(id)}/photos`, json("POST", { mediaId: media, phase })),
  setPhase: (id: string, media: string, phase: Phase) => api<JobDetail>(`${path(id)}/photos/${encodeURIComponent(media)}`, json("PUT", { phase })),
  removePhoto: (id: string, media: string) => api<JobDetail>(`${path(id)}/photos/${encodeURIComponent(media)}`, { method: "DELETE" }),
  publish: (id: string, version: number) => api<JobDetail>(`${path(id)}/publish`, json("POST", { version })),
  unpublish: (id: string, version: number) => api<JobDetail>(`${path(id)}/unpublish`, json("POST", { version })),
};

/** monthName is "October 2026" for "2026-10", "" for none. */
export function monthName(m: string): string {
  const [y, mo] = m.split("-").map(Number);
  if (!y || !mo) return "";
  return new Date(Date.UTC(y, mo - 1, 1)).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
}

/** wordCount counts words as the server does (between spaces). */
export const wordCount = (s: string) => s.trim().split(/\s+/).filter(Boolean).length;

export const fieldsOf = (j: JobDetail): JobFields => ({
  title: j.title, cityId: j.cityId, month: j.month, service: j.service, story: j.story,
  leadId: j.leadId, customerName: j.customerName, nameConsent: j.nameConsent,
});

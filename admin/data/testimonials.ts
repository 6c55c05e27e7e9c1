// Testimonials and review requests (ADR 063): every customer whose job is
// marked completed is asked once for a review; what they write on the
// private feedback page waits here until the owner approves it for their
// city's page, or hides it. The server decides who may do what.

import { api } from "../api";
import type * as wire from "../api.gen";

/** TestimonialItem is one testimonial (web/feedback.TestimonialItem). */
export type TestimonialItem = wire.TestimonialItem;

/** TestimonialList is GET /api/admin/testimonials (web/feedback.TestimonialList). */
export type TestimonialList = wire.TestimonialList;

/** ReviewSettings are the review request's delay and link (web/feedback.ReviewSettings). */
export type ReviewSettings = wire.ReviewSettings;

export type TestimonialState = TestimonialItem["state"];

export const testimonialsApi = {
  list: (state: TestimonialState) => api<TestimonialList>(`/api/admin/testimonials?state=${state}`),
  moderate: (id: string, state: TestimonialState, text?: string) =>
    api<TestimonialItem>(`/api/admin/testimonials/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify(text === undefined ? { state } : { state, text }) }),
  settings: () => api<ReviewSettings>("/api/admin/review-requests"),
  saveSettings: (delayMinutes: string, reviewLink: string) =>
    api<ReviewSettings>("/api/admin/review-requests", { method: "PUT", body: JSON.stringify({ delayMinutes, reviewLink }) }),
};

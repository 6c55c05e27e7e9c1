// Inspection booking (ADR 066): the owner's availability, and the visits
// homeowners booked. The server computes the open windows and refuses a
// window that is full, past or blocked; the screens only show its answers.

import { api } from "../api";
import type * as wire from "../api.gen";

/** BookingAvailability is the owner's weekly hours, visit length, visits
 * at once, blocked days and notice (booking.Availability). */
export type BookingAvailability = wire.BookingAvailability;
/** AvailabilityAnswer is GET and PUT /api/admin/booking. */
export type AvailabilityAnswer = wire.AvailabilityAnswer;
/** VisitsAnswer is GET /api/admin/visits: today's and tomorrow's visits
 * and the open windows to move one to. */
export type VisitsAnswer = wire.VisitsAnswer;
export type VisitItem = wire.VisitItem;

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export const bookingApi = {
  availability: () => api<AvailabilityAnswer>("/api/admin/booking"),
  save: (availability: BookingAvailability) => api<AvailabilityAnswer>("/api/admin/booking", { method: "PUT", body: JSON.stringify({ availability }) }),
  visits: () => api<VisitsAnswer>("/api/admin/visits"),
  move: (id: string, start: string) => api<VisitItem>(`/api/admin/visits/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify({ start }) }),
};

// Unsaved changes: a screen with typed changes that are not
// saved registers a guard; leaving it through the sidebar, an in-app link
// or the browser's Back asks first, and closing or reloading the tab gets
// the browser's own warning.

let guard: (() => boolean) | null = null;

/** LEAVE_MESSAGE is the question asked before unsaved changes are left. */
export const LEAVE_MESSAGE = "You have unsaved changes. Leave without saving them?";

/** LOCATION_EVENT tells screens that the address changed inside the app
 * (a screen that keeps its state in the query string reads it again). */
export const LOCATION_EVENT = "admin:location";

/** setLeaveGuard registers dirty (null removes it): while it answers true,
 * leaving asks first. */
export function setLeaveGuard(dirty: (() => boolean) | null) {
  guard = dirty;
}

/** mayLeave says whether the screen may be left: no unsaved changes, or
 * the person confirms losing them. */
export function mayLeave(): boolean {
  if (!guard || !guard()) return true;
  if (!window.confirm(LEAVE_MESSAGE)) return false;
  guard = null;
  return true;
}

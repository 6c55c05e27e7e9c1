/** popoverSupported: the browser has the popover API, so a button with
 * popovertarget opens its [popover] by itself, without React (ADR 019).
 * Every current engine has it; Safari before 17, Chrome before 114 and
 * Firefox before 125 do not. */
export const popoverSupported = () => typeof HTMLElement !== "undefined" && "popover" in HTMLElement.prototype;

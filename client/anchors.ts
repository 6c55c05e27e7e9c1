/** scrollToAnchor scrolls to an element by id; a missing one is only
 * logged (spec 2.2). It reports whether the element was found. It needs no
 * React, so the public pages' first script can use it. */
export function scrollToAnchor(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) {
    console.info("Element with ID not found:", id);
    return false;
  }
  // The sections below the first are sized by a guess until they are laid
  // out (content-visibility, ADR 016). Lay out those from the top to the
  // target first, so it lands where it is, not where the guesses put it
  // (on a slow phone they were laid out after the scroll, and the form
  // moved a screen or more away).
  document.querySelectorAll<HTMLElement>(".section").forEach((s) => {
    if (s.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) s.classList.add("is-rendered");
  });
  el.scrollIntoView({ behavior: "smooth", block: "start" });
  return true;
}

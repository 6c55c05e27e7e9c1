/** scrollToAnchor scrolls to an element by id; a missing one is only
 * logged (spec 2.2). It reports whether the element was found. It needs no
 * React, so the public pages' first script can use it. */
export function scrollToAnchor(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) {
    console.info("Element with ID not found:", id);
    return false;
  }
  el.scrollIntoView({ behavior: "smooth", block: "start" });
  return true;
}

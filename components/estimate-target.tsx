import { createContext, useContext, type ReactNode } from "react";

/** FORM_ANCHOR is the id of the quote section (components/quote.tsx). */
export const FORM_ANCHOR = "contact-form";

/** estimateTarget is where a page's estimate links go (ADR 050): its own
 * quote section when it holds one, else /estimate, the form's own page.
 * One place per page, whichever button the visitor taps. */
export const estimateTarget = (form?: boolean) => (form ? `#${FORM_ANCHOR}` : "/estimate");

/** EstimateTarget carries the page's target to every component under
 * Layout (which sets it from its form prop). */
export const EstimateTarget = createContext<string>(estimateTarget(false));

/** useEstimateHref is the page's estimate target. */
export const useEstimateHref = () => useContext(EstimateTarget);

/** EstimateLink is an estimate button or link: to the page's target. */
export function EstimateLink({ className, children }: { className?: string; children: ReactNode }) {
  return <a href={useEstimateHref()} className={className}>{children}</a>;
}

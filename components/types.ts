// What the pages derive from their props. The props themselves are
// generated from the Go types the server hands to the renderer
// (components/props.gen.ts: go run ./cmd/tsgen, ADR 060); pages are pure
// functions of them.
import type * as props from "./props.gen";
import type { Site } from "./props.gen";

/** PageProps are the props of every page component (Go's site.PageProps)
 * with its page kind's data D: the loader's Page.Data, a generated type
 * (HomeData, CityData, ...). */
export type PageProps<D> = Omit<props.PageProps, "data"> & { data: D };

/** Contact is the slice of Site that interactive islands need; islands
 * serialise their props into the page, so they take no more than this. */
export type Contact = Pick<Site, "name" | "emergencyMode" | "phone" | "tel" | "words">;
export type LeadContact = Pick<Site, "phone" | "tel" | "leadFormUrl" | "leadFormScript">;

/** contactOf carries the Buttons group of the wording, the only one the
 * chrome and the call buttons read (components/words.ts). */
export const contactOf = (s: Site): Contact => ({ name: s.name, emergencyMode: s.emergencyMode, phone: s.phone, tel: s.tel, words: { buttons: s.words.buttons } });
export const leadContactOf = (s: Site): LeadContact => ({ phone: s.phone, tel: s.tel, leadFormUrl: s.leadFormUrl, leadFormScript: s.leadFormScript });

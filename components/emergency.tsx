import { Icon } from "./icons";
import type { Site } from "./props.gen";
import { word } from "./words";

// Everything on the public pages that promises emergency service (bars,
// banners, cards, badges, call buttons) follows one prop decided by Go:
// site.emergencyMode, System Settings' "24/7 emergency mode".
// On (the default) it shows the spec's 24/7 texts; off it says "Call us"
// with the business hours. Both dial site.phone, the one 24/7 line
// (ADR 039).

type Mode = Pick<Site, "emergencyMode">;
type Dial = Pick<Site, "emergencyMode" | "phone" | "tel" | "words">;

/** em picks the 24/7 text in emergency mode, the other one otherwise. */
export const em = (site: Mode, on: string, off: string) => (site.emergencyMode ? on : off);

/** callUs is the off-mode line: "Call us Mon–Fri 8:00 AM–6:00 PM". */
export const callUs = (site: Pick<Site, "hours">) => `Call us ${site.hours}`;

/** callLabel is a call button's text: the wording's call button ("Call
 * (770) 555-0134" by default) or the button's own label, or "Call us:
 * (770) 555-0134" outside emergency mode. */
export const callLabel = (site: Dial, on?: string) => (site.emergencyMode ? on ?? word(site, "buttons", "call") : `Call us: ${site.phone}`);

/** CallButton is a call-to-action link to the emergency line. */
export function CallButton({ site, className, size = 18, label }: { site: Dial; className: string; size?: number; label?: string }) {
  return <a href={site.tel} className={className}><Icon name="phone" size={size} /> {callLabel(site, label)}</a>;
}

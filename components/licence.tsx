import type { Site } from "./props.gen";

/** LicenceNumber is the state licence number as every page shows it,
 * "#" and all, in one unbreakable piece: a phone must never wrap it in
 * the middle of the number ("#RBQA00 / 6428"). */
export function LicenceNumber({ site }: { site: Pick<Site, "license"> }) {
  return <span className="licence-no">#{site.license}</span>;
}

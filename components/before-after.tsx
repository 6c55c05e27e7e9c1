import { useState, type CSSProperties } from "react";
import { Island } from "./island";
import type { JobPhoto } from "./props.gen";
import "../styles/jobs.css";

/** CompareLabels are the comparison's words (the site's wording, group
 * "jobs"), handed to the island. */
export interface CompareLabels { before: string; after: string; compare: string }

export interface CompareProps {
  before: JobPhoto;
  after: JobPhoto;
  labels: CompareLabels;
  /** eager: the comparison is at the top of its page (its LCP candidate). */
  eager?: boolean;
}

/** SIZES is how wide the comparison is drawn: the narrow container's
 * width on a wide screen, the screen's below. */
const SIZES = "(min-width: 860px) 820px, 100vw";

function Side({ photo, label, side, eager }: { photo: JobPhoto; label: string; side: "before" | "after"; eager?: boolean }) {
  return (
    <figure className={`ba__side ba__side--${side}`}>
      <img src={photo.src} srcSet={photo.srcset || undefined} sizes={photo.srcset ? SIZES : undefined} alt={photo.alt} width={photo.width} height={photo.height}
        loading={eager ? "eager" : "lazy"} decoding="async" fetchPriority={eager && side === "after" ? "high" : undefined} draggable={false} />
      <figcaption className="ba__label">{label}</figcaption>
    </figure>
  );
}

/** Compare is the before/after comparison (issue 33, ADR 062): the after
 * photo drawn over the before one, revealed from the left up to a native
 * range input, so arrow keys, Home, End and Page keys move it and a screen
 * reader announces it as a slider with its label and value. The box keeps
 * the after photo's proportions whatever the position: nothing moves. The
 * server renders the same markup; without scripts the stylesheet sets the
 * two photos side by side with their captions (@media (scripting: none)),
 * and with scripts the overlay is there from the first paint, so hydrating
 * shifts nothing either. */
export function Compare({ before, after, labels, eager }: CompareProps) {
  const [pos, setPos] = useState(50);
  const style = { "--ba-pos": `${pos}%`, "--ba-ratio": `${after.width} / ${after.height}` } as CSSProperties;
  return (
    <div className="ba__stage" style={style}>
      <Side photo={before} label={labels.before} side="before" eager={eager} />
      <Side photo={after} label={labels.after} side="after" eager={eager} />
      <span className="ba__handle" aria-hidden="true" />
      <input type="range" className="ba__range" min={0} max={100} step={1} value={pos}
        aria-label={labels.compare} aria-valuetext={`${labels.after} ${pos}%`}
        onChange={(e) => setPos(Number(e.currentTarget.value))} />
    </div>
  );
}

/** BeforeAfter is the comparison as a page shows it: the island, and the
 * hint under it. */
export function BeforeAfter(props: CompareProps) {
  return (
    <figure className="ba">
      <Island name="compare" component={Compare} props={props} />
      <figcaption className="ba__hint">{props.labels.compare}</figcaption>
    </figure>
  );
}

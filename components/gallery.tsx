import { useCallback, useEffect, useRef, useState } from "react";
import { Icon } from "./icons";
import { Island } from "./island";
import type { Gallery, GalleryItem } from "./props.gen";
import { galleryCount } from "./plural";

/** GalleryBlock is the portfolio block of spec 2.3: a looping, draggable,
 * keyboard-operable carousel showing 1, 2 or 3 items per view by screen
 * width, with its loading, empty and count states. */
export function GalleryBlock({ gallery, heading = "Our Recent Work" }: { gallery: Gallery | null; heading?: string }) {
  if (gallery === null) {
    return (
      <section id="portfolio" className="section" aria-busy="true" aria-labelledby="portfolio-title">
        <div className="container"><h2 id="portfolio-title" className="section__title">Loading Our Work...</h2></div>
      </section>
    );
  }
  const photos = gallery.items.length;
  return (
    <section id="portfolio" className="section" aria-labelledby="portfolio-title">
      <div className="container">
        <h2 id="portfolio-title" className="section__title">{heading}</h2>
        {photos === 0 ? (
          <div className="empty">
            <Icon name="camera" size={40} />
            <p className="empty__title">No projects yet</p>
            <p>Our project gallery will display completed work once available.</p>
          </div>
        ) : (
          <>
            <p className="section__lead">{galleryCount(gallery.items.filter((i) => i.type !== "video").length, gallery.items.filter((i) => i.type === "video").length, gallery.projectCount)}</p>
            <Island name="carousel" component={Carousel} props={{ items: gallery.items }} />
          </>
        )}
      </div>
    </section>
  );
}

/** NO_POSTER is a transparent pixel: a video without a poster shows its
 * designed placeholder through it instead of the browser's black box
 * (Chromium paints the box dark until a poster or a frame covers it). */
const NO_POSTER = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

/** Slide is one card: the picture alone in its box, so nothing covers a
 * video's controls, and below it the project badge, the Photo or Video
 * label and the owner's caption. A video has its poster (a frame captured
 * at upload, or an image the owner picked), or else a placeholder naming
 * the project; it loads nothing until played (preload none). ADR 024. */
function Slide({ item, index, total }: { item: GalleryItem; index: number; total: number }) {
  const video = item.type === "video";
  return (
    // The slide is a group (a figure with a caption may not take another
    // role, so the figure sits inside it).
    <div className="slide" role="group" aria-roledescription="slide" aria-label={`${index + 1} of ${total}: ${item.projectName}`}>
      <figure className="slide__figure">
        <div className="slide__media">
          {video ? (
            <>
              {!item.poster && (
                <div className="slide__placeholder" aria-hidden="true">
                  <Icon name="video" size={40} />
                  <span>{item.projectName}</span>
                </div>
              )}
              <video src={item.url} controls preload="none" poster={item.poster || NO_POSTER} aria-label={item.alt}
                width={item.width || 640} height={item.height || 360}>
                Your browser does not support the video tag.
              </video>
            </>
          ) : (
            <img src={item.url} srcSet={item.srcset || undefined} sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
              alt={item.alt} loading="lazy" decoding="async" width={item.width || 800} height={item.height || 600} draggable={false} />
          )}
        </div>
        <figcaption className="slide__caption">
          <span className="slide__badge">{item.projectName}</span>
          <span className="slide__type">{video ? "Video" : "Photo"}</span>
          {item.caption && <span className="slide__text">{item.caption}</span>}
        </figcaption>
      </figure>
    </div>
  );
}

export function Carousel({ items }: { items: GalleryItem[] }) {
  const track = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const drag = useRef<{ x: number; left: number; moved: boolean } | null>(null);

  const go = useCallback((i: number) => {
    const el = track.current;
    if (!el) return;
    const n = items.length;
    const next = ((i % n) + n) % n; // loops both ways
    const slide = el.children[next] as HTMLElement | undefined;
    if (slide) el.scrollTo({ left: slide.offsetLeft - el.offsetLeft, behavior: "smooth" });
    setActive(next);
  }, [items.length]);

  useEffect(() => {
    const el = track.current;
    if (!el) return;
    const onScroll = () => {
      const w = (el.children[0] as HTMLElement | undefined)?.offsetWidth || 1;
      setActive(Math.min(items.length - 1, Math.round(el.scrollLeft / w)));
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [items.length]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowRight") { e.preventDefault(); go(active + 1); }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(active - 1); }
  };
  const onPointerDown = (e: React.PointerEvent) => {
    if (e.pointerType !== "mouse" || !track.current) return;
    // A press on a video works its controls: dragging along the seek bar
    // must seek, not move the carousel. Chromium's controls keep their
    // pointer events to themselves; this covers browsers whose do not.
    if ((e.target as Element).closest("video")) return;
    drag.current = { x: e.clientX, left: track.current.scrollLeft, moved: false };
    track.current.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d || !track.current) return;
    const dx = e.clientX - d.x;
    if (Math.abs(dx) > 4) d.moved = true;
    track.current.scrollLeft = d.left - dx;
  };
  const onPointerUp = (e: React.PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d || !track.current) return;
    track.current.releasePointerCapture(e.pointerId);
    const dx = e.clientX - d.x;
    if (Math.abs(dx) > 40) go(active + (dx < 0 ? 1 : -1));
    else go(active);
  };
  const dots = Math.min(items.length, 5);
  return (
    <div className="carousel" role="region" aria-roledescription="carousel" aria-label="Project photos and videos" onKeyDown={onKeyDown}>
      <div ref={track} className="carousel__track" tabIndex={0} aria-label="Use the arrow keys to move between projects"
        onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp}>
        {items.map((it, i) => <Slide key={it.id} item={it} index={i} total={items.length} />)}
      </div>
      <div className="carousel__controls">
        <button type="button" className="carousel__btn" onClick={() => go(active - 1)} aria-label="Previous slide"><Icon name="chevron-left" /></button>
        <div className="carousel__dots" aria-hidden="true">
          {Array.from({ length: dots }, (_, i) => (
            <span key={i} className={"carousel__dot" + (active % dots === i ? " is-active" : "")} />
          ))}
        </div>
        <button type="button" className="carousel__btn" onClick={() => go(active + 1)} aria-label="Next slide"><Icon name="chevron-right" /></button>
      </div>
    </div>
  );
}

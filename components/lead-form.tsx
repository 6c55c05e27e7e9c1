import { useEffect, useRef } from "react";
import { EstimateForm, type FormPresets } from "./estimate-form";
import type { LeadContact } from "./types";
import type { FormWords } from "./words";

let scriptInjected = false;

/** LeadForm is the quote form: the CRM's embedded form when one is
 * configured, else the native estimate form. The embed's script is injected
 * once per page, and only when the form nears the viewport, so it never
 * delays the first paint or the largest contentful paint. */
export function LeadForm({ site, height, words, presets }: { site: LeadContact; height: number; words: FormWords; presets?: FormPresets }) {
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (!site.leadFormUrl || !box.current) return;
    const load = () => {
      if (frame.current && !frame.current.src) frame.current.src = site.leadFormUrl;
      if (site.leadFormScript && !scriptInjected) {
        scriptInjected = true;
        const s = document.createElement("script");
        s.src = site.leadFormScript;
        s.async = true;
        document.body.appendChild(s);
      }
    };
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        load();
      }
    }, { rootMargin: "400px" });
    io.observe(box.current);
    return () => io.disconnect();
  }, [site.leadFormUrl, site.leadFormScript]);

  if (!site.leadFormUrl) return <EstimateForm site={site} words={words} presets={presets} />;
  return (
    <div ref={box} className="lead-embed" style={{ minHeight: height }}>
      <iframe ref={frame} title="Free estimate request form" style={{ width: "100%", height, border: 0 }} loading="lazy" />
      <noscript><p>Please enable JavaScript to use the form, or call <a href={site.tel}>{site.phone}</a>.</p></noscript>
    </div>
  );
}

// Real-user Core Web Vitals through the analytics beacon. Loaded
// by client/beacon.ts after the page's load event, as its own chunk.
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from "web-vitals";

export function reportVitals(send: (b: { t: string; p: string; m: string; v: number }) => void, path: string) {
  const report = (m: Metric) => send({ t: "vital", p: path, m: m.name, v: Math.round(m.value * 1000) / 1000 });
  onLCP(report);
  onINP(report);
  onCLS(report);
  onFCP(report);
  onTTFB(report);
}

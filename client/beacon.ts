// The analytics beacon (ADR 015): after load it sends one page
// view (path, referrer, screen width, UTM parameters) with
// navigator.sendBeacon, then tap-to-call clicks and CRM form views as they
// happen, and the page's Core Web Vitals (web-vitals, loaded after load).
// No cookies, no storage; nothing at all when the browser asks not to be
// tracked (DNT or Global Privacy Control). The server drops bots.
type Beacon = { t: string; p: string; r?: string; w?: number; us?: string; um?: string; uc?: string; m?: string; v?: number };

const optedOut = () => navigator.doNotTrack === "1" || (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

export function send(b: Beacon) {
  const body = JSON.stringify(b);
  if (!navigator.sendBeacon?.("/api/collect", body)) fetch("/api/collect", { method: "POST", body, keepalive: true }).catch(() => {});
}

export function startBeacon() {
  if (optedOut()) return;
  const p = location.pathname;
  const start = () => setTimeout(() => {
    const q = new URLSearchParams(location.search);
    send({ t: "pageview", p, r: document.referrer, w: innerWidth, us: q.get("utm_source") || "", um: q.get("utm_medium") || "", uc: q.get("utm_campaign") || "" });
    import("./vitals").then((m) => m.reportVitals(send, p), () => {});
  }, 0);
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
  document.addEventListener("click", (e) => {
    if ((e.target as Element | null)?.closest?.('a[href^="tel:"]')) send({ t: "tel_click", p });
  }, true);
  const form = document.querySelector("[data-island=leadform]");
  if (form && "IntersectionObserver" in window) {
    const io = new IntersectionObserver((es) => {
      if (es.some((x) => x.isIntersecting)) {
        io.disconnect();
        send({ t: "form_view", p });
      }
    });
    Array.from(form.children).forEach((c) => io.observe(c));
  }
}

// The leads screens' live stream (ADR 041, docs/leads-api.md).
//
// One EventSource per tab on GET /api/admin/leads/events, shared by every
// screen that calls useLeadChanges: opened when the first subscriber
// mounts, closed with the last. The server says which lead changed and
// how, never the lead's data: a screen refetches through the masked APIs
// it already uses. After every (re)connect the server sends "resync" and
// every subscriber is called once, so a screen refetches what it may have
// missed while the phone slept or the network was gone.
//
// Reconnecting: after an error with backoff (1 s doubling to 30 s, with
// jitter); at once when the tab comes back (visibilitychange, pageshow)
// or the network does (online); and when no event (the server pings
// every 25 s) arrived for 60 s, which is how a connection that died in
// sleep shows. A stream the server ended because the session opened a
// newer one ("replaced": three per session) or ended ("signed-out") is
// not reopened until the tab is shown again.
import { createElement, useEffect, useRef, useState } from "react";
import type * as wire from "./api.gen";

/** LeadChange is one change the server announced; kind "resync" after a
 * (re)connect (leadId is empty: refetch everything shown). */
export type LeadChange = Omit<wire.LeadChange, "kind"> & { kind: wire.LeadChange["kind"] | "resync" };

const URL = "/api/admin/leads/events";
const STALE_MS = 60_000; // two heartbeats missed: the connection is dead
const WAKE_STALE_MS = 30_000; // back from sleep with nothing heard for this long: reconnect at once
const MAX_BACKOFF_MS = 30_000;
const THROTTLE_MS = 500; // a burst of changes reloads a screen at most twice a second

type Sub = { fn: (c: LeadChange) => void; last: number; timer: ReturnType<typeof setTimeout> | null; pending: LeadChange | null };

const subs = new Set<Sub>();
const liveListeners = new Set<(live: boolean) => void>();
let es: EventSource | null = null;
let live = false;
let attempts = 0;
let lastHeard = 0;
let retry: ReturnType<typeof setTimeout> | null = null;
let watchdog: ReturnType<typeof setInterval> | null = null;

function setLive(v: boolean) {
  if (v === live) return;
  live = v;
  liveListeners.forEach((l) => l(v));
}

/** deliver calls each subscriber: at once, then at most once per
 * THROTTLE_MS with the latest change of a burst. */
function deliver(c: LeadChange) {
  const now = Date.now();
  subs.forEach((s) => {
    if (s.timer) { s.pending = c; return; }
    const wait = s.last + THROTTLE_MS - now;
    if (wait <= 0) { s.last = now; s.fn(c); return; }
    s.pending = c;
    s.timer = setTimeout(() => {
      s.timer = null;
      s.last = Date.now();
      const p = s.pending;
      s.pending = null;
      if (p && subs.has(s)) s.fn(p);
    }, wait);
  });
}

function parse(e: Event): any {
  try { return JSON.parse((e as MessageEvent).data); } catch { return {}; }
}

function close() {
  if (retry) { clearTimeout(retry); retry = null; }
  if (es) { es.close(); es = null; }
  setLive(false);
}

function connect() {
  close();
  if (!subs.size || typeof EventSource === "undefined") return;
  const src = new EventSource(URL);
  es = src;
  lastHeard = Date.now();
  const heard = () => { if (es === src) lastHeard = Date.now(); };
  src.addEventListener("resync", (e) => {
    if (es !== src) return;
    heard();
    attempts = 0;
    setLive(true);
    deliver({ kind: "resync", leadId: "", at: parse(e).at ?? new Date().toISOString() });
  });
  src.addEventListener("change", (e) => {
    if (es !== src) return;
    heard();
    const c = parse(e);
    if (c.kind && c.leadId) deliver(c as LeadChange);
  });
  src.addEventListener("ping", heard);
  src.addEventListener("end", (e) => {
    if (es !== src) return;
    const reason = parse(e).reason;
    close();
    if (reason === "shutdown") { schedule(); return; } // the server restarts: another instance answers
    // Replaced or signed out: not reopened until the tab is shown again.
    // Signed out: the screens' next request meets the expired session.
    if (reason === "signed-out") deliver({ kind: "resync", leadId: "", at: new Date().toISOString() });
  });
  src.onerror = () => {
    if (es !== src) return;
    // The browser would retry at a fixed pace, or not at all after a
    // refusal (401, 503): retry here, with backoff.
    close();
    schedule();
  };
}

function schedule() {
  if (retry || !subs.size) return;
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts);
  attempts += 1;
  retry = setTimeout(() => { retry = null; connect(); }, base / 2 + Math.random() * (base / 2));
}

/** wake reconnects at once when the tab or the network comes back and the
 * stream is down or has been silent (it may have died in sleep). */
function wake() {
  if (!subs.size) return;
  if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
  if (es && live && Date.now() - lastHeard < WAKE_STALE_MS) return;
  attempts = 0;
  connect();
}

function offline() {
  if (es) { close(); schedule(); }
}

function start() {
  window.addEventListener("online", wake);
  window.addEventListener("offline", offline);
  window.addEventListener("pageshow", wake);
  document.addEventListener("visibilitychange", wake);
  watchdog = setInterval(() => {
    if (es && Date.now() - lastHeard > STALE_MS) connect();
  }, 10_000);
  attempts = 0;
  connect();
}

function stop() {
  window.removeEventListener("online", wake);
  window.removeEventListener("offline", offline);
  window.removeEventListener("pageshow", wake);
  document.removeEventListener("visibilitychange", wake);
  if (watchdog) { clearInterval(watchdog); watchdog = null; }
  close();
}

/** useLeadChanges calls onChange for every lead change the server
 * announces (throttled) and once after every (re)connect, and says
 * whether the stream is connected. A screen shown to sessions that may
 * not read leads passes enabled=false, and opens no stream. */
export function useLeadChanges(onChange: (c: LeadChange) => void, enabled = true): { live: boolean } {
  const fn = useRef(onChange);
  fn.current = onChange;
  const [isLive, setIsLive] = useState(live);
  useEffect(() => {
    if (!enabled) return undefined;
    const s: Sub = { fn: (c) => fn.current(c), last: 0, timer: null, pending: null };
    subs.add(s);
    liveListeners.add(setIsLive);
    setIsLive(live);
    if (subs.size === 1) start();
    return () => {
      if (s.timer) clearTimeout(s.timer);
      subs.delete(s);
      liveListeners.delete(setIsLive);
      if (!subs.size) stop();
    };
  }, [enabled]);
  return { live: isLive };
}

/** LiveStatus shows whether the screen updates by itself: "Live" while
 * the stream is connected, "Not live" while it reconnects (both take the
 * same width, so the buttons beside it do not move). */
export function LiveStatus({ live: on }: { live: boolean }) {
  return createElement("span", { className: on ? "a-live a-live--on" : "a-live", role: "status", "data-live": on ? "on" : "off",
    title: on ? "New leads and changes show here as they happen." : "Reconnecting. Until then, new leads and changes show when you tap Refresh." },
    on ? "Live" : "Not live");
}

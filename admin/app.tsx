import "../styles/admin.css";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Head } from "../components/head";
import { api, beginSession, endSession, onSessionExpired } from "./api";
import { Gate } from "./gate";
import { registerWorker } from "./push";
import { LOCATION_EVENT, mayLeave } from "./leave";
import { AdminLayout } from "./layout";
import { useToast } from "./toast";
import { ADMIN_PAGES } from "./pages";
import { adminPath, SCREENS, screenFor } from "./screens";
import { ACCOUNT_ONLY, canOpen } from "./capabilities";
import { SessionProvider, type SessionControls } from "./use-session";
import type { Session } from "./session";
import { NotAvailable } from "./unavailable";
import type { AdminPage, Site } from "../components/props.gen";

const slugFrom = (path: string) => path.replace(/^\/admin\/?/, "").split("/")[0];

/** AdminApp is the admin area in the browser. On load it asks
 * the server whether an account session is live (its cookie survives a
 * reload and a new tab): if so, the screen asked for opens at once; if it
 * is between its password and its code, that step resumes; otherwise the
 * gate shows. A PIN session is never kept across loads (spec 4). Then
 * client-side navigation between screens keeps the in-memory PIN token. */
export function AdminApp({ initial, site, baseUrl }: { initial: string; pages?: AdminPage[]; site: Site; baseUrl: string }) {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(true);
  const [resume, setResume] = useState<Session | null>(null);
  const [wantAccount, setWantAccount] = useState(false);
  const [slug, setSlug] = useState(initial);
  const decided = useRef(false); // a sign-in at the gate wins over a late answer to the load-time check
  const toast = useToast();

  useEffect(() => {
    // Locked on every load: any earlier flag is cleared (spec 4).
    sessionStorage.removeItem("admin_authenticated");
    onSessionExpired((wasPin) => {
      sessionStorage.removeItem("admin_authenticated");
      setSession(null);
      setResume(null);
      toast({ title: "Session expired", description: wasPin ? "Enter your PIN again to continue." : "Sign in again to continue.", variant: "destructive" });
    });
    api<Session>("/api/admin/session").then((s) => {
      if (decided.current || !s || s.kind !== "account") return;
      if (s.stage === "full") {
        beginSession(null);
        setSession(s);
      } else {
        setResume(s);
      }
    }).catch(() => { /* no live session: the gate */ }).finally(() => setChecking(false));
    // The admin's own service worker (scope /admin/): it shows new leads'
    // push notifications and makes the admin installable. Registered once
    // the page has loaded, so it never competes with the first paint.
    const register = () => { registerWorker(); };
    if (document.readyState === "complete") setTimeout(register, 0);
    else window.addEventListener("load", register, { once: true });
    // Back and Forward: unsaved changes ask first (a refusal puts the
    // address back); screens that keep state in the query string read it.
    let shown = window.location.pathname + window.location.search;
    const onPop = () => {
      if (!mayLeave()) {
        history.pushState(null, "", shown);
        return;
      }
      shown = window.location.pathname + window.location.search;
      setSlug(slugFrom(window.location.pathname));
      window.dispatchEvent(new Event(LOCATION_EVENT));
    };
    const onMove = () => { shown = window.location.pathname + window.location.search; };
    window.addEventListener(LOCATION_EVENT, onMove);
    window.addEventListener("popstate", onPop);
    return () => {
      window.removeEventListener("popstate", onPop);
      window.removeEventListener(LOCATION_EVENT, onMove);
    };
  }, [toast]);

  // navigate opens a screen, with a query string when next has one
  // ("content?item=ID"); unsaved changes ask first.
  const navigate = useCallback((next: string) => {
    if (!mayLeave()) return;
    const [to, query] = next.split("?");
    const target = adminPath(to) + (query ? "?" + query : "");
    if (target !== window.location.pathname + window.location.search) history.pushState(null, "", target);
    setSlug(to);
    window.dispatchEvent(new Event(LOCATION_EVENT));
    window.scrollTo({ top: 0, behavior: "instant" as ScrollBehavior });
  }, []);

  const signedIn = useCallback((s: Session) => {
    decided.current = true;
    setResume(null);
    setWantAccount(false);
    setSession(s);
  }, []);

  const controls = useMemo<SessionControls | null>(() => session && {
    session,
    update: (s: Session) => setSession(s),
    signOut: () => {
      if (!mayLeave()) return;
      const account = session.kind === "account";
      sessionStorage.removeItem("admin_authenticated");
      setSession(null);
      setWantAccount(false);
      endSession().then((ok) => {
        if (!account) return;
        toast(ok ? { title: "Signed out", description: "Your session has ended on this device." }
          : { title: "Sign-out not confirmed", description: "The server could not be reached. Sign out again when you are back online.", variant: "destructive" });
      });
    },
    toAccountSignIn: () => {
      // Leaving the PIN session for an account: the PIN session ends on
      // the server, the screen (and its ?lead= link) stays to come back to.
      sessionStorage.removeItem("admin_authenticated");
      endSession();
      setSession(null);
      setWantAccount(true);
    },
  }, [session, toast]);

  const screen = screenFor(slug) || SCREENS[0];
  const Page = ADMIN_PAGES[screen.slug] || ADMIN_PAGES[""];
  const accountScreen = ACCOUNT_ONLY.has(screen.capability);
  return (
    <>
      <Head tags={[
        { tag: "title", attrs: {}, text: `${screen.title} | Admin` },
        { tag: "link", attrs: { rel: "canonical", href: baseUrl + adminPath(screen.slug) } },
      ]} />
      {!controls ? (
        <Gate onSignedIn={signedIn} resume={resume} checking={checking} focusAccount={wantAccount || accountScreen}
          accountHint={accountScreen ? `The ${screen.title} screen needs an account sign-in.` : undefined} />
      ) : (
        <SessionProvider value={controls}>
          <AdminLayout current={screen.slug} navigate={navigate}>
            {canOpen(controls.session, screen)
              ? <Page key={screen.slug} navigate={navigate} site={site} />
              : <NotAvailable key={screen.slug} screen={screen} navigate={navigate} />}
          </AdminLayout>
        </SessionProvider>
      )}
    </>
  );
}

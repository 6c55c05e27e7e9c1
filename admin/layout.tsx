import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Icon } from "../components/icons";
import { newLeadCount, onLeadsChanged } from "./data/leads";
import { useLeadChanges } from "./lead-stream";
import { adminPath, SCREENS, screenFor } from "./screens";
import { can, canOpen } from "./capabilities";
import { useSession } from "./use-session";
import { Badge } from "./ui";
import { useResource } from "./use-resource";

export { adminPath };

const ROLE_LABEL: Record<string, string> = { admin: "Admin", staff: "Staff", editor: "Editor" };

export const SIDEBAR_COOKIE = "sidebar_state";
const COOKIE_MAX_AGE = 60 * 60 * 24 * 7; // 7 days (spec 9)
export const MOBILE_BREAKPOINT = 768;

function readCookie(): boolean {
  const m = document.cookie.match(/(?:^|; )sidebar_state=(true|false)/);
  return m ? m[1] === "true" : true;
}

function useIsMobile() {
  const [mobile, setMobile] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`);
    const on = () => setMobile(mq.matches);
    on();
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return mobile;
}

/** useNewLeads is the sidebar badge's count of leads with the status new,
 * for a session that may read leads (null otherwise, or before the first
 * answer). It is read again on every screen change, after a change made
 * in this tab, and from a live stream of lead changes. */
export function useNewLeads(enabled: boolean, current: string) {
  // A failed reading keeps the last count: the badge waits for the next one.
  const r = useResource(newLeadCount, [current], { skip: !enabled });
  const { refresh } = r;
  const reload = useCallback(() => { refresh(); }, [refresh]);
  useEffect(() => (enabled ? onLeadsChanged(reload) : undefined), [enabled, reload]);
  useLeadChanges(reload, enabled); // another device's change
  return { count: enabled ? r.data : null };
}

/** AdminLayout is the shell: a sidebar that collapses to icons (state kept
 * in a cookie for 7 days), toggled by its trigger or Ctrl/Cmd+B, and a
 * drawer below 768 px. The sidebar lists the manifest's screens the
 * session can open (admin/screens.json), and who is signed in. */
export function AdminLayout({ current, navigate, children }: { current: string; navigate: (slug: string) => void; children: ReactNode }) {
  const { session, signOut } = useSession();
  const entries = SCREENS.filter((s) => s.sidebar && canOpen(session, s));
  const [expanded, setExpanded] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const mobile = useIsMobile();
  const { count: newLeads } = useNewLeads(can(session, "leads.read"), current);
  const trigger = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  useEffect(() => { setExpanded(readCookie()); }, []);
  const toggle = useCallback(() => {
    if (mobile) { setMobileOpen((o) => !o); return; }
    setExpanded((e) => {
      document.cookie = `${SIDEBAR_COOKIE}=${!e}; path=/admin; max-age=${COOKIE_MAX_AGE}; samesite=strict`;
      return !e;
    });
  }, [mobile]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "b") { e.preventDefault(); toggle(); }
      if (e.key === "Escape" && mobileOpen) { setMobileOpen(false); trigger.current?.focus(); }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle, mobileOpen]);
  useEffect(() => {
    if (mobileOpen) drawer.current?.querySelector<HTMLElement>("a")?.focus();
  }, [mobileOpen]);
  const go = (e: React.MouseEvent, slug: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    setMobileOpen(false);
    navigate(slug);
  };
  const collapsed = !mobile && !expanded;
  const state = mobile ? (mobileOpen ? "open" : "closed") : expanded ? "expanded" : "collapsed";
  return (
    <div className="a-shell" data-state={state} data-mobile={mobile}>
      {mobile && mobileOpen && <div className="a-shell__overlay" onClick={() => setMobileOpen(false)} aria-hidden="true" />}
      <aside ref={drawer} id="admin-sidebar" className="a-sidebar" aria-label="Sidebar" hidden={mobile && !mobileOpen}
        role={mobile ? "dialog" : undefined} aria-modal={mobile ? true : undefined}>
        <div className="a-sidebar__brand"><Icon name="shield" size={20} />{!collapsed && <span>Admin Panel</span>}</div>
        <nav aria-label="Admin navigation">
          <ul className="a-sidebar__list">
            {entries.map((it) => {
              const badge = it.slug === "leads" && newLeads ? newLeads : 0;
              // The count is drawn from data-count by CSS, so the entry's
              // text stays its label; its accessible name carries the count.
              const named = badge ? `${it.label}, ${badge} new lead${badge === 1 ? "" : "s"}` : undefined;
              return (
                <li key={it.slug}>
                  <a href={adminPath(it.slug)} className="a-sidebar__link" aria-current={it.slug === current ? "page" : undefined} aria-label={named}
                    title={collapsed ? named || it.label : undefined} onClick={(e) => go(e, it.slug)}>
                    <Icon name={it.icon} size={18} />
                    <span className={collapsed ? "visually-hidden" : undefined}>{it.label}</span>
                    {badge > 0 && <span className="a-sidebar__count" data-count={badge > 99 ? "99+" : String(badge)} aria-hidden="true" />}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="a-sidebar__foot">
          {!collapsed && (
            <p className="a-sidebar__who">
              {session.kind === "pin" ? <>Signed in with the <strong>admin PIN</strong></> : (
                <><span className="a-sidebar__name">{session.name || session.email}</span> <Badge tone={session.role === "admin" ? "info" : session.role === "staff" || session.role === "editor" ? "good" : "neutral"}>{ROLE_LABEL[session.role] || "No role"}</Badge></>
              )}
            </p>
          )}
          <a href="/" className="a-sidebar__link" title={collapsed ? "View website" : undefined}><Icon name="arrow-right" size={18} /><span className={collapsed ? "visually-hidden" : undefined}>View website</span></a>
          {session.kind === "pin" ? (
            <button type="button" className="a-sidebar__link" onClick={signOut} title={collapsed ? "Lock" : undefined}><Icon name="shield" size={18} /><span className={collapsed ? "visually-hidden" : undefined}>Lock admin</span></button>
          ) : (
            <button type="button" className="a-sidebar__link" onClick={signOut} title={collapsed ? "Sign out" : undefined}><Icon name="x" size={18} /><span className={collapsed ? "visually-hidden" : undefined}>Sign out</span></button>
          )}
        </div>
      </aside>
      <div className="a-main">
        <header className="a-topbar">
          <button ref={trigger} type="button" className="a-trigger" onClick={toggle} aria-controls="admin-sidebar"
            aria-expanded={mobile ? mobileOpen : expanded} aria-label="Toggle sidebar" title="Toggle sidebar (Ctrl+B)">
            <Icon name="menu" size={20} />
          </button>
          <span className="a-topbar__title">{screenFor(current)?.label || ""}</span>
          {mobile && newLeads ? (
            <a className="a-topbar__leads" href={adminPath("leads")} onClick={(e) => go(e, "leads")}
              aria-label={`Secure Leads Manager, ${newLeads} new lead${newLeads === 1 ? "" : "s"}`}>
              <Icon name="mail" size={18} /><span aria-hidden="true">{newLeads > 99 ? "99+" : newLeads} new</span>
            </a>
          ) : null}
        </header>
        <main id="admin-main" className="a-content">{children}</main>
      </div>
    </div>
  );
}

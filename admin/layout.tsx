import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Icon } from "../components/icons";

/** SIDEBAR is spec 2.4's sidebar, in order. */
export const SIDEBAR = [
  { slug: "", label: "Dashboard", icon: "home" },
  { slug: "upload", label: "Photo Upload", icon: "camera" },
  { slug: "seo-audit", label: "SEO Audit", icon: "search" },
  { slug: "analytics", label: "Analytics", icon: "users" },
  { slug: "content", label: "Content Management", icon: "file-text" },
  { slug: "locations", label: "Location Pages", icon: "map-pin" },
  { slug: "schema", label: "Schema Management", icon: "book" },
  { slug: "performance", label: "Performance", icon: "clock" },
  { slug: "security", label: "Security", icon: "shield" },
  { slug: "indexnow", label: "SEO & IndexNow", icon: "arrow-right" },
  { slug: "settings", label: "System Settings", icon: "hammer" },
];

export const SIDEBAR_COOKIE = "sidebar_state";
const COOKIE_MAX_AGE = 60 * 60 * 24 * 7; // 7 days (spec 9)
export const MOBILE_BREAKPOINT = 768;

export const adminPath = (slug: string) => (slug ? `/admin/${slug}` : "/admin");

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

/** AdminLayout is the shell: a sidebar that collapses to icons (state kept
 * in a cookie for 7 days), toggled by its trigger or Ctrl/Cmd+B, and a
 * drawer below 768 px. */
export function AdminLayout({ current, navigate, onLock, children }: { current: string; navigate: (slug: string) => void; onLock: () => void; children: ReactNode }) {
  const [expanded, setExpanded] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const mobile = useIsMobile();
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
            {SIDEBAR.map((it) => (
              <li key={it.slug}>
                <a href={adminPath(it.slug)} className="a-sidebar__link" aria-current={it.slug === current ? "page" : undefined}
                  title={collapsed ? it.label : undefined} onClick={(e) => go(e, it.slug)}>
                  <Icon name={it.icon} size={18} />
                  <span className={collapsed ? "visually-hidden" : undefined}>{it.label}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="a-sidebar__foot">
          <a href="/" className="a-sidebar__link" title={collapsed ? "View website" : undefined}><Icon name="arrow-right" size={18} /><span className={collapsed ? "visually-hidden" : undefined}>View website</span></a>
          <button type="button" className="a-sidebar__link" onClick={onLock} title={collapsed ? "Lock" : undefined}><Icon name="shield" size={18} /><span className={collapsed ? "visually-hidden" : undefined}>Lock admin</span></button>
        </div>
      </aside>
      <div className="a-main">
        <header className="a-topbar">
          <button ref={trigger} type="button" className="a-trigger" onClick={toggle} aria-controls="admin-sidebar"
            aria-expanded={mobile ? mobileOpen : expanded} aria-label="Toggle sidebar" title="Toggle sidebar (Ctrl+B)">
            <Icon name="menu" size={20} />
          </button>
          <span className="a-topbar__title">{SIDEBAR.find((s) => s.slug === current)?.label || (current === "leads" ? "Secure Leads Manager" : "")}</span>
        </header>
        <main id="admin-main" className="a-content">{children}</main>
      </div>
    </div>
  );
}

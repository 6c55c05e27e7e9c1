import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import "../styles/site.css";
import { Icon } from "./icons";
import { Seo } from "./seo";
import { Breadcrumbs } from "./page-hero";
import { Island } from "./island";
import { CallButton, em } from "./emergency";
import { contactOf, type Contact, type PageProps } from "./types";
import { word } from "./words";
import { LicenceNumber } from "./licence";
import { scrollToAnchor } from "../client/anchors";
import { popoverSupported } from "../client/popover";

/** ChromeMarkup holds the inner HTML of the page chrome (top bar, blue
 * bar, navigation island, footer) when the server has it already. The
 * chrome is the same on every page of a content version, so
 * pages/server.tsx renders it once per site and chrome and every page
 * reuses the markup (about a sixth of a home render). The *Content
 * components and Nav must stay pure functions of site and chrome: those
 * are the cache key. */
export type ChromeParts = { topbar: string; bluebar: string; nav: string; footer: string };
export const ChromeMarkup = createContext<ChromeParts | null>(null);

/** NAV is the sticky navigation (spec 2.2). Every item is a real link, so
 * it works with JavaScript off; with JavaScript an anchor that exists on the
 * current page is scrolled to instead of navigated. */
export const NAV = [
  { label: "HOME", href: "/" , anchor: "hero" },
  { label: "SERVICES", href: "/#services", anchor: "services" },
  { label: "SERVICE AREAS", href: "/service-areas" },
  { label: "OUR WORK", href: "/#portfolio", anchor: "portfolio" },
  { label: "CONTACT US", href: "/contact" },
  { label: "ADMIN", href: "/admin" },
];

/** onAnchorClick handles a click on a route+anchor link: when the anchor is
 * on this page (and the link points at this page) it scrolls there. */
function onAnchorClick(e: React.MouseEvent<HTMLAnchorElement>, href: string, anchor?: string) {
  if (!anchor || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  const path = href.split("#")[0] || "/";
  if (path !== window.location.pathname) return;
  if (document.getElementById(anchor)) {
    e.preventDefault();
    scrollToAnchor(anchor);
    if (href.includes("#")) history.replaceState(null, "", href);
  }
}

export function TopBar({ site }: Pick<PageProps<unknown>, "site">) {
  const markup = useContext(ChromeMarkup)?.topbar;
  if (markup != null) return <div className="topbar" dangerouslySetInnerHTML={{ __html: markup }} />;
  return <div className="topbar"><TopBarContent site={site} /></div>;
}

export function TopBarContent({ site }: Pick<PageProps<unknown>, "site">) {
  return (
    <div className="container topbar__inner">
      <a href={site.tel} className="topbar__item"><Icon name="phone" size={14} />{site.phone}</a>
      <span className="topbar__item"><Icon name="map-pin" size={14} />{site.street}, {site.city}, {site.state} {site.zip}</span>
    </div>
  );
}

export function BlueBar({ site }: Pick<PageProps<unknown>, "site">) {
  const markup = useContext(ChromeMarkup)?.bluebar;
  if (markup != null) return <div className="bluebar" dangerouslySetInnerHTML={{ __html: markup }} />;
  return <div className="bluebar"><BlueBarContent site={site} /></div>;
}

export function BlueBarContent({ site }: Pick<PageProps<unknown>, "site">) {
  return (
    <>
      <div className="container bluebar__inner">
        <span>Licensed &amp; Insured General Contractor · License <LicenceNumber site={site} /></span>
        <span className="bluebar__social">
          <a href={site.facebook} aria-label="Facebook" rel="noopener" target="_blank"><Icon name="facebook" size={16} /></a>
          <a href={site.instagram} aria-label="Instagram" rel="noopener" target="_blank"><Icon name="instagram" size={16} /></a>
          <a href={site.youtube} aria-label="YouTube" rel="noopener" target="_blank"><Icon name="youtube" size={16} /></a>
          <a href={site.tel} className="bluebar__emergency">{em(site, `24/7 Emergency: ${site.phone}`, `Call us: ${site.phone} · ${site.hours}`)}</a>
        </span>
      </div>
    </>
  );
}

// The popover attributes (HTML's popover API), which React 18 passes
// through to the DOM as written but whose types it does not list.
declare module "react" {
  interface HTMLAttributes<T> {
    popover?: "auto" | "manual";
  }
  interface ButtonHTMLAttributes<T> {
    popovertarget?: string;
    popovertargetaction?: "show" | "hide" | "toggle";
  }
}

/** Drawer is the mobile menu: a popover, so the menu button opens it and
 * the close button, Escape and a tap outside close it as plain HTML,
 * before React has arrived or with JavaScript off. Once hydrated it
 * follows the popover's state (opened natively or not), moves focus into
 * the panel, keeps Tab inside, locks the page's scroll and gives focus
 * back to the menu button on close. Where popovers are missing, React
 * opens it (fallback: the class is-open and an overlay). It is modal
 * (aria-modal) only once hydrated: before that Tab can leave a popover,
 * and a screen reader told otherwise would miss the rest of the page. */
function Drawer({ open, modal, fallback, onClose, site }: { open: boolean; modal: boolean; fallback: boolean; onClose: () => void; site: Contact }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const panel = ref.current!;
    const focusables = () => Array.from(panel.querySelectorAll<HTMLElement>("a[href], button"));
    if (!panel.contains(document.activeElement)) focusables()[0]?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        onClose();
        return;
      }
      if (e.key !== "Tab") return;
      const f = focusables();
      const first = f[0], last = f[f.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = "";
    };
  }, [open, onClose]);
  return (
    <>
      {fallback && open && <div className="drawer__overlay" onClick={onClose} />}
      <div ref={ref} className={fallback && open ? "drawer is-open" : "drawer"} popover="auto" id="mobile-menu" role="dialog" aria-modal={modal ? "true" : undefined} aria-label="Menu">
        <button type="button" className="drawer__close" popovertarget="mobile-menu" popovertargetaction="hide" onClick={fallback ? onClose : undefined} aria-label="Close menu"><Icon name="x" /></button>
        <nav aria-label="Mobile">
          <ul>
            {NAV.map((n) => (
              <li key={n.label}>
                <a href={n.href} onClick={(e) => { onAnchorClick(e, n.href, n.anchor); onClose(); }}>{n.label}</a>
              </li>
            ))}
            <li><a className="btn btn--primary" href="/#contact-form" onClick={(e) => { onAnchorClick(e, "/#contact-form", "contact-form"); onClose(); }}>{word(site, "buttons", "quote")}</a></li>
            <li><CallButton site={site} className="btn btn--danger" size={16} /></li>
          </ul>
        </nav>
      </div>
    </>
  );
}

export function Nav({ site }: { site: Contact }) {
  const [open, setOpen] = useState(false);
  // hydrated: aria-expanded is React's only once it follows the drawer;
  // before that the browser derives it from popovertarget. The drawer is
  // modal from then on too.
  const [hydrated, setHydrated] = useState(false);
  const [fallback, setFallback] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useRef(() => {
    const drawer = document.getElementById("mobile-menu");
    if (drawer?.matches(":popover-open")) drawer.hidePopover();
    setOpen(false);
    toggle.current?.focus();
  }).current;
  useEffect(() => {
    setHydrated(true);
    if (!popoverSupported()) {
      setFallback(true);
      return;
    }
    const drawer = document.getElementById("mobile-menu")!;
    // The menu may have been opened natively before this island hydrated.
    setOpen(drawer.matches(":popover-open"));
    const onToggle = (e: Event) => {
      const opened = (e as ToggleEvent).newState === "open";
      setOpen(opened);
      // Closed by Escape or a tap outside: focus goes back to the button
      // when it was in the drawer.
      if (!opened && (drawer.contains(document.activeElement) || document.activeElement === document.body)) toggle.current?.focus();
    };
    drawer.addEventListener("toggle", onToggle);
    return () => drawer.removeEventListener("toggle", onToggle);
  }, []);
  return (
    <header className="nav">
      <div className="container nav__inner">
        <a href="/" className="nav__brand">
          <span className="nav__logo" aria-hidden="true"><Icon name="shield" size={22} /></span>
          <span>{site.name}</span>
        </a>
        <nav aria-label="Main" className="nav__links">
          <ul>
            {NAV.map((n) => (
              <li key={n.label}><a href={n.href} onClick={(e) => onAnchorClick(e, n.href, n.anchor)}>{n.label}</a></li>
            ))}
          </ul>
        </nav>
        <a href="/#contact-form" className="btn btn--primary nav__cta" onClick={(e) => onAnchorClick(e, "/#contact-form", "contact-form")}>{word(site, "buttons", "quote")}</a>
        <button ref={toggle} type="button" className="nav__toggle" popovertarget="mobile-menu" aria-label="Open menu"
          aria-expanded={hydrated ? open : undefined} aria-controls="mobile-menu" onClick={fallback ? () => setOpen(true) : undefined}>
          <Icon name="menu" />
        </button>
      </div>
      <Drawer open={open} modal={hydrated} fallback={fallback} onClose={close} site={site} />
    </header>
  );
}

/** EmergencyBanner is the red call banner; outside 24/7 emergency mode it
 * reads "Call us" with the business hours. */
export function EmergencyBanner({ site, title = "Water, Fire or Storm Emergency?" }: { site: PageProps<unknown>["site"]; title?: string }) {
  return (
    <section className="emergency-banner" aria-label={em(site, "Emergency help", "Call us")}>
      <div className="container emergency-banner__inner">
        <div>
          <p className="emergency-banner__title">{em(site, title, "Call us")}</p>
          <p>{em(site, "Our crews are on call 24 hours a day, 7 days a week, across metro Atlanta.", `Our office is open ${site.hours}.`)}</p>
        </div>
        <CallButton site={site} className="btn btn--white" />
      </div>
    </section>
  );
}

type ChromeProps = Pick<PageProps<unknown>, "site" | "chrome">;

export function Footer({ site, chrome }: ChromeProps) {
  const markup = useContext(ChromeMarkup)?.footer;
  if (markup != null) return <footer className="footer" dangerouslySetInnerHTML={{ __html: markup }} />;
  return (
    <footer className="footer">
      <FooterContent site={site} chrome={chrome} />
    </footer>
  );
}

export function FooterContent({ site, chrome }: ChromeProps) {
  return (
    <>
      <EmergencyBanner site={site} title="24/7 Emergency Restoration Service" />
      <div className="container footer__grid">
        <div>
          <p className="footer__brand">{site.name}</p>
          <p>Licensed water, fire and storm damage restoration and general contractor serving metro Atlanta for more than 20 years. IICRC certified technicians, direct insurance billing and free estimates.</p>
          <p><a href={site.tel} className="footer__phone"><Icon name="phone" size={16} /> {site.phone}</a></p>
          <p className="footer__social">
            <a href={site.facebook} aria-label="Facebook" rel="noopener" target="_blank"><Icon name="facebook" size={20} /></a>
            <a href={site.instagram} aria-label="Instagram" rel="noopener" target="_blank"><Icon name="instagram" size={20} /></a>
            <a href={site.youtube} aria-label="YouTube" rel="noopener" target="_blank"><Icon name="youtube" size={20} /></a>
            <a href={site.yelp} aria-label="Yelp" rel="noopener" target="_blank"><Icon name="yelp" size={20} /></a>
          </p>
        </div>
        <nav aria-label="Services">
          <p className="footer__heading">Services</p>
          <ul>{chrome.services.map((s) => <li key={s.slug}><a href={`/services/${s.slug}`}>{s.name}</a></li>)}</ul>
        </nav>
        <nav aria-label="Quick links">
          <p className="footer__heading">Quick Links</p>
          <ul>
            <li><a href="/about">About Us</a></li>
            <li><a href="/services">All Services</a></li>
            <li><a href="/portfolio">Our Work</a></li>
            <li><a href="/blog">Blog</a></li>
            <li><a href="/emergency">{em(site, "24/7 Emergency", "Emergency Help")}</a></li>
            <li><a href="/estimate">Free Estimate</a></li>
            <li><a href="/contact">Contact Us</a></li>
          </ul>
        </nav>
        <nav aria-label="Service areas">
          <p className="footer__heading">Service Areas</p>
          <ul>{chrome.counties.map((c) => <li key={c.slug}><a href={`/service-areas/${c.slug}`}>{c.name} County</a></li>)}</ul>
        </nav>
      </div>
      <div className="footer__bottom">
        <div className="container footer__bottom-inner">
          <p>© {site.year} {site.name}. All rights reserved. Georgia License <LicenceNumber site={site} /></p>
          <p className="footer__legal">
            <a href="/privacy">Privacy Policy</a>
            <a href="/terms">Terms of Service</a>
            <a href="/sitemap">Sitemap</a>
          </p>
        </div>
      </div>
    </>
  );
}

/** Layout is the site chrome around every public page. */
export function Layout<D>({ props, children }: { props: PageProps<D>; children: ReactNode; form?: boolean }) {
  return (
    <>
      <Seo head={props.head} site={props.site} />
      <a href="#main" className="skip-link">Skip to content</a>
      <TopBar site={props.site} />
      <BlueBar site={props.site} />
      <Island name="nav" component={Nav} props={{ site: contactOf(props.site) }} markup={useContext(ChromeMarkup)?.nav} />
      <Breadcrumbs crumbs={props.breadcrumbs || []} />
      <main id="main">{children}</main>
      <Footer site={props.site} chrome={props.chrome} />
    </>
  );
}

import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import "../styles/site.css";
import { Icon } from "./icons";
import { Seo } from "./seo";
import { Breadcrumbs } from "./page-hero";
import { Island } from "./island";
import { CallButton, callLabel, em } from "./emergency";
import { contactOf, type Contact, type PageProps } from "./types";
import { word } from "./words";
import { LicenceNumber } from "./licence";
import { EstimateTarget, estimateTarget } from "./estimate-target";
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

/** ChromeVariants gives the chrome's markup for a page's estimate target
 * (ADR 050: GET A QUOTE and the footer's Free Estimate go to the page's
 * own form, or to /estimate): pages/server.tsx keeps one per target. */
export const ChromeVariants = createContext<((estimate: string) => ChromeParts | null) | null>(null);

/** NavProps are the navigation island's props: the page's estimate
 * target and whether the portfolio has work to show (OUR WORK). */
export type NavProps = { site: Contact; estimate: string; portfolio: boolean };

/** NAV is the sticky navigation (spec 2.2). Every item is a real link, so
 * it works with JavaScript off; with JavaScript a link to an anchor of the
 * current page is scrolled to instead of navigated (client/anchors.ts,
 * for every link of the page). OUR WORK is offered only while the
 * portfolio has work to show (ADR 050). */
export const NAV = [
  { label: "HOME", href: "/" },
  { label: "SERVICES", href: "/#services" },
  { label: "SERVICE AREAS", href: "/service-areas" },
  { label: "OUR WORK", href: "/#portfolio", works: true },
  { label: "CONTACT US", href: "/contact" },
  { label: "ADMIN", href: "/admin" },
];

const navItems = (portfolio: boolean) => NAV.filter((n) => portfolio || !n.works);

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
function Drawer({ open, modal, fallback, onClose, site, estimate, portfolio }: NavProps & { open: boolean; modal: boolean; fallback: boolean; onClose: () => void }) {
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
            {navItems(portfolio).map((n) => (
              <li key={n.label}>
                <a href={n.href} onClick={onClose}>{n.label}</a>
              </li>
            ))}
            <li><a className="btn btn--primary" href={estimate} onClick={onClose}>{word(site, "buttons", "quote")}</a></li>
            <li><CallButton site={site} className="btn btn--danger" size={16} /></li>
          </ul>
        </nav>
      </div>
    </>
  );
}

export function Nav({ site, estimate, portfolio }: NavProps) {
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
          <span className="nav__name">{site.name}</span>
        </a>
        <nav aria-label="Main" className="nav__links">
          <ul>
            {navItems(portfolio).map((n) => (
              <li key={n.label}><a href={n.href}>{n.label}</a></li>
            ))}
          </ul>
        </nav>
        <a href={estimate} className="btn btn--primary nav__cta">{word(site, "buttons", "quote")}</a>
        {/* The phone stays one tap away on a phone (ADR 050): in the
            server's markup, its space held from the first paint. */}
        <a href={site.tel} className="btn btn--danger nav__call"><Icon name="phone" size={16} /> {callLabel(site)}</a>
        <button ref={toggle} type="button" className="nav__toggle" popovertarget="mobile-menu" aria-label="Open menu"
          aria-expanded={hydrated ? open : undefined} aria-controls="mobile-menu" onClick={fallback ? () => setOpen(true) : undefined}>
          <Icon name="menu" />
        </button>
      </div>
      <Drawer open={open} modal={hydrated} fallback={fallback} onClose={close} site={site} estimate={estimate} portfolio={portfolio} />
    </header>
  );
}

/** EmergencyBanner is the red call banner; outside 24/7 emergency mode it
 * reads "Call us" with the business hours. */
export function EmergencyBanner({ site, title = "Water, Fire or Storm Emergency?" }: { site: PageProps<unknown>["site"]; title?: string }) {
  return (
    <section className="emergency-banner" data-shared="" aria-label={em(site, "Emergency help", "Call us")}>
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

type ChromeProps = Pick<PageProps<unknown>, "site" | "chrome"> & { estimate: string };

export function Footer({ site, chrome, estimate }: ChromeProps) {
  const markup = useContext(ChromeMarkup)?.footer;
  if (markup != null) return <footer className="footer" dangerouslySetInnerHTML={{ __html: markup }} />;
  return (
    <footer className="footer">
      <FooterContent site={site} chrome={chrome} estimate={estimate} />
    </footer>
  );
}

export function FooterContent({ site, chrome, estimate }: ChromeProps) {
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
            <li><a href={estimate}>Free Estimate</a></li>
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

/** Layout is the site chrome around every public page. form says the
 * page holds the quote section (#contact-form, components/quote.tsx):
 * then every estimate link of the page, the menu's GET A QUOTE too, goes
 * there; otherwise to /estimate (ADR 050). Components read the target
 * with useEstimateHref (components/estimate-target.ts). */
export function Layout<D>({ props, form = false, children }: { props: PageProps<D>; form?: boolean; children: ReactNode }) {
  const estimate = estimateTarget(form);
  const variants = useContext(ChromeVariants);
  const outer = useContext(ChromeMarkup);
  const parts = variants ? variants(estimate) : outer;
  const portfolio = !!props.chrome?.portfolio;
  return (
    <EstimateTarget.Provider value={estimate}>
      <ChromeMarkup.Provider value={parts}>
        <Seo head={props.head} site={props.site} />
        <a href="#main" className="skip-link">Skip to content</a>
        <TopBar site={props.site} />
        <BlueBar site={props.site} />
        <Island name="nav" component={Nav} props={{ site: contactOf(props.site), estimate, portfolio }} markup={parts?.nav} />
        <Breadcrumbs crumbs={props.breadcrumbs || []} />
        <main id="main">{children}</main>
        <Footer site={props.site} chrome={props.chrome} estimate={estimate} />
      </ChromeMarkup.Provider>
    </EstimateTarget.Provider>
  );
}

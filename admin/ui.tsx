// Admin design-system primitives. Tool pages compose these.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from "react";
import { useDismissToasts } from "./toast";

export function Card({ title, description, children, className, actions }: { title?: ReactNode; description?: ReactNode; children?: ReactNode; className?: string; actions?: ReactNode }) {
  return (
    <section className={"a-card" + (className ? " " + className : "")}>
      {(title || actions) && (
        <header className="a-card__head">
          <div>
            {title && <h2 className="a-card__title">{title}</h2>}
            {description && <p className="a-card__desc">{description}</p>}
          </div>
          {actions}
        </header>
      )}
      {children && <div className="a-card__body">{children}</div>}
    </section>
  );
}

export function StatCard({ label, value, hint, tone }: { label: string; value: ReactNode; hint?: ReactNode; tone?: "good" | "warn" | "bad" }) {
  return (
    <div className={"a-stat" + (tone ? " a-stat--" + tone : "")}>
      <p className="a-stat__label">{label}</p>
      <p className="a-stat__value">{value}</p>
      {hint && <p className="a-stat__hint">{hint}</p>}
    </div>
  );
}

export function Button({ children, variant = "primary", ...rest }: React.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "outline" | "danger" | "ghost" }) {
  return <button type="button" className={`a-btn a-btn--${variant}`} {...rest}>{children}</button>;
}

/** Badge tones map the spec's statuses (pass/good/active/Secure... green,
 * warning/needs-improvement amber, fail/poor/missing/critical red). */
export function Badge({ children, tone = "neutral" }: { children: ReactNode; tone?: "good" | "warn" | "bad" | "info" | "neutral" }) {
  return <span className={`a-badge a-badge--${tone}`}>{children}</span>;
}

/** clampProgress keeps a value within 0-100 of max; max must be above 0,
 * else 100 is used (spec 5). */
export function clampProgress(value: number, max = 100): number {
  const m = max > 0 ? max : 100;
  return Math.min(100, Math.max(0, (value / m) * 100));
}

export function Progress({ value, max = 100, label }: { value: number; max?: number; label: string }) {
  const pct = clampProgress(value, max);
  return (
    <div className="a-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)}>
      <div className="a-progress__bar" style={{ width: `${pct}%` }} />
    </div>
  );
}

/** Tabs is an accessible tab set: arrow keys move between tabs, Home and
 * End jump, only the active panel is rendered. value and onChange make it
 * controlled (a screen that keeps the tab in its address). */
export function Tabs({ tabs, label, value, onChange }: {
  tabs: { id: string; label: string; content: ReactNode }[]; label: string; value?: string; onChange?: (id: string) => void;
}) {
  const [own, setOwn] = useState(tabs[0].id);
  const active = value ?? own;
  const setActive = (id: string) => { setOwn(id); onChange?.(id); };
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: React.KeyboardEvent, i: number) => {
    let j = -1;
    if (e.key === "ArrowRight") j = (i + 1) % tabs.length;
    if (e.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
    if (e.key === "Home") j = 0;
    if (e.key === "End") j = tabs.length - 1;
    if (j >= 0) {
      e.preventDefault();
      setActive(tabs[j].id);
      refs.current[j]?.focus();
    }
  };
  const current = tabs.find((t) => t.id === active) || tabs[0];
  return (
    <div className="a-tabs">
      <div role="tablist" aria-label={label} className="a-tabs__list">
        {tabs.map((t, i) => (
          <button key={t.id} ref={(el) => { refs.current[i] = el; }} type="button" role="tab" id={`${base}-${t.id}-tab`}
            aria-selected={t.id === current.id} aria-controls={`${base}-${t.id}-panel`} tabIndex={t.id === current.id ? 0 : -1}
            className="a-tabs__tab" onClick={() => setActive(t.id)} onKeyDown={(e) => onKey(e, i)}>{t.label}</button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`} className="a-tabs__panel" tabIndex={0}>
        {current.content}
      </div>
    </div>
  );
}

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/** useModal makes the element in ref a modal while open: it closes the
 * toasts shown before it, moves focus into it (to its [data-autofocus]
 * control, else its first), keeps Tab and Shift+Tab inside, calls onClose
 * on Escape, and, unless restoreFocus is false (the caller puts focus
 * back itself), returns focus to where it was. Every admin dialog uses
 * it. */
export function useModal(ref: RefObject<HTMLElement>, open: boolean, onClose: () => void, restoreFocus = true) {
  const dismissToasts = useDismissToasts();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open) return;
    dismissToasts();
    const prev = document.activeElement as HTMLElement | null;
    const panel = ref.current!;
    const focusables = () => Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
    (panel.querySelector<HTMLElement>("[data-autofocus]") || focusables()[0])?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") { e.preventDefault(); close.current(); return; }
      if (e.key !== "Tab") return;
      const f = focusables();
      if (!f.length) { e.preventDefault(); return; }
      const first = f[0], last = f[f.length - 1];
      if (!panel.contains(document.activeElement)) { e.preventDefault(); first.focus(); }
      else if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (restoreFocus) prev?.focus?.();
    };
  }, [open, ref, dismissToasts, restoreFocus]);
}

/** Dialog is a modal dialog: focus moves into it and is trapped there,
 * Escape and the close button close it, and focus returns to where it
 * was. A click outside does not dismiss it (spec 4). */
export function Dialog({ open, title, onClose, children, wide }: { open: boolean; title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useModal(ref, open, onClose);
  if (!open) return null;
  return (
    <div className="a-dialog">
      <div className="a-dialog__overlay" aria-hidden="true" />
      <div ref={ref} className={"a-dialog__panel" + (wide ? " a-dialog__panel--wide" : "")} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="a-dialog__head">
          <h2 id={titleId} className="a-dialog__title">{title}</h2>
          <button type="button" className="a-dialog__close" onClick={onClose} aria-label="Close">×</button>
        </div>
        {children}
      </div>
    </div>
  );
}

export function LastUpdated({ at }: { at: Date | null }) {
  if (!at) return null;
  return <p className="a-updated">Last updated: {at.toLocaleString("en-US")}</p>;
}

/** LoadError is a failed load: the message the server sent, and Retry. */
export function LoadError({ error, onRetry, prefix = "" }: { error: Error | string | null | undefined; onRetry: () => void; prefix?: string }) {
  if (!error) return null;
  return (
    <div className="a-loaderror">
      <p className="a-error" role="alert">{prefix}{typeof error === "string" ? error : error.message}</p>
      <Button variant="outline" onClick={onRetry}>Retry</Button>
    </div>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <div className="a-pagehead">
      <div>
        <h1 className="a-pagehead__title">{title}</h1>
        {description && <p className="a-pagehead__desc">{description}</p>}
      </div>
      {actions && <div className="a-pagehead__actions">{actions}</div>}
    </div>
  );
}

/** ConfirmDialog is a modal alert dialog: focus is trapped inside,
 * Escape cancels, and a click outside does not dismiss it (spec 4). */
export function ConfirmDialog({ open, title, description, confirmLabel, onConfirm, onCancel, busy }: {
  open: boolean; title: string; description: ReactNode; confirmLabel: string; onConfirm: () => void; onCancel: () => void; busy?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useModal(ref, open, onCancel);
  if (!open) return null;
  return (
    <div className="a-dialog">
      <div className="a-dialog__overlay" aria-hidden="true" />
      <div ref={ref} className="a-dialog__panel" role="alertdialog" aria-modal="true" aria-labelledby="a-dialog-title" aria-describedby="a-dialog-desc">
        <h2 id="a-dialog-title" className="a-dialog__title">{title}</h2>
        <div id="a-dialog-desc" className="a-dialog__desc">{description}</div>
        <div className="a-dialog__actions">
          <Button variant="outline" onClick={onCancel} disabled={busy} data-autofocus>Cancel</Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>{confirmLabel}</Button>
        </div>
      </div>
    </div>
  );
}

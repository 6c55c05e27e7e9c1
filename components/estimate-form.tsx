import { useEffect, useRef, useState } from "react";
import { FIELDS as ATTRIBUTION_FIELDS, fillForm } from "../client/attribution";
import { Icon } from "./icons";
import type { LeadContact } from "./types";
import type { EstimateState, EstimateValues } from "./props.gen";
import type { FormWords } from "./words";

// EstimateValues are the fields of the native estimate form; EstimateState
// is what the server hands back after a POST (rendered again without
// JavaScript, or as /api/estimate's JSON answer): the values typed and a
// message per field, or success (Go's leads.EstimateState).

export const DAMAGE_TYPES = ["Water Damage", "Fire & Smoke Damage", "Storm Damage", "Mold", "Roof Damage", "Remodeling / Construction", "Other"];

/** emptyEstimate is a form nobody has touched. The emergency question has
 * no answer: a visitor who does not choose is asked to (the server refuses
 * a missing answer), so nobody loses the emergency escalation by default
 * (ADR 052). */
export const emptyEstimate: EstimateValues = { name: "", phone: "", email: "", city: "", street: "", zip: "", damageType: "", emergency: "", insuranceCarrier: "", notes: "" };

/** FormPresets are the answers a page already knows (ADR 052): the damage
 * type of a service page, the city of a city page, "yes" to the emergency
 * question on the water damage landing page. The visitor can change them. */
export type FormPresets = Partial<Pick<EstimateValues, "city" | "damageType" | "emergency">>;

/** initialValues is what the form shows first: what the visitor sent, when
 * the server hands back a state, else the page's presets over an empty
 * form. The server render and the hydration compute the same thing from
 * the same props, so the presets are in the markup without JavaScript. */
export function initialValues(state?: EstimateState, presets?: FormPresets): EstimateValues {
  if (state?.values) return { ...emptyEstimate, ...state.values };
  const v = { ...emptyEstimate };
  if (presets?.city) v.city = presets.city;
  if (presets?.damageType && DAMAGE_TYPES.includes(presets.damageType)) v.damageType = presets.damageType;
  if (presets?.emergency === "yes" || presets?.emergency === "no") v.emergency = presets.emergency;
  return v;
}

/** RESULT_ID is the id of the box that reports a submission's outcome
 * (the error summary, or the thank-you message). The no-JavaScript form
 * posts to /estimate#estimate-result, so the page the server answers with
 * opens at that box, below the sticky header, and focuses it; the
 * redirect to /estimate/thanks keeps the fragment. */
export const RESULT_ID = "estimate-result";

/** FIELD_ORDER is the order of the fields on screen: the error summary
 * lists its messages in it. */
const FIELD_ORDER: (keyof EstimateValues)[] = ["name", "phone", "email", "city", "street", "zip", "damageType", "emergency", "insuranceCarrier", "notes"];

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className={"field" + (error ? " field--error" : "")}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && <p className="field__error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** WithPhoneLink renders a message from the server with the phone number
 * in it as a tel: link, so a visitor told to call can call in one tap.
 * A message without the number gets a call link after it, unless
 * optional (the owner's wording may leave the number out). */
function WithPhoneLink({ text, site, optional = false }: { text: string; site: Pick<LeadContact, "phone" | "tel">; optional?: boolean }) {
  const at = site.phone ? text.indexOf(site.phone) : -1;
  if (at < 0) return optional ? <>{text}</> : <>{text} <a href={site.tel}>Call {site.phone}</a></>;
  return <>{text.slice(0, at)}<a href={site.tel}>{site.phone}</a>{text.slice(at + site.phone.length)}</>;
}

/** reveal gives the outcome box focus and scrolls it into view below the
 * sticky header (the page's scroll-padding-top) when it is not already
 * fully there. */
function reveal(el: HTMLElement | null) {
  if (!el) return;
  el.focus({ preventScroll: true });
  const r = el.getBoundingClientRect();
  const top = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  if (r.top < top || r.bottom > window.innerHeight) el.scrollIntoView({ block: "start" });
}

/** readForm is what the form's fields hold right now. Autofill and paste
 * can fill them before the script hydrates the form: those values must
 * become the state, or the next render would wipe them. */
function readForm(form: HTMLFormElement, prev: EstimateValues): EstimateValues {
  const next = { ...prev };
  for (const k of FIELD_ORDER) {
    const el = form.elements.namedItem(k);
    if (el instanceof RadioNodeList) next[k] = el.value || prev[k];
    else if (el && "value" in el) next[k] = (el as HTMLInputElement).value;
  }
  return next;
}

/** EstimateForm is the native lead form. It posts to /estimate and works
 * with JavaScript off (the server redirects to a thank-you state or renders
 * the errors with the values kept); with JavaScript it submits inline. The
 * server validates everything; the browser only mirrors its messages.
 * Whatever the outcome, its message ends up in view and focused: the
 * thank-you box, an error summary linking each message to its field (the
 * GOV.UK pattern), or the form-level message with the phone as a link.
 * Its button, note and thank-you message are the owner's wording (words). */
export function EstimateForm({ site, state, idPrefix = "est", words, presets }: { site: Pick<LeadContact, "phone" | "tel">; state?: EstimateState; idPrefix?: string; words: FormWords; presets?: FormPresets }) {
  const [values, setValues] = useState<EstimateValues>(() => initialValues(state, presets));
  const [errors, setErrors] = useState<EstimateState["errors"]>(state?.errors || {});
  const [success, setSuccess] = useState(!!state?.success);
  // booking is the saved request's own booking page ("" for none: an
  // emergency, which is called back instead).
  const [booking, setBooking] = useState(state?.booking || "");
  const [busy, setBusy] = useState(false);
  // outcome counts answered submissions: each one moves focus to its message.
  const [outcome, setOutcome] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const set = (k: keyof EstimateValues) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const v = e.target.value;
    setValues((old) => ({ ...old, [k]: v }));
  };
  const id = (k: string) => `${idPrefix}-${k}`;
  const described = (k: keyof EstimateValues) => (errors[k] ? `${id(k)}-error` : undefined);

  // Adopt what the fields hold at hydration (see readForm).
  useEffect(() => {
    if (form.current) setValues((old) => readForm(form.current!, old));
  }, []);
  useEffect(() => {
    if (outcome) reveal(result.current);
  }, [outcome]);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    const fail = { form: `We could not send your request. Please call us at ${site.phone}.` };
    try {
      fillForm(e.currentTarget);
      const body = new URLSearchParams(new FormData(e.currentTarget) as unknown as Record<string, string>);
      const r = await fetch("/api/estimate", { method: "POST", body, headers: { Accept: "application/json" } });
      const data = await r.json().catch(() => ({}));
      if (r.ok) {
        setSuccess(true);
        setBooking(typeof data.booking === "string" && data.booking.startsWith("/my/") ? data.booking : "");
        setErrors({});
      } else {
        setErrors(data.errors && Object.keys(data.errors).length ? data.errors : fail);
      }
    } catch {
      setErrors(fail);
    } finally {
      setBusy(false);
      setOutcome((n) => n + 1);
    }
  };

  // A summary link focuses its field (a plain link only scrolls to it).
  const toField = (k: keyof EstimateValues) => (e: React.MouseEvent<HTMLAnchorElement>) => {
    const el = document.getElementById(id(k));
    if (!el) return;
    e.preventDefault();
    el.focus({ preventScroll: true });
    (el.closest(".field") || el).scrollIntoView({ block: "start" });
  };
  const fieldErrors = FIELD_ORDER.filter((k) => errors[k]);

  if (success) {
    return (
      <div className="form-success" role="status" id={RESULT_ID} tabIndex={-1} ref={result}>
        <Icon name="check-circle" size={36} />
        <p className="form-success__title">{words.thanksTitle}</p>
        <p><WithPhoneLink text={words.thanks} site={site} optional /></p>
        {booking && <p><a className="btn btn--primary" href={booking}>{words.book}</a></p>}
      </div>
    );
  }
  return (
    <form ref={form} className="estimate-form" method="post" action={`/estimate#${RESULT_ID}`} onSubmit={onSubmit} noValidate aria-label="Free estimate request">
      {(errors.form || fieldErrors.length > 0) && (
        <div className="error-summary" id={RESULT_ID} tabIndex={-1} ref={result} role="alert" aria-labelledby={id("summary-title")}>
          <p className="error-summary__title" id={id("summary-title")}>{errors.form ? "Your request was not sent" : "There is a problem"}</p>
          {errors.form && <p className="error-summary__body"><WithPhoneLink text={errors.form} site={site} /></p>}
          {fieldErrors.length > 0 && (
            <ul className="error-summary__list">
              {fieldErrors.map((k) => <li key={k}><a href={`#${id(k)}`} onClick={toField(k)}>{errors[k]}</a></li>)}
            </ul>
          )}
        </div>
      )}
      <div className="estimate-form__grid">
        <Field id={id("name")} label="Full name *" error={errors.name}>
          <input id={id("name")} name="name" autoComplete="name" value={values.name} onChange={set("name")} aria-invalid={!!errors.name} aria-describedby={described("name")} maxLength={120} required />
        </Field>
        <Field id={id("phone")} label="Phone *" error={errors.phone}>
          <input id={id("phone")} name="phone" type="tel" autoComplete="tel" value={values.phone} onChange={set("phone")} aria-invalid={!!errors.phone} aria-describedby={described("phone")} maxLength={30} required />
        </Field>
        <Field id={id("email")} label="Email" error={errors.email}>
          <input id={id("email")} name="email" type="email" autoComplete="email" value={values.email} onChange={set("email")} aria-invalid={!!errors.email} aria-describedby={described("email")} maxLength={254} />
        </Field>
        <Field id={id("city")} label="City *" error={errors.city}>
          <input id={id("city")} name="city" autoComplete="address-level2" value={values.city} onChange={set("city")} aria-invalid={!!errors.city} aria-describedby={described("city")} maxLength={80} required />
        </Field>
        <Field id={id("street")} label="Street address" error={errors.street}>
          <input id={id("street")} name="street" autoComplete="address-line1" value={values.street} onChange={set("street")} aria-invalid={!!errors.street} aria-describedby={described("street")} maxLength={200} />
        </Field>
        <Field id={id("zip")} label="ZIP code" error={errors.zip}>
          <input id={id("zip")} name="zip" inputMode="numeric" autoComplete="postal-code" value={values.zip} onChange={set("zip")} aria-invalid={!!errors.zip} aria-describedby={described("zip")} maxLength={10} />
        </Field>
        <Field id={id("damageType")} label="Type of damage *" error={errors.damageType}>
          <select id={id("damageType")} name="damageType" value={values.damageType} onChange={set("damageType")} aria-invalid={!!errors.damageType} aria-describedby={described("damageType")} required>
            <option value="">Choose one</option>
            {DAMAGE_TYPES.map((d) => <option key={d} value={d}>{d}</option>)}
          </select>
        </Field>
        <fieldset className={"field field--radios" + (errors.emergency ? " field--error" : "")}>
          <legend>Is this an emergency? *</legend>
          <label><input type="radio" id={id("emergency")} name="emergency" value="yes" checked={values.emergency === "yes"} onChange={set("emergency")} aria-describedby={described("emergency")} /> Yes</label>
          <label><input type="radio" name="emergency" value="no" checked={values.emergency === "no"} onChange={set("emergency")} aria-describedby={described("emergency")} /> No</label>
          {errors.emergency && <p className="field__error" id={`${id("emergency")}-error`}>{errors.emergency}</p>}
        </fieldset>
        <Field id={id("insuranceCarrier")} label="Insurance carrier" error={errors.insuranceCarrier}>
          <input id={id("insuranceCarrier")} name="insuranceCarrier" value={values.insuranceCarrier} onChange={set("insuranceCarrier")} aria-invalid={!!errors.insuranceCarrier} aria-describedby={described("insuranceCarrier")} maxLength={120} />
        </Field>
      </div>
      <Field id={id("notes")} label="Tell us what happened" error={errors.notes}>
        <textarea id={id("notes")} name="notes" rows={4} value={values.notes} onChange={set("notes")} aria-invalid={!!errors.notes} aria-describedby={described("notes")} maxLength={2000} />
      </Field>
      {/* Where the visit came from: filled from this visit's
          record in sessionStorage by the page's script; without it, the
          server reads the Referer. */}
      {ATTRIBUTION_FIELDS.map((f) => <input key={f} type="hidden" name={f} defaultValue={state?.attribution?.[f] || ""} />)}
      <div className="hp" aria-hidden="true">
        <label htmlFor={id("website")}>Leave this field empty</label>
        <input id={id("website")} name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <button type="submit" className="btn btn--primary btn--lg btn--block" disabled={busy}>{busy ? "Sending..." : words.submit}</button>
      <p className="field__hint"><WithPhoneLink text={words.required} site={site} optional /></p>
    </form>
  );
}

import "../../styles/admin-settings.css";
import { useState } from "react";
import { api, ApiError } from "../api";
import type * as wire from "../api.gen";
import { useSession } from "../use-session";
import { HoursPicker } from "./hours-picker";
import { BookingSettings } from "../booking/settings";
import { OtherNumbers, usePhoneUses, Where } from "../settings-phones";
import { useToast } from "../toast";
import { useResource } from "../use-resource";
import type { AdminPageProps } from "../types";
import { Button, Card, PageHeader } from "../ui";

/** Settings is GET and PUT /api/admin/settings (web/settings.Answer): the
 * settings (settings.Settings), and whether this session may save, and
 * why not (only an admin account with two-factor sign-in may). The screen
 * edits it and sends it back; the server ignores what is read-only. */
type Settings = wire.SettingsAnswer;

/** ReviewFigures says which figures the site shows now (read-only). */
type ReviewFigures = wire.ReviewFigures;

/** reviewSource tells the owner which rating figures the site shows now
 * and where they come from. */
function reviewSource(f: ReviewFigures | undefined): string {
  if (!f) return "";
  const { rating, count, source, fetchedAt } = f.inUse;
  if (source === "places") {
    const when = fetchedAt ? new Date(fetchedAt).toLocaleString("en-US") : "";
    const figures = rating ? `${rating}/5 from ${count} Google ${count === 1 ? "review" : "reviews"}` : `no rating yet (${count} Google reviews)`;
    return `Google Places is configured: the site shows ${figures}, as Google reported${when ? ` on ${when}` : ""}${f.inStructuredData ? ", and gives them to search engines" : ""}. The values below are not used.`;
  }
  if (f.placesConfigured) return "Google Places is configured but has not answered yet: the site shows the values below until it does.";
  return "Google Places is not configured: the site shows the values below. The setup guide says how to connect it.";
}

const TOGGLES: { key: keyof Settings; label: string; hint: string }[] = [
  { key: "autoIndexNow", label: "Auto-submit to IndexNow", hint: "Tell search engines when pages change." },
  { key: "seoMonitoring", label: "SEO health monitoring", hint: "Check routes and head tags on a schedule." },
  { key: "emergencyMode", label: "24/7 emergency mode", hint: "On: the emergency bars, banners and call buttons say you answer 24/7, and search engines are told you are open 24/7. Off: they say \"Call us\" with your business hours, and search engines get your business hours. Both dial the 24/7 phone number." },
];

/** Settings is System Settings: it really saves, and the public pages are
 * re-rendered with the new business details. */
export default function SettingsPage(_: AdminPageProps) {
  const toast = useToast();
  const { data: s, setData: setS } = useResource(() => api<Settings>("/api/admin/settings"), [], {
    onError: (e) => toast({ title: "Settings could not be loaded", description: e.message, variant: "destructive" }),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const phones = usePhoneUses();
  const { session, toAccountSignIn } = useSession();
  if (!s) return <><PageHeader title="System Settings" /><p role="status">Loading settings...</p></>;
  const canChange = !!s.canChange;
  const text = (k: keyof Settings, label: string, type = "text", autoComplete?: string, hint?: string, inputMode?: "decimal" | "numeric", after?: React.ReactNode) => (
    <div className="a-field">
      <label htmlFor={`set-${k}`} className="a-label">{label}</label>
      <input id={`set-${k}`} className="a-input" type={type} autoComplete={autoComplete} inputMode={inputMode} value={s[k] as string}
        onChange={(e) => setS({ ...s, [k]: e.target.value })} aria-invalid={!!errors[k]}
        aria-describedby={[hint ? `set-${k}-hint` : "", errors[k] ? `set-${k}-err` : "", after ? `set-${k}-where` : ""].filter(Boolean).join(" ") || undefined} />
      {hint && <p id={`set-${k}-hint`} className="a-muted">{hint}</p>}
      {errors[k] && <p id={`set-${k}-err`} className="a-error" role="alert">{errors[k]}</p>}
      {after}
    </div>
  );
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const saved = await api<Settings>("/api/admin/settings", { method: "PUT", body: JSON.stringify(s) });
      setS(saved);
      setErrors({});
      phones.reload();
      toast({ title: "Settings saved", description: "The website now shows the new details." });
    } catch (err) {
      if (err instanceof ApiError && err.body?.errors) setErrors(err.body.errors);
      toast({ title: "Settings not saved", description: (err as Error).message, variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
    <form onSubmit={save}>
      <PageHeader title="System Settings" description="Business details shown on every page, and feature switches." />
      {!canChange && (
        <div className="st-readonly" role="note">
          <p><strong>You can read these settings but not change them.</strong> {s.readOnly}</p>
          {session.kind === "pin" && <Button type="button" onClick={toAccountSignIn}>Sign in with your account</Button>}
        </div>
      )}
      <fieldset className="st-fieldset" disabled={!canChange}>
      <legend className="visually-hidden">Settings</legend>
      <Card title="Phone Numbers" description="Every call button, phone link, the top bar, the footer and what search engines read use the 24/7 number, in and out of 24/7 emergency mode.">
        {text("phone", "24/7 phone number", "tel", "tel", "Answered day and night. Every call button and phone link on the website dials it.", undefined,
          <Where which="line" uses={phones.uses} typed={s.phone} error={phones.error} id="set-phone-where" />)}
        {text("officePhone", "Office phone (optional)", "tel", "off", "Shown only on the contact page, beside your business hours, for non-urgent calls. Leave it empty to use the 24/7 number everywhere.", undefined,
          <Where which="office" uses={phones.uses} typed={s.officePhone} error={phones.error} id="set-officePhone-where" />)}
        <OtherNumbers uses={phones.uses} />
      </Card>
      <Card title="Business Information">
        <div className="a-form-grid">
          {text("businessName", "Business name", "text", "organization")}
          {text("address", "Address (street, city, state ZIP)")}
          {text("website", "Website", "url", "url")}
        </div>
      </Card>
      <Card title="Features">
        <ul className="a-toggles">
          {TOGGLES.map((t) => (
            <li key={t.key}>
              <label className="a-switch">
                <input type="checkbox" role="switch" checked={s[t.key] as boolean} onChange={(e) => setS({ ...s, [t.key]: e.target.checked })} />
                <span><strong>{t.label}</strong><br /><span className="a-muted">{t.hint}</span></span>
              </label>
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Homeowner Acknowledgement" description="What a homeowner hears from you the moment they send the estimate form.">
        <label className="a-switch">
          <input type="checkbox" role="switch" checked={s.leadAck} onChange={(e) => setS({ ...s, leadAck: e.target.checked })} aria-describedby="set-leadAck-hint" />
          <span><strong>Acknowledgement email</strong><br />
            <span id="set-leadAck-hint" className="a-muted">On: when the homeowner leaves an email address, they get a short plain-text email at once: what happens
              next, the response time the form promised, and your 24/7 phone number as a tap-to-call link. Replies go to your business email.
              It needs outgoing email to be set up (see the setup guide); it is sent once per request and never to an address that failed validation.</span></span>
        </label>
      </Card>
      <Card title="Business Hours">
        <HoursPicker value={s.businessHours} onChange={(v) => setS({ ...s, businessHours: v })} error={errors.businessHours} readText={s.businessHoursText} />
      </Card>
      <Card title="Review Rating" description="The average rating and number of Google reviews in the home page's trust section.">
        <p className="a-muted" role="note">{reviewSource(s.reviewFigures)}</p>
        <div className="a-form-grid">
          {text("reviewRating", "Average rating (1.0 to 5.0)", "text", "off", undefined, "decimal")}
          {text("reviewCount", "Number of Google reviews", "text", "off", undefined, "numeric")}
        </div>
        <p className="a-muted">
          These values are shown only while Google Places is not configured or has not answered yet; copy them from your Google Business
          Profile. They never go into the structured data (JSON-LD) that search engines read: Google treats a rating a business states
          about itself as self-serving. Once Google Places is configured, the rating and count come from Google, on the page and in the
          structured data.
        </p>
      </Card>
      </fieldset>
      {canChange && <Button type="submit" disabled={saving}>{saving ? "Saving..." : "Save Settings"}</Button>}
    </form>
    <BookingSettings />
    </>
  );
}

import { useState } from "react";
import { ApiError } from "../api";
import { errorText, useResource } from "../use-resource";
import { useToast } from "../toast";
import { Button, Card, LoadError } from "../ui";
import { testimonialsApi, type ReviewSettings } from "../data/testimonials";
import { can } from "../capabilities";
import { useSession } from "../use-session";

/** delayText says a delay in minutes as the owner reads it. */
export function delayText(m: number): string {
  if (m === 0) return "right away";
  if (m % 60 === 0) return `${m / 60} hour${m === 60 ? "" : "s"} after`;
  return `${m} minutes after`;
}

function channelsText(s: ReviewSettings): string {
  if (s.email && s.sms) return "Requests go by email and by text message.";
  if (s.email) return "Requests go by email. Texts are not set up on this site.";
  if (s.sms) return "Requests go by text message. Email is not set up on this site.";
  return "Email and text messages are not set up on this site, so requests wait until one of them is.";
}

/** RequestSettings is the review request card: when customers are asked,
 * and the review page the request links to. Only an admin may save. */
export function RequestSettings() {
  const toast = useToast();
  const editable = can(useSession().session, "settings.write");
  const res = useResource(testimonialsApi.settings, [], { onData: (s) => { setDelay(String(s.delayMinutes)); setLink(s.reviewLink); } });
  const [delay, setDelay] = useState("");
  const [link, setLink] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const s = res.data;

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const r = await testimonialsApi.saveSettings(delay.trim(), link.trim());
      res.setData(r);
      toast({ title: "Saved", description: `Customers are now asked ${delayText(r.delayMinutes)}${r.delayMinutes ? " their job is marked completed" : ""}.` });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Review requests" description="Every customer whose job you mark completed gets one message asking how it went, with your review page and a private feedback page. Everyone gets the same message: asking only happy customers is against Google's rules and the FTC's.">
      {res.error ? <LoadError error={res.error} onRetry={res.retry} prefix="Review request settings could not be loaded: " /> : !s ? <p role="status">Loading...</p> : (
        <form className="ar-form" onSubmit={save}>
          <p>{channelsText(s)}</p>
          <p>{s.linkInUse ? <>Messages link to <a href={s.linkInUse} target="_blank" rel="noopener noreferrer">your review page<span className="visually-hidden"> (opens in a new tab)</span></a>.</> : "Messages have no review page link yet: paste yours below. The feedback page works either way."}</p>
          <div className="a-field">
            <label className="a-label" htmlFor="rr-delay">Minutes to wait after a job is marked completed</label>
            <input id="rr-delay" className="a-input" inputMode="numeric" value={delay} onChange={(e) => setDelay(e.target.value)} aria-describedby="rr-delay-hint" readOnly={!editable} />
            <p id="rr-delay-hint" className="a-muted">0 sends right away; 120 is two hours; at most two weeks.</p>
          </div>
          {!s.googleConfigured && (
            <div className="a-field">
              <label className="a-label" htmlFor="rr-link">Your review page address</label>
              <input id="rr-link" className="a-input" type="url" value={link} onChange={(e) => setLink(e.target.value)} spellCheck={false} autoCapitalize="off" aria-describedby="rr-link-hint" readOnly={!editable} />
              <p id="rr-link-hint" className="a-muted">In your Google Business Profile, choose “Ask for reviews” and copy the link it shows.</p>
            </div>
          )}
          {editable ? <Button type="submit" disabled={busy}>{busy ? "Saving..." : "Save"}</Button> : <p className="a-muted">Only an admin account can change these.</p>}
          {error && <p className="a-error" role="alert">{error}</p>}
        </form>
      )}
    </Card>
  );
}

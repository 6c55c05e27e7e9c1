import "../../styles/admin-settings.css";
import { useState } from "react";
import { ApiError } from "../api";
import { errorText, useResource } from "../use-resource";
import { useToast } from "../toast";
import { Button, Card, LoadError } from "../ui";
import { bookingApi, WEEKDAYS, type BookingAvailability } from "../data/booking";
import { can } from "../capabilities";
import { useSession } from "../use-session";

/** WeekHours is one row per weekday: visits on or off, and the hours. */
function WeekHours({ a, set, disabled }: { a: BookingAvailability; set: (a: BookingAvailability) => void; disabled: boolean }) {
  const day = (i: number, open: string, close: string) => set({ ...a, weekly: a.weekly.map((d, j) => (j === i ? { open, close } : d)) });
  return (
    <fieldset className="bk-week" disabled={disabled}>
      <legend className="a-label">Visiting hours</legend>
      {WEEKDAYS.map((name, i) => {
        const d = a.weekly[i];
        const on = d.open !== "" || d.close !== "";
        return (
          <div key={name} className="bk-day">
            <label className="bk-day__on">
              <input type="checkbox" checked={on} onChange={(e) => day(i, e.target.checked ? "09:00" : "", e.target.checked ? "17:00" : "")} /> {name}
            </label>
            {on ? (
              <>
                <label className="visually-hidden" htmlFor={`bk-open-${i}`}>{name}: first visit starts at</label>
                <input id={`bk-open-${i}`} className="a-input bk-time" type="time" step={900} value={d.open} onChange={(e) => day(i, e.target.value, d.close)} />
                <span aria-hidden="true">to</span>
                <label className="visually-hidden" htmlFor={`bk-close-${i}`}>{name}: last visit ends by</label>
                <input id={`bk-close-${i}`} className="a-input bk-time" type="time" step={900} value={d.close} onChange={(e) => day(i, d.open, e.target.value)} />
              </>
            ) : <span className="a-muted">No visits</span>}
          </div>
        );
      })}
    </fieldset>
  );
}

/** Blocked lists the days without visits, with a date to add. */
function Blocked({ a, set, disabled }: { a: BookingAvailability; set: (a: BookingAvailability) => void; disabled: boolean }) {
  const [day, setDay] = useState("");
  return (
    <div className="a-field">
      <label className="a-label" htmlFor="bk-block">Days without visits (holidays, busy days)</label>
      <div className="bk-add">
        <input id="bk-block" className="a-input" type="date" value={day} onChange={(e) => setDay(e.target.value)} disabled={disabled} />
        <Button variant="outline" disabled={disabled || !day} onClick={() => { set({ ...a, blocked: [...a.blocked, day].sort() }); setDay(""); }}>Add day</Button>
      </div>
      {a.blocked.length === 0 ? <p className="a-muted">None.</p> : (
        <ul className="bk-blocked">
          {a.blocked.map((d) => (
            <li key={d}>{new Date(d + "T12:00:00").toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric" })}
              {!disabled && <Button variant="ghost" onClick={() => set({ ...a, blocked: a.blocked.filter((x) => x !== d) })} aria-label={`Remove ${d}`}>Remove</Button>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const num = (v: string) => (v.trim() === "" ? NaN : Number(v));

/** BookingSettings is the inspection booking card of System Settings:
 * when homeowners may book a visit online. The server checks every value;
 * only an account that may change settings saves. */
export function BookingSettings() {
  const toast = useToast();
  const editable = can(useSession().session, "settings.write");
  const res = useResource(bookingApi.availability, [], { onData: (r) => setA(r.availability) });
  const [a, setA] = useState<BookingAvailability | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!a) return;
    setBusy(true);
    setError("");
    try {
      const r = await bookingApi.save(a);
      setA(r.availability);
      toast({ title: "Saved", description: "Homeowners now see the new times when they book. Visits already booked stay as they are." });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const field = (k: "slotMinutes" | "perSlot" | "noticeHours", label: string, hint: string) => (
    <div className="a-field">
      <label className="a-label" htmlFor={`bk-${k}`}>{label}</label>
      <input id={`bk-${k}`} className="a-input" inputMode="numeric" value={a && !Number.isNaN(a[k]) ? String(a[k]) : ""} onChange={(e) => a && setA({ ...a, [k]: num(e.target.value) })} aria-describedby={`bk-${k}-hint`} readOnly={!editable} />
      <p id={`bk-${k}-hint`} className="a-muted">{hint}</p>
    </div>
  );

  return (
    <Card title="Inspection Booking" description={`Homeowners whose damage can wait pick an inspection time online, after sending the estimate form. Emergencies are never offered a time: they are called back. Times are Atlanta time (${res.data?.timeZone || "America/New_York"}).`}>
      {res.error ? <LoadError error={res.error} onRetry={res.retry} prefix="Booking settings could not be loaded: " /> : !a ? <p role="status">Loading...</p> : (
        <form className="bk-form" onSubmit={save} noValidate>
          <WeekHours a={a} set={setA} disabled={!editable} />
          <div className="a-form-grid">
            {field("slotMinutes", "Length of a visit, in minutes", "From 30 to 480, in steps of 15. The day is cut into visits of this length from the first hour.")}
            {field("perSlot", "Visits at the same time", "How many crews can visit at once (1 to 20).")}
            {field("noticeHours", "Shortest notice, in hours", "A homeowner cannot book a visit sooner than this. 24 is a day; 0 allows the next free time.")}
          </div>
          <Blocked a={a} set={setA} disabled={!editable} />
          {editable ? <Button type="submit" disabled={busy}>{busy ? "Saving..." : "Save booking settings"}</Button> : <p className="a-muted">Only an admin account can change these.</p>}
          {error && <p className="a-error" role="alert">{error}</p>}
        </form>
      )}
    </Card>
  );
}

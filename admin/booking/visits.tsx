import "../../styles/admin-settings.css";
import { useState } from "react";
import { ApiError } from "../api";
import { errorText, useResource } from "../use-resource";
import { useToast } from "../toast";
import { Button, Card, LoadError } from "../ui";
import { bookingApi, type VisitItem, type VisitsAnswer } from "../data/booking";
import { can } from "../capabilities";
import { useSession } from "../use-session";

/** MoveVisit picks an open window for one visit and moves it there; the
 * server refuses a window that filled meanwhile. */
function MoveVisit({ v, slots, onMoved }: { v: VisitItem; slots: VisitsAnswer["slots"]; onMoved: () => void }) {
  const toast = useToast();
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const id = `bk-move-${v.id}`;
  const move = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const r = await bookingApi.move(v.id, to);
      toast({ title: "Visit moved", description: `${v.firstName}'s visit is now ${r.when}.` });
      onMoved();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="bk-move" onSubmit={move}>
      <label className="visually-hidden" htmlFor={id}>New time for {v.firstName}'s visit</label>
      <select id={id} className="a-input" value={to} onChange={(e) => setTo(e.target.value)}>
        <option value="">Move to...</option>
        {slots.map((s) => <option key={s.start} value={s.start}>{s.label}</option>)}
      </select>
      <Button type="submit" variant="outline" disabled={busy || !to}>{busy ? "Moving..." : "Move"}</Button>
      {error && <p className="a-error" role="alert">{error}</p>}
    </form>
  );
}

/** Visits is the dashboard's card of today's and tomorrow's inspection
 * visits, each movable to an open window by whoever may change a lead. */
export function Visits() {
  const { session } = useSession();
  const res = useResource(bookingApi.visits, []);
  const mayMove = can(session, "leads.status");
  const d = res.data;
  return (
    <Card title="Inspection Visits" description="Visits homeowners booked online, in Atlanta time.">
      {res.error ? <LoadError error={res.error} onRetry={res.retry} prefix="Visits could not be loaded: " /> : !d ? <p role="status">Loading...</p> : (
        <div className="bk-days">
          {d.days.map((day) => (
            <section key={day.label} aria-label={`${day.label}, ${day.date}`}>
              <h3 className="bk-days__title">{day.label} <span className="a-muted">{day.date}</span></h3>
              {day.visits.length === 0 ? <p className="a-muted">No visits booked.</p> : (
                <ul className="bk-visits">
                  {day.visits.map((v) => (
                    <li key={v.id} className="bk-visit">
                      <p><strong>{v.when}</strong>: {v.firstName}{v.city ? `, ${v.city}` : ""}{v.damageType ? ` (${v.damageType})` : ""}</p>
                      {mayMove && <MoveVisit v={v} slots={d.slots} onMoved={res.refresh} />}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      )}
    </Card>
  );
}

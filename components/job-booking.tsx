import type { BookingSlot, BookingView, Site } from "./props.gen";
import { word } from "./words";

const w = (site: Pick<Site, "words">, key: string) => word(site, "booking", key);

/** SlotPicker is the open windows as radio buttons grouped by day, in
 * one plain form: it books (or moves) without JavaScript. */
function SlotPicker({ site, v, button }: { site: Site; v: BookingView; button: string }) {
  const days: { day: string; slots: BookingSlot[] }[] = [];
  for (const s of v.slots) {
    const last = days[days.length - 1];
    if (last && last.day === s.day) last.slots.push(s);
    else days.push({ day: s.day, slots: [s] });
  }
  return (
    <form method="post" action={v.action} className="booking__form">
      {days.map((d) => (
        <fieldset key={d.day} className="booking__day">
          <legend>{d.day}</legend>
          {d.slots.map((s) => (
            <label key={s.value} className="booking__slot">
              <input type="radio" name="start" value={s.value} required /> <span>{s.time}</span>
            </label>
          ))}
        </fieldset>
      ))}
      <button type="submit" className="btn btn--primary">{button}</button>
    </form>
  );
}

/** JobBooking is the inspection booking section of a homeowner's page:
 * the open windows to pick, or the booked visit with its calendar file,
 * a move and a cancel; an emergency gets the phone instead. Every
 * action is a plain form post (the page answers with a redirect). main
 * makes its title the page's h1 (the booking's own page). */
export function JobBooking({ site, v, main = false }: { site: Site; v: BookingView; main?: boolean }) {
  const Title = main ? "h1" : "h2";
  const call = <a className="btn btn--primary" href={site.tel}>{site.phone}</a>;
  return (
    <section className="booking" aria-labelledby="booking-title">
      <Title id="booking-title">{w(site, "headline")}</Title>
      {v.error && <p className="form-error" role="alert">{v.error}</p>}
      {v.state === "emergency" && (
        <>
          <p>{w(site, "emergency")}</p>
          <p>{call}</p>
        </>
      )}
      {v.state === "booked" && v.booked && (
        <div className="form-success" role="status">
          <p>{w(site, "booked")}</p>
          <p className="booking__when"><strong>{v.booked.day}</strong>, {v.booked.time}</p>
          <p><a href={v.icsHref} download="inspection.ics">{w(site, "calendar")}</a></p>
        </div>
      )}
      {v.state === "booked" && !v.moving && (
        <div className="booking__actions">
          <a className="btn" href={`${v.action}?move=1#booking-title`}>{w(site, "move")}</a>
          <form method="post" action={v.cancelAction}>
            <button type="submit" className="btn">{w(site, "cancel")}</button>
          </form>
        </div>
      )}
      {v.state === "booked" && v.moving && <SlotPicker site={site} v={v} button={w(site, "moveButton")} />}
      {v.state === "pick" && (
        <>
          {v.done === "cancelled" && <p className="form-success" role="status">{w(site, "cancelled")}</p>}
          <p>{w(site, "pick")}</p>
          <SlotPicker site={site} v={v} button={w(site, "button")} />
        </>
      )}
      {v.state === "closed" && (
        <>
          <p>{w(site, "closed")}</p>
          <p>{call}</p>
        </>
      )}
      {v.state === "full" && (
        <>
          {v.done === "cancelled" && <p className="form-success" role="status">{w(site, "cancelled")}</p>}
          <p>{w(site, "full")}</p>
          <p>{call}</p>
        </>
      )}
    </section>
  );
}

// The business hours picker (System Settings): each day open or closed,
// with its opening and closing time, written into the stored format
// (settings/hours.go: "Mo-Fr 08:00-18:00; Sa 09:00-13:00") so the owner
// never types it. The server still checks what it gets.
import { useEffect, useState } from "react";

const CODES = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];
const NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** Day is one day of the week's hours. */
export interface Day { open: boolean; opens: string; closes: string }

const closed = (): Day => ({ open: false, opens: "08:00", closes: "18:00" });

/** parseHours reads the stored format into seven days (null when it
 * cannot be read). */
export function parseHours(s: string): Day[] | null {
  const days: Day[] = CODES.map(closed);
  const rules = s.split(";").map((r) => r.trim()).filter(Boolean);
  if (!rules.length) return null;
  for (const rule of rules) {
    const m = rule.match(/^(\S+(?:\s*,\s*\S+)*)\s+(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})$/);
    if (!m) return null;
    for (const group of m[1].replace(/\s+/g, "").split(",")) {
      const [a, b] = group.split("-");
      const from = CODES.findIndex((c) => c.toLowerCase() === a.toLowerCase());
      const to = b === undefined ? from : CODES.findIndex((c) => c.toLowerCase() === b.toLowerCase());
      if (from < 0 || to < from) return null;
      for (let d = from; d <= to; d++) days[d] = { open: true, opens: m[2], closes: m[3] };
    }
  }
  return days;
}

/** formatHours writes seven days in the stored format: runs of days with
 * the same times as ranges, and runs with the same times in one rule. */
export function formatHours(days: Day[]): string {
  const runs: { from: number; to: number; times: string }[] = [];
  days.forEach((d, i) => {
    if (!d.open) return;
    const times = `${d.opens}-${d.closes}`;
    const last = runs[runs.length - 1];
    if (last && last.to === i - 1 && last.times === times) last.to = i;
    else runs.push({ from: i, to: i, times });
  });
  const rules: { groups: string[]; times: string }[] = [];
  for (const r of runs) {
    const g = r.from === r.to ? CODES[r.from] : `${CODES[r.from]}-${CODES[r.to]}`;
    const same = rules.find((x) => x.times === r.times);
    if (same) same.groups.push(g);
    else rules.push({ groups: [g], times: r.times });
  }
  return rules.map((r) => `${r.groups.join(",")} ${r.times}`).join("; ");
}

/** problemOf says what is wrong with the days, in the owner's words. */
function problemOf(days: Day[]): string {
  if (!days.some((d) => d.open)) return "Choose at least one day you are open.";
  const bad = days.findIndex((d) => d.open && (!d.opens || !d.closes || d.closes <= d.opens));
  return bad >= 0 ? `${NAMES[bad]}: the closing time must be after the opening time.` : "";
}

export function HoursPicker({ value, onChange, error, readText }: {
  value: string; onChange: (v: string) => void; error?: string; readText?: string;
}) {
  const parsed = parseHours(value);
  // The days are kept here: "closed every day" has no stored form, and
  // must not turn back into the default while the owner is choosing.
  const [days, setDays] = useState<Day[]>(() => parsed || CODES.map((_, i) => (i < 5 ? { open: true, opens: "08:00", closes: "18:00" } : closed())));
  useEffect(() => {
    const p = parseHours(value);
    if (p && formatHours(p) !== formatHours(days)) setDays(p);
  }, [value]); // eslint-disable-line react-hooks/exhaustive-deps
  const update = (next: Day[]) => { setDays(next); onChange(formatHours(next)); };
  const set = (i: number, d: Partial<Day>) => update(days.map((x, j) => (j === i ? { ...x, ...d } : x)));
  const local = problemOf(days);
  const copyWeekdays = () => update(days.map((x, j) => (j > 0 && j < 5 ? { ...days[0] } : x)));
  return (
    <fieldset className="hp" aria-describedby="set-businessHours-hint">
      <legend className="a-label">Business hours</legend>
      <p id="set-businessHours-hint" className="a-muted">
        Shown with "Call us" when 24/7 emergency mode is off{readText ? `; visitors read: ${readText}` : ""}.
        {!parsed && value.trim() !== "" && " The saved hours could not be read: choose them again."}
      </p>
      <ul className="hp__days">
        {days.map((d, i) => (
          <li key={CODES[i]} className={"hp__day" + (d.open ? "" : " hp__day--closed")}>
            <label className="hp__open">
              <input type="checkbox" checked={d.open} onChange={(e) => set(i, { open: e.target.checked })} />
              <span className="hp__name">{NAMES[i]}</span>
            </label>
            {d.open ? (
              <span className="hp__times">
                <label className="visually-hidden" htmlFor={`hp-${i}-opens`}>{NAMES[i]} opens at</label>
                <input id={`hp-${i}-opens`} type="time" className="a-input hp__time" value={d.opens} step={900}
                  onChange={(e) => set(i, { opens: e.target.value })} />
                <span aria-hidden="true">to</span>
                <label className="visually-hidden" htmlFor={`hp-${i}-closes`}>{NAMES[i]} closes at</label>
                <input id={`hp-${i}-closes`} type="time" className="a-input hp__time" value={d.closes} step={900}
                  onChange={(e) => set(i, { closes: e.target.value })} />
              </span>
            ) : <span className="a-muted hp__closed">Closed</span>}
          </li>
        ))}
      </ul>
      {days[0].open && <button type="button" className="a-btn a-btn--outline hp__copy" onClick={copyWeekdays}>Use Monday's hours Tuesday to Friday</button>}
      {(local || error) && <p id="set-businessHours-err" className="a-error" role="alert">{local || error}</p>}
    </fieldset>
  );
}

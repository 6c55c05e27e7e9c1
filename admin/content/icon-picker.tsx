// The icon picker: a service's icon chosen by sight from the icons the
// site draws (components/icons.tsx SERVICE_ICONS), never typed. The
// server accepts exactly these names and refuses any other.
import { Icon, SERVICE_ICONS } from "../../components/icons";
import type { ContentProblem } from "../data/content";
import { fieldId, Notes } from "./fields";

export function IconPicker({ fieldKey, label, hint, value, onChange, problems }: {
  fieldKey: string; label: string; hint?: string; value: string; onChange: (v: string) => void; problems: ContentProblem[];
}) {
  const id = fieldId(fieldKey);
  const known = SERVICE_ICONS.some((i) => i.name === value);
  const describedBy = [hint ? id + "-hint" : "", problems.length ? id + "-notes" : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset className="ac-group ac-icons" id={id} aria-describedby={describedBy}>
      <legend className="a-label">{label}</legend>
      {hint && <p id={id + "-hint"} className="ac-hint">{hint}</p>}
      {!known && (
        <p className="ac-note ac-note--warn">{value ? "The icon this service had is not one the site can show: choose one below." : "No icon chosen yet: choose one below."}</p>
      )}
      <div className="ac-icons__grid">
        {SERVICE_ICONS.map((i) => (
          <label key={i.name} className={"ac-icon" + (i.name === value ? " ac-icon--on" : "")}>
            <input type="radio" className="visually-hidden" name={id} value={i.name} checked={i.name === value} onChange={() => onChange(i.name)} />
            <Icon name={i.name} size={26} />
            <span className="ac-icon__label">{i.label}</span>
          </label>
        ))}
      </div>
      <Notes id={id + "-notes"} label={label} problems={problems} />
    </fieldset>
  );
}

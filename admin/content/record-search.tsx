// A record picker's search (record-picker.tsx): the owner types part of
// a name; after a pause the server answers the first page of the records
// that match (in the picker's county, never the record being edited), and
// each can be ticked to add it. A status line says how many match.
import { useEffect, useState } from "react";
import { count } from "../../components/plural";
import { useResource } from "../use-resource";
import { a, findChoices, PAGE, plural, type Choice, type Search } from "./choices";
import { ChoiceList } from "./record-chosen";
import type { RefField } from "./record-picker";

/** WAIT_MS is the pause in typing after which the server is asked. */
const WAIT_MS = 250;

/** RecordSearch finds records to add by name. total is how many there are
 * to choose from (the picker's first answer). */
export function RecordSearch({ field, id, search, total, chosen, withGroup, onToggle }: {
  field: RefField; id: string; search: Omit<Search, "q">; total: number; chosen: Set<string>; withGroup: boolean; onToggle: (c: Choice) => void;
}) {
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), WAIT_MS);
    return () => clearTimeout(t);
  }, [typed]);
  const found = useResource(() => findChoices(field.target, { ...search, q }), [field.target, search.county, search.exclude, q], { skip: q === "" });
  const answered = q !== "" && !found.loading && found.data;

  let status: string;
  if (typed.trim() === "") status = `${count(total, field.one, plural(field.one))} to choose from. Type part of a name to find one.`;
  else if (found.error && !found.loading) status = "The search did not work. Check the connection, then type again.";
  else if (!answered || typed.trim() !== q) status = "Searching...";
  else if (found.data!.total === 0) status = `No ${field.one} matches “${q}”.`;
  else if (found.data!.total <= PAGE) status = count(found.data!.total, "match", "matches") + ".";
  else status = `${found.data!.total} matches. The first ${PAGE} are shown: type more of the name to narrow them.`;

  return (
    <div className="ac-refs__search">
      <label className="ac-sublabel" htmlFor={`${id}-add`}>Find {a(field.one)} to add</label>
      <input id={`${id}-add`} type="search" className="a-input" data-choose="" value={typed} maxLength={200} autoComplete="off"
        placeholder="Type part of the name" aria-describedby={`${id}-found`}
        onChange={(e) => setTyped(e.target.value)} onKeyDown={(e) => { if (e.key === "Enter") { e.preventDefault(); setQ(typed.trim()); } }} />
      <p id={`${id}-found`} className="ac-refs__status" role="status">{status}</p>
      {typed.trim() !== "" && found.data && found.data.choices.length > 0 && (
        <ChoiceList choices={found.data.choices} chosen={chosen} single={field.single} name={id + "-choice"} withGroup={withGroup} onToggle={onToggle} />
      )}
    </div>
  );
}

// The record pickers' lists (record-picker.tsx): the records a field
// names, in order, each with its county and whether it is on the site;
// and the records that can be ticked to add them.
import { useEffect, useState } from "react";
import type { Kind } from "../data/content";
import { Button } from "../ui";
import { knownChoice, loadChoices, type Choice } from "./choices";

/** useChosen reads the records with these ids from the server (those not
 * read lately). nameOf(id) is the record, undefined while it loads, null
 * when no record of the kind has that id; the error is the owner's. */
export function useChosen(kind: Kind, ids: string[]): [(id: string) => Choice | null | undefined, string] {
  const [, setRead] = useState(0);
  const [error, setError] = useState("");
  const key = ids.join(",");
  useEffect(() => {
    let on = true;
    loadChoices(kind, ids).then(
      () => { if (on) { setError(""); setRead((n) => n + 1); } },
      () => { if (on) setError("The chosen names could not be loaded. Reload the page to try again."); });
    return () => { on = false; };
  }, [kind, key]); // eslint-disable-line react-hooks/exhaustive-deps -- key is ids
  return [(id) => knownChoice(kind, id), error];
}

/** ChosenList is a field's chosen records in order, each with buttons to
 * move it (ordered) and remove it. */
export function ChosenList({ list, nameOf, withGroup, ordered, onMove, onRemove }: {
  list: string[]; nameOf: (id: string) => Choice | undefined; withGroup: boolean; ordered: boolean;
  onMove: (i: number, d: number) => void; onRemove: (i: number) => void;
}) {
  if (list.length === 0) return <p className="a-muted">None chosen.</p>;
  return (
    <ol className="ac-refs__list">
      {list.map((v, i) => {
        const c = nameOf(v);
        const name = c ? c.name : "...";
        return (
          <li key={v + i} className="ac-refs__item">
            <span className="ac-refs__name">
              {name}
              {c?.group && withGroup && <span className="a-muted">, {c.group}</span>}
              {c && !c.live && <span className="ac-refs__off">, not on the site yet</span>}
            </span>
            <span className="ac-refs__actions">
              {ordered && <>
                <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-move={`${i}up`} disabled={i === 0} onClick={() => onMove(i, -1)}
                  aria-label={`Move ${name} up`}>↑</Button>
                <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-move={`${i}down`} disabled={i === list.length - 1} onClick={() => onMove(i, 1)}
                  aria-label={`Move ${name} down`}>↓</Button>
              </>}
              <Button variant="outline" className="a-btn a-btn--outline ac-btn-sm" data-remove={i} onClick={() => onRemove(i)}>
                Remove<span className="visually-hidden"> {name}</span>
              </Button>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** ChoiceList is records to tick (a checkbox each; single: a radio each),
 * ticked when chosen. */
export function ChoiceList({ choices, chosen, single, name, withGroup, onToggle }: {
  choices: Choice[]; chosen: Set<string>; single?: boolean; name: string; withGroup: boolean; onToggle: (c: Choice) => void;
}) {
  return (
    <ul className="ac-refs__choices">
      {choices.map((c) => (
        <li key={c.id}>
          <label className="ac-refs__choice">
            <input type={single ? "radio" : "checkbox"} name={name} data-choose="" checked={chosen.has(c.id)} onChange={() => onToggle(c)} />
            <span>
              {c.name}
              {c.group && withGroup && <span className="a-muted">, {c.group}</span>}
              {!c.live && <span className="ac-refs__off">, not on the site yet</span>}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}

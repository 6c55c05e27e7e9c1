// The one table of the admin's list screens: a table on a laptop, a card
// per record on a phone (below the admin's 768 px breakpoint, spec 9).
import { useEffect, useState, type HTMLAttributes, type ReactNode } from "react";
import { MOBILE_BREAKPOINT } from "./layout";

/** Column is one column of a DataTable. */
export interface Column<T> {
  key: string;
  /** label heads the column, and labels the value on a phone's card. */
  label: string;
  cell: (row: T) => ReactNode;
  /** rowHeader: this column names the row (a th, which a screen reader
   * reads before each cell of the row); on a phone it is the card's title. */
  rowHeader?: boolean;
  /** hideLabel keeps the label for screen readers only (an Actions column). */
  hideLabel?: boolean;
  className?: string;
}

type RowAttrs = HTMLAttributes<HTMLElement> & { "aria-current"?: "true" | undefined };

export interface DataTableProps<T> {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** caption names the table (and the card list) for screen readers. */
  caption: string;
  /** className is added to the table. */
  className?: string;
  /** rowProps gives a row (as "row") or its card (as "card") an id, a
   * class, a tabIndex. */
  rowProps?: (row: T, as: "row" | "card") => RowAttrs;
  /** card, when given, is the screen's own card for a record: below
   * 768 px the rows are then a list of these cards (cardsClassName on
   * the list). Without it, the table's own rows are laid out as cards
   * there by CSS (styles/admin.css, .a-dt), each value under its label. */
  card?: (row: T) => ReactNode;
  cardsClassName?: string;
}

const NARROW = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

/** useNarrow follows the admin's mobile breakpoint. It reads the media
 * query before the first paint (the admin only renders in the browser,
 * after sign-in), so nothing shifts when the screen opens. */
export function useNarrow() {
  const [narrow, setNarrow] = useState(() => typeof window !== "undefined" && window.matchMedia(NARROW).matches);
  useEffect(() => {
    const mq = window.matchMedia(NARROW);
    const on = () => setNarrow(mq.matches);
    on();
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return narrow;
}

/** DataTable is a list of records: a semantic table from 768 px (column
 * headers, a row header naming each row), a card per record below it
 * that shows each column's label beside its value. The table keeps its
 * roles written out, so laying its rows out as cards does not take the
 * table's semantics away. */
export function DataTable<T>(p: DataTableProps<T>) {
  const narrow = useNarrow();
  if (p.card && narrow) {
    return (
      <ul className={"a-dt-cards" + (p.cardsClassName ? " " + p.cardsClassName : "")} aria-label={p.caption}>
        {p.rows.map((r) => <li key={p.rowKey(r)} {...p.rowProps?.(r, "card")}>{p.card!(r)}</li>)}
      </ul>
    );
  }
  return (
    <table className={"a-table a-dt" + (p.className ? " " + p.className : "")} role="table">
      <caption className="visually-hidden">{p.caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {p.columns.map((c) => (
            <th key={c.key} scope="col" role="columnheader" className={c.className}>{c.hideLabel ? <span className="visually-hidden">{c.label}</span> : c.label}</th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {p.rows.map((r) => (
          <tr key={p.rowKey(r)} role="row" {...p.rowProps?.(r, "row")}>
            {p.columns.map((c) => {
              // The row header is the card's title; every other value shows
              // its label (a CSS ::before, kept out of the cell's text).
              return c.rowHeader
                ? <th key={c.key} scope="row" role="rowheader" className={c.className}>{c.cell(r)}</th>
                : <td key={c.key} role="cell" className={c.className} data-label={c.hideLabel ? undefined : c.label}>{c.cell(r)}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

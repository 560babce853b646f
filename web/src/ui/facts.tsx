import type { ReactNode } from "react";

/** Named values read down a card, each name beside its value (under it on a phone): an order's amounts, a customer's details. */
export function Facts({ rows }: { rows: [term: string, value: ReactNode][] }) {
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term} className="facts-row">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

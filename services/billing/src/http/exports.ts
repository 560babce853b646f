import { isoInTimeZone } from "../calendar/zoned.js";

/** An export's file name, as Polar's: what it holds, then the days it is bounded by in its time zone (`orders-2026-11-01.csv`). */
export function exportFilename(what: string, bounds: readonly (Date | undefined)[], timeZone: string): string {
  const days = bounds.flatMap((bound) => (bound ? [`-${isoInTimeZone(bound, timeZone).slice(0, 10)}`] : []));
  return `${what}${days.join("")}.csv`;
}

/** An amount in the currency's units, as Polar's exports write it (1999 cents is 19.99). */
export const exportAmount = (cents: number) => cents / 100;

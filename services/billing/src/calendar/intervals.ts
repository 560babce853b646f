export type Interval = "day" | "week" | "month" | "year";

/** `date` moved on by `count` intervals, in UTC; a month from 31 January is the last day of February. */
export function addInterval(date: Date, interval: Interval, count: number): Date {
  const moved = new Date(date);
  if (interval === "day") moved.setUTCDate(moved.getUTCDate() + count);
  else if (interval === "week") moved.setUTCDate(moved.getUTCDate() + 7 * count);
  else {
    const months = interval === "year" ? 12 * count : count;
    const day = moved.getUTCDate();
    moved.setUTCDate(1);
    moved.setUTCMonth(moved.getUTCMonth() + months);
    const lastDay = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate();
    moved.setUTCDate(Math.min(day, lastDay));
  }
  return moved;
}

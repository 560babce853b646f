import type { MetricInterval, MetricsLimits } from "./metrics-api";

export const PRESETS = ["7d", "30d", "12m", "custom"] as const;
export type Preset = (typeof PRESETS)[number];
export const INTERVALS: MetricInterval[] = ["day", "week", "month", "year"];

/** A range of whole days in the seller's time zone, both ends included (YYYY-MM-DD). */
export interface DayRange {
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
/** Days are counted in UTC so that a daylight saving change never makes one 23 hours long. */
const addDays = (day: string, days: number) => new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);
export const daysIn = ({ start, end }: DayRange) => Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS) + 1;

/** Today in the browser's time zone, which is the seller's. */
export const today = () => dayOf(new Date());

/** The days a preset covers up to today: 12 months are the year up to today. */
export function presetRange(preset: Exclude<Preset, "custom">, until = today()): DayRange {
  if (preset === "7d") return { start: addDays(until, -6), end: until };
  if (preset === "30d") return { start: addDays(until, -29), end: until };
  const yearAgo = new Date(Date.parse(until));
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  return { start: addDays(yearAgo.toISOString().slice(0, 10), 1), end: until };
}

/** The range of as many days just before, to compare with. */
export function previousRange(range: DayRange): DayRange {
  const days = daysIn(range);
  return { start: addDays(range.start, -days), end: addDays(range.start, -1) };
}

/** The intervals the API charts the range in: enough periods to draw a line, never too many (Polar's limits). */
export function intervalsFor(range: DayRange, limits: MetricsLimits | undefined): MetricInterval[] {
  if (!limits) return INTERVALS;
  const span = daysIn(range) - 1;
  return INTERVALS.filter((interval) => span >= limits.intervals[interval].min_days && span <= limits.intervals[interval].max_days);
}

/** The interval asked for if the range allows it, else the finest it allows. */
export function fittingInterval(asked: MetricInterval, allowed: MetricInterval[]): MetricInterval {
  return allowed.includes(asked) ? asked : (allowed[0] ?? asked);
}

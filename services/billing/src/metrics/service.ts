import type { z } from "zod";
import { randomId, ValidationError, type Knex } from "@tollgate/kit";
import { METRICS, UNANSWERED_SLUGS, type Figures, type Metric } from "./definitions.js";
import { metricsRows, type MetricsQuery, type MetricsRow, type TimeInterval } from "./metrics.sql.js";
import { deleteMetricDashboard, insertMetricDashboard, metricDashboardsOf, updateMetricDashboard, type MetricDashboardRow } from "./dashboards.sql.js";
import type { MetricDashboardCreate, MetricDashboardUpdate, MetricsQueryParameters } from "./schemas.js";

// The read the routes make, as the store has it: a dashboard by id.
export { findMetricDashboard } from "./dashboards.sql.js";

/** Before Polar existed there is nothing to chart. */
export const MIN_DATE = "2023-01-01";

/** How many days a range may span for each interval, as Polar limits them: enough buckets to chart, never too many. */
export const INTERVAL_DAYS: Record<TimeInterval, { min_days: number; max_days: number }> = {
  hour: { min_days: 0, max_days: 7 },
  day: { min_days: 0, max_days: 366 },
  week: { min_days: 14, max_days: 7 * 53 },
  month: { min_days: 60, max_days: 365 * 4 },
  year: { min_days: 366, max_days: 365 * 10 },
};

const DAY_MS = 86_400_000;
const daysBetween = (start: string, end: string) => (Date.parse(end) - Date.parse(start)) / DAY_MS;

/** Polar's 422s: a slug it does not know, and a range too long for the interval. */
function checkRequest(parameters: MetricsQueryParameters): void {
  const known = new Set([...METRICS.map((metric) => metric.slug), ...UNANSWERED_SLUGS]);
  const unknown = (parameters.metrics ?? []).filter((slug) => !known.has(slug));
  if (unknown.length > 0) {
    throw new ValidationError([{ location: "query", path: ["metrics"], message: `Invalid metric slugs: ${[...new Set(unknown)].sort().join(", ")}`, code: "value_error", input: parameters.metrics }]);
  }
  const days = daysBetween(parameters.start_date, parameters.end_date);
  if (days < 0 || days > INTERVAL_DAYS[parameters.interval].max_days) {
    throw new ValidationError([
      {
        location: "query",
        path: [],
        message: "The interval is too small for the given date range. Use a larger interval or reduce the date range.",
        code: "value_error",
        input: [parameters.start_date, parameters.end_date, parameters.interval],
      },
    ]);
  }
}

/**
 * Whether the timezone's days start on a UTC hour all through the range (not India's, Nepal's,
 * Newfoundland's, or Lord Howe's in winter), looking at its offset every four weeks: an offset holds
 * for months.
 */
function startsDaysOnTheHour(timezone: string, firstDay: string, lastDay: string): boolean {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: timezone, timeZoneName: "longOffset" });
  const offsetOf = (moment: number) => format.formatToParts(moment).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const [first, last] = [Date.parse(firstDay), Date.parse(lastDay) + DAY_MS];
  for (let moment = first; moment < last + 28 * DAY_MS; moment += 28 * DAY_MS) {
    // "GMT", "GMT+02:00", "GMT-09:30": the minutes after the hour.
    if (!/^GMT([+-]\d{2}:00)?$/.test(offsetOf(Math.min(moment, last)))) return false;
  }
  return true;
}

/**
 * Where orders and checkouts are summed from: the hourly rollups (per seller, or per product when
 * narrowed to products or a billing type), unless they cannot answer: a customer's figures (they are
 * not kept per customer), or a timezone whose day starts within an hour.
 */
function sourceFor(parameters: MetricsQueryParameters): MetricsQuery["source"] {
  if (parameters.customer_id || !startsDaysOnTheHour(parameters.timezone, parameters.start_date, parameters.end_date)) return "rows";
  return parameters.product_id || parameters.billing_type ? "product_hours" : "seller_hours";
}

/** The metrics asked for: all when none is named. */
const metricsAsked = (slugs: string[] | undefined): Metric[] => (slugs ? METRICS.filter((metric) => slugs.includes(metric.slug)) : METRICS);

/** A bucket's figures as numbers, the derived ones worked out from the rest. */
function periodOf(row: MetricsRow): { timestamp: Date; figures: Figures } {
  const figures: Figures = {};
  for (const metric of METRICS) if (!metric.derive) figures[metric.slug] = Number(row[metric.slug] ?? 0);
  for (const metric of METRICS) if (metric.derive) figures[metric.slug] = metric.derive(figures);
  return { timestamp: row.timestamp, figures };
}

function totalOf(metric: Metric, periods: Figures[]): number {
  const sum = (slug: string) => periods.reduce((total, period) => total + (period[slug] ?? 0), 0);
  if (metric.total.of === "sum") return sum(metric.slug);
  if (metric.total.of === "last") return periods.at(-1)?.[metric.slug] ?? 0;
  const denominator = sum(metric.total.denominator);
  return denominator > 0 ? sum(metric.total.numerator) / denominator : 0;
}

export interface MetricsAnswer {
  periods: { timestamp: Date; figures: Figures }[];
  totals: Figures;
  metrics: Metric[];
}

/**
 * The seller's figures per bucket of the range, with their totals: of the organizations the caller
 * may read (narrowed to those named), in the seller's timezone.
 */
export async function metricsOf(db: Knex, readable: string[], parameters: MetricsQueryParameters): Promise<MetricsAnswer> {
  checkRequest(parameters);
  const asked = metricsAsked(parameters.metrics);
  const { organization_id: named, start_date: first_day, end_date: last_day, timezone, interval } = parameters;
  const organizations = named ? readable.filter((id) => named.includes(id)) : readable;
  const filters = { organizations, timezone, interval, first_day, last_day, products: parameters.product_id ?? null, billing_types: parameters.billing_type ?? null, customers: parameters.customer_id ?? null };
  const rows = await metricsRows(db, filters, { source: sourceFor(parameters), parts: new Set(asked.flatMap((metric) => [metric.part, ...(metric.alsoFrom ?? [])])) });
  const periods = rows.map(periodOf);
  const figures = periods.map((period) => period.figures);
  return { periods, totals: Object.fromEntries(asked.map((metric) => [metric.slug, totalOf(metric, figures)])), metrics: asked };
}

/** The dashboards of the organizations the caller may read, narrowed to those named. */
export const metricDashboardsFor = (db: Knex, readable: string[], named: string[] | undefined): Promise<MetricDashboardRow[]> =>
  metricDashboardsOf(db, named ? readable.filter((id) => named.includes(id)) : readable);

export const createMetricDashboard = (db: Knex, organizationId: string, body: z.output<typeof MetricDashboardCreate>): Promise<MetricDashboardRow> =>
  insertMetricDashboard(db, { id: randomId(32), organization_id: organizationId, name: body.name, metrics: body.metrics });

/** Renames a dashboard or changes its metrics; what the change leaves out, or sets to null, stays. */
export async function changeMetricDashboard(db: Knex, existing: MetricDashboardRow, body: z.output<typeof MetricDashboardUpdate>): Promise<MetricDashboardRow> {
  const updated = await updateMetricDashboard(db, existing.id, { ...(body.name != null && { name: body.name }), ...(body.metrics != null && { metrics: body.metrics }) });
  return updated ?? existing;
}

export async function removeMetricDashboard(db: Knex, dashboard: MetricDashboardRow): Promise<void> {
  await deleteMetricDashboard(db, dashboard.id);
}

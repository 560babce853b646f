import { z } from "zod";
import { dayInput, isoTimestamp, repeated, timeZoneName } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { METRIC_SLUGS, METRICS } from "./definitions.js";

export const TIME_INTERVALS = ["hour", "day", "week", "month", "year"] as const;

/** Polar's metrics query, in a time zone this Postgres knows (`timeZones`, read at start). */
export const metricsQuery = (timeZones: ReadonlySet<string>) =>
  z.object({
    start_date: dayInput(),
    end_date: dayInput(),
    timezone: timeZoneName(timeZones).default("UTC"),
    interval: z.enum(TIME_INTERVALS),
    organization_id: repeated(z.string()),
    product_id: repeated(z.string()),
    billing_type: repeated(z.enum(["one_time", "recurring"])),
    customer_id: repeated(z.string()),
    metrics: repeated(z.string()),
  });

export type MetricsQueryParameters = z.output<ReturnType<typeof metricsQuery>>;

const figure = z.number().nullish();
const figures = Object.fromEntries(METRICS.map((metric) => [metric.slug, figure]));
const MetricInfo = z.object({ slug: z.string(), display_name: z.string(), type: z.enum(["scalar", "currency", "currency_sub_cent", "percentage"]) }).meta({ id: "Metric" });

export const MetricsResponse = z
  .strictObject({
    periods: z.array(z.strictObject({ timestamp: isoTimestamp(), ...figures }).meta({ id: "MetricPeriod" })),
    totals: z.strictObject(figures).meta({ id: "MetricsTotals" }),
    metrics: z.strictObject(Object.fromEntries(METRICS.map((metric) => [metric.slug, MetricInfo.nullish()]))).meta({ id: "Metrics" }),
  })
  .meta({ id: "MetricsResponse" });

const IntervalLimit = z.strictObject({ min_days: z.int(), max_days: z.int() }).meta({ id: "MetricsIntervalLimit" });

export const MetricsLimits = z
  .strictObject({
    min_date: z.iso.date(),
    intervals: z.strictObject(Object.fromEntries(TIME_INTERVALS.map((interval) => [interval, IntervalLimit]))).meta({ id: "MetricsIntervalsLimits" }),
  })
  .meta({ id: "MetricsLimits" });

/** Polar shows at most ten metrics on a dashboard. */
const MAX_DASHBOARD_METRICS = 10;
/** A dashboard's metrics: only those Tollgate works out (an unanswered one would chart nothing). */
const dashboardMetrics = z.array(z.enum(METRIC_SLUGS, { error: "Not a metric Tollgate computes" })).max(MAX_DASHBOARD_METRICS);
const dashboardName = z.string().min(1);

export const MetricDashboard = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    name: z.string(),
    metrics: z.array(z.string()),
    organization_id: z.string(),
  })
  .meta({ id: "MetricDashboardSchema" });

export const MetricDashboardList = z.array(MetricDashboard);

export const MetricDashboardListQuery = z.object(sellerFilter);

export const MetricDashboardCreate = z.object({ name: dashboardName, metrics: dashboardMetrics.default([]), organization_id: z.string().nullish() });

/** What is left out, or null, stays as it was. */
export const MetricDashboardUpdate = z.object({ name: dashboardName.nullish(), metrics: dashboardMetrics.nullish() });

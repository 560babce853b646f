import { z } from "zod";
import { isoTimestamp, repeated } from "@tollgate/kit";
import { METRICS } from "./definitions.js";

export const TIME_INTERVALS = ["hour", "day", "week", "month", "year"] as const;

/** Whether the runtime (and so Postgres, which shares the IANA database) knows the timezone. */
const isTimezone = (name: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

export const MetricsQueryParameters = z.object({
  start_date: z.iso.date(),
  end_date: z.iso.date(),
  timezone: z.string().refine(isTimezone, "Invalid timezone").default("UTC"),
  interval: z.enum(TIME_INTERVALS),
  organization_id: repeated(z.string()),
  product_id: repeated(z.string()),
  billing_type: repeated(z.enum(["one_time", "recurring"])),
  customer_id: repeated(z.string()),
  metrics: repeated(z.string()),
});

export type MetricsQueryParameters = z.output<typeof MetricsQueryParameters>;

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

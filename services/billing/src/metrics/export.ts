import type { CsvValue } from "@tollgate/kit";
import { isoInTimeZone } from "../calendar/zoned.js";
import { EXPORT_BATCH } from "../db/batches.js";
import type { MetricsAnswer } from "./service.js";

/** Polar's metrics export header: the period's start, then each metric asked for under its display name. */
export const metricsExportHeader = ({ metrics }: MetricsAnswer): string[] => ["Timestamp", ...metrics.map((metric) => metric.display_name)];

/**
 * The export's rows, one per period, a batch at a time: each period's start in the time zone asked
 * for, then its figures as GET /v1/metrics gives them (amounts in cents, rates as fractions). The
 * periods are few (the interval's limits bound them), so the answer is held once and written out in batches.
 */
export function* metricsExportRows({ periods, metrics }: MetricsAnswer, timeZone: string, batchSize = EXPORT_BATCH): Generator<CsvValue[][]> {
  for (let start = 0; start < periods.length; start += batchSize) {
    yield periods.slice(start, start + batchSize).map(({ timestamp, figures }) => [isoInTimeZone(timestamp, timeZone), ...metrics.map((metric) => figures[metric.slug] ?? 0)]);
  }
}

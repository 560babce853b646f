import type { MetricsAnswer } from "./service.js";

/** Polar's MetricsResponse: each period's figures and the totals for the metrics asked for, and what those metrics are. */
export function metricsJson({ periods, totals, metrics }: MetricsAnswer) {
  return {
    periods: periods.map(({ timestamp, figures }) => ({ timestamp: timestamp.toISOString(), ...Object.fromEntries(metrics.map((metric) => [metric.slug, figures[metric.slug] ?? 0])) })),
    totals,
    metrics: Object.fromEntries(metrics.map(({ slug, display_name, type }) => [slug, { slug, display_name, type }])),
  };
}

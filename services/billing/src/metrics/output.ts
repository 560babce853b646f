import type { MetricsAnswer } from "./service.js";
import type { MetricDashboardRow } from "./dashboards.sql.js";

/** Polar's MetricsResponse: each period's figures and the totals for the metrics asked for, and what those metrics are. */
export function metricsJson({ periods, totals, metrics }: MetricsAnswer) {
  return {
    periods: periods.map(({ timestamp, figures }) => ({ timestamp: timestamp.toISOString(), ...Object.fromEntries(metrics.map((metric) => [metric.slug, figures[metric.slug] ?? 0])) })),
    totals,
    metrics: Object.fromEntries(metrics.map(({ slug, display_name, type }) => [slug, { slug, display_name, type }])),
  };
}

/** A metric dashboard as Polar shows it. */
export const metricDashboardJson = (dashboard: MetricDashboardRow) => ({
  id: dashboard.id,
  created_at: dashboard.created_at,
  modified_at: dashboard.modified_at,
  name: dashboard.name,
  metrics: dashboard.metrics,
  organization_id: dashboard.organization_id,
});

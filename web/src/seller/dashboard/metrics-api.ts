import { request } from "../../api/client";

export type MetricInterval = "day" | "week" | "month" | "year";

/** The metrics the dashboard charts, as Polar names them. */
export const DASHBOARD_METRICS = [
  "revenue",
  "orders",
  "average_order_value",
  "monthly_recurring_revenue",
  "active_subscriptions",
  "new_subscriptions",
  "canceled_subscriptions",
  "checkouts_conversion",
  "churn_rate",
  "average_revenue_per_user",
] as const;

export type DashboardMetric = (typeof DASHBOARD_METRICS)[number];

/** Polar's MetricsResponse and MetricsLimits. */
import type { MetricsLimits, MetricsResponse as Metrics } from "../../api/wire";

export type { Metrics, MetricsLimits };

export interface MetricsQuery {
  organizationId: string;
  /** YYYY-MM-DD, both included, in `timezone`. */
  startDate: string;
  endDate: string;
  interval: MetricInterval;
  timezone: string;
}

export function getMetrics({ organizationId, startDate, endDate, interval, timezone }: MetricsQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, start_date: startDate, end_date: endDate, interval, timezone });
  for (const metric of DASHBOARD_METRICS) query.append("metrics", metric);
  return request<Metrics>(`/v1/metrics/?${query.toString()}`);
}

export const getMetricsLimits = () => request<MetricsLimits>("/v1/metrics/limits");

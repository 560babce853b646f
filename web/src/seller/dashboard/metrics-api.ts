import { request } from "../../api/client";
import type { MetricDashboard, MetricsLimits, MetricsResponse as Metrics, RequestBody } from "../../api/wire";

export type { MetricDashboard, Metrics, MetricsLimits };

export type MetricInterval = "day" | "week" | "month" | "year";

/** The metrics the dashboard charts, as Polar names them. */
export const DASHBOARD_METRICS = [
  "net_revenue",
  "revenue",
  "orders",
  "average_order_value",
  "monthly_recurring_revenue",
  "trial_committed_monthly_recurring_revenue",
  "active_subscriptions",
  "new_subscriptions",
  "canceled_subscriptions",
  "checkouts_conversion",
  "churn_rate",
  "average_revenue_per_user",
] as const;

export type DashboardMetric = (typeof DASHBOARD_METRICS)[number];

/** The metrics among `slugs` the dashboard can chart, in its order: a dashboard saved through the API may name others. */
export const chartable = (slugs: readonly string[]): DashboardMetric[] => DASHBOARD_METRICS.filter((metric) => slugs.includes(metric));

export interface MetricsQuery {
  organizationId: string;
  /** YYYY-MM-DD, both included, in `timezone`. */
  startDate: string;
  endDate: string;
  interval: MetricInterval;
  timezone: string;
}

const searchOf = ({ organizationId, startDate, endDate, interval, timezone }: MetricsQuery, metrics: readonly string[]) => {
  const search = new URLSearchParams({ organization_id: organizationId, start_date: startDate, end_date: endDate, interval, timezone });
  for (const metric of metrics) search.append("metrics", metric);
  return search.toString();
};

/** Every metric the dashboard can chart, so that choosing which to show asks the server nothing more. */
export const getMetrics = (query: MetricsQuery) => request<Metrics>(`/v1/metrics/?${searchOf(query, DASHBOARD_METRICS)}`);

export const getMetricsLimits = () => request<MetricsLimits>("/v1/metrics/limits");

/** Polar's metrics export (CSV text) of `metrics` over the query's range; the request is answered with the text itself, not JSON. */
export const exportMetrics = (query: MetricsQuery, metrics: readonly DashboardMetric[]) => request<string>(`/v1/metrics/export?${searchOf(query, metrics)}`, { headers: { accept: "text/csv" } });

export type MetricDashboardCreate = RequestBody<"/v1/metrics/dashboards", "post">;
export type MetricDashboardUpdate = RequestBody<"/v1/metrics/dashboards/{id}", "patch">;

export const listMetricDashboards = (organizationId: string) => request<MetricDashboard[]>(`/v1/metrics/dashboards?organization_id=${encodeURIComponent(organizationId)}`);
export const createMetricDashboard = (body: MetricDashboardCreate) => request<MetricDashboard>("/v1/metrics/dashboards", { method: "POST", body });
export const updateMetricDashboard = (id: string, change: MetricDashboardUpdate) => request<MetricDashboard>(`/v1/metrics/dashboards/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
export const deleteMetricDashboard = (id: string) => request<null>(`/v1/metrics/dashboards/${encodeURIComponent(id)}`, { method: "DELETE" });

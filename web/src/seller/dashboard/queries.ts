import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createMetricDashboard, deleteMetricDashboard, getMetrics, getMetricsLimits, listMetricDashboards, updateMetricDashboard, type MetricDashboardUpdate, type MetricsQuery } from "./metrics-api";

export const metricKeys = {
  all: ["metrics"] as const,
  limits: () => [...metricKeys.all, "limits"] as const,
  range: (query: MetricsQuery) => [...metricKeys.all, "range", query] as const,
  allDashboards: () => [...metricKeys.all, "dashboards"] as const,
  dashboards: (organizationId: string) => [...metricKeys.allDashboards(), organizationId] as const,
};

/** The ranges and intervals the server allows, which do not change while the app runs. */
export const metricsLimitsQuery = () => queryOptions({ queryKey: metricKeys.limits(), queryFn: getMetricsLimits, staleTime: Infinity });
export const metricsQuery = (query: MetricsQuery) => queryOptions({ queryKey: metricKeys.range(query), queryFn: () => getMetrics(query) });
export const metricDashboardsQuery = (organizationId: string) => queryOptions({ queryKey: metricKeys.dashboards(organizationId), queryFn: () => listMetricDashboards(organizationId) });

// A dashboard changes no figures: its changes refresh the saved dashboards only.
const dashboardsKey = () => [metricKeys.allDashboards()];
export const useCreateMetricDashboard = () => useChange(createMetricDashboard, dashboardsKey);
export const useUpdateMetricDashboard = () => useChange(({ id, change }: { id: string; change: MetricDashboardUpdate }) => updateMetricDashboard(id, change), dashboardsKey);
export const useDeleteMetricDashboard = () => useChange(deleteMetricDashboard, dashboardsKey);

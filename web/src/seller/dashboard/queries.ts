import { queryOptions } from "@tanstack/react-query";
import { getMetrics, getMetricsLimits, type MetricsQuery } from "./metrics-api";

export const metricKeys = {
  all: ["metrics"] as const,
  limits: () => [...metricKeys.all, "limits"] as const,
  range: (query: MetricsQuery) => [...metricKeys.all, "range", query] as const,
};

/** The ranges and intervals the server allows, which do not change while the app runs. */
export const metricsLimitsQuery = () => queryOptions({ queryKey: metricKeys.limits(), queryFn: getMetricsLimits, staleTime: Infinity });
export const metricsQuery = (query: MetricsQuery) => queryOptions({ queryKey: metricKeys.range(query), queryFn: () => getMetrics(query) });

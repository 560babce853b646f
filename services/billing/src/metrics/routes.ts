import { z } from "zod";
import { defineEndpoint, reachable, sendCsv, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { exportFilename } from "../http/exports.js";
import { metricsExportHeader, metricsExportRows } from "./export.js";
import { metricDashboardJson, metricsJson } from "./output.js";
import { MetricDashboard, MetricDashboardCreate, MetricDashboardList, MetricDashboardListQuery, MetricDashboardUpdate, MetricsLimits, metricsQuery, MetricsResponse, TIME_INTERVALS } from "./schemas.js";
import { changeMetricDashboard, createMetricDashboard, findMetricDashboard, INTERVAL_DAYS, metricDashboardsFor, metricsOf, MIN_DATE, removeMetricDashboard } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "metrics";

export function metricEndpoints({ db, access, timeZones }: Pick<Parts, "db" | "access" | "timeZones">): Endpoint[] {
  const dashboard = async (identity: IdentityClaims, scope: "metrics:read" | "metrics:write", id: string) => reachable(access, identity, scope, await findMetricDashboard(db, id), "Metric dashboard");
  return [
    defineEndpoint("/v1/metrics/", { method: "GET", query: metricsQuery(timeZones), response: MetricsResponse, summary: "Get metrics", tag: TAG }, async ({ query, identity }) =>
      metricsJson(await metricsOf(db, await access.organizationIds(identity, "metrics:read"), query)),
    ),

    defineEndpoint("/v1/metrics/export", { method: "GET", query: metricsQuery(timeZones), produces: "text/csv", summary: "Export metrics as a CSV file", tag: TAG }, async ({ query, identity, res }) => {
      // Worked out (and refused, as GET /v1/metrics/ refuses) before the first byte is sent.
      const answer = await metricsOf(db, await access.organizationIds(identity, "metrics:read"), query);
      await sendCsv(res, exportFilename("metrics", [], query.timezone), metricsExportHeader(answer), metricsExportRows(answer, query.timezone));
    }),

    defineEndpoint("/v1/metrics/limits", { method: "GET", response: MetricsLimits, summary: "Get metrics limits", tag: TAG }, async ({ identity }) => {
      await access.organizationIds(identity, "metrics:read");
      return { min_date: MIN_DATE, intervals: Object.fromEntries(TIME_INTERVALS.map((interval) => [interval, INTERVAL_DAYS[interval]])) };
    }),

    defineEndpoint("/v1/metrics/dashboards", { method: "GET", query: MetricDashboardListQuery, response: MetricDashboardList, summary: "List metric dashboards", tag: TAG }, async ({ query, identity }) =>
      (await metricDashboardsFor(db, await access.organizationIds(identity, "metrics:read"), query.organization_id)).map(metricDashboardJson),
    ),

    defineEndpoint("/v1/metrics/dashboards", { method: "POST", status: 201, body: MetricDashboardCreate, response: MetricDashboard, summary: "Create a metric dashboard", tag: TAG }, async ({ body, identity }) =>
      metricDashboardJson(await createMetricDashboard(db, await access.organizationFor(identity, "metrics:write", body.organization_id), body)),
    ),

    defineEndpoint("/v1/metrics/dashboards/:id", { method: "GET", params: z.object({ id: z.string() }), response: MetricDashboard, summary: "Get a metric dashboard", tag: TAG }, async ({ params, identity }) =>
      metricDashboardJson(await dashboard(identity, "metrics:read", params.id)),
    ),

    defineEndpoint("/v1/metrics/dashboards/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: MetricDashboardUpdate, response: MetricDashboard, summary: "Update a metric dashboard", tag: TAG }, async ({ params, body, identity }) =>
      metricDashboardJson(await changeMetricDashboard(db, await dashboard(identity, "metrics:write", params.id), body)),
    ),

    defineEndpoint("/v1/metrics/dashboards/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a metric dashboard", tag: TAG }, async ({ params, identity }) =>
      removeMetricDashboard(db, await dashboard(identity, "metrics:write", params.id)),
    ),
  ];
}

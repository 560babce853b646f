import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { metricsJson } from "./output.js";
import { MetricsLimits, metricsQuery, MetricsResponse, TIME_INTERVALS } from "./schemas.js";
import { INTERVAL_DAYS, metricsOf, MIN_DATE } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "metrics";

export function metricEndpoints({ db, access, timeZones }: Pick<Parts, "db" | "access" | "timeZones">): Endpoint[] {
  return [
    defineEndpoint("/v1/metrics/", { method: "GET", query: metricsQuery(timeZones), response: MetricsResponse, summary: "Get metrics", tag: TAG }, async ({ query, identity }) =>
      metricsJson(await metricsOf(db, await access.organizationIds(identity, "metrics:read"), query)),
    ),

    defineEndpoint("/v1/metrics/limits", { method: "GET", response: MetricsLimits, summary: "Get metrics limits", tag: TAG }, async ({ identity }) => {
      await access.organizationIds(identity, "metrics:read");
      return { min_date: MIN_DATE, intervals: Object.fromEntries(TIME_INTERVALS.map((interval) => [interval, INTERVAL_DAYS[interval]])) };
    }),
  ];
}

import { z } from "zod";
import { defineEndpoint, pageJson, reachable, sendCsv, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import type { Parts } from "../parts.js";
import { exportFilename } from "../http/exports.js";
import { SUBSCRIPTION_EXPORT_DEFAULT_COLUMNS, SUBSCRIPTION_EXPORT_HEADERS, subscriptionExportRows } from "./export.js";
import { Subscription, SubscriptionCreate, SubscriptionList, SubscriptionListQuery, SubscriptionUpdateBody, subscriptionExportQuery } from "./schemas.js";
import { createFreeSubscription } from "./free-plans.js";
import { findSubscription, pageOfSubscriptions, shownSubscription, shownSubscriptions } from "./service.js";
import { revokeNow, updateSubscriptionAsAsked } from "./updates.js";

const TAG = "subscriptions";

export function subscriptionEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "config" | "timeZones"> & { renewNow: (subscriptionId: string) => Promise<void> }): Endpoint[] {
  const { db, access, config, timeZones } = parts;
  const publicUrl = config.PUBLIC_URL;
  return [
    // Before /v1/subscriptions/:id, which would take "export" for an id.
    defineEndpoint("/v1/subscriptions/export", { method: "GET", query: subscriptionExportQuery(timeZones), produces: "text/csv", summary: "Export subscriptions as a CSV file", tag: TAG }, async ({ query, identity, res }) => {
      const columns = query.columns ?? SUBSCRIPTION_EXPORT_DEFAULT_COLUMNS;
      const filter = { organizationIds: await access.organizationIds(identity, "subscriptions:read"), filters: query };
      await sendCsv(res, exportFilename("subscriptions", [query.started_after, query.started_before], query.timezone), columns.map((column) => SUBSCRIPTION_EXPORT_HEADERS[column]), subscriptionExportRows(db, filter, columns, query.timezone));
    }),
    defineEndpoint("/v1/subscriptions/", { method: "GET", query: SubscriptionListQuery, response: SubscriptionList, summary: "List subscriptions", tag: TAG }, async ({ query, identity, req }) => {
      const filter = { organizationIds: await access.organizationIds(identity, "subscriptions:read"), filters: query, metadata: metadataFilters(req) };
      const { rows, total } = await pageOfSubscriptions(db, filter, { ...query, sort: query.sorting });
      return pageJson(await shownSubscriptions(db, rows, publicUrl), total, query.limit);
    }),
    defineEndpoint("/v1/subscriptions/", { method: "POST", status: 201, body: SubscriptionCreate, response: Subscription, summary: "Start a free plan for a customer, without a checkout", tag: TAG }, ({ body, identity }) =>
      createFreeSubscription(parts, identity, body),
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "GET", params: z.object({ id: z.string() }), response: Subscription, summary: "Get a subscription", tag: TAG }, async ({ params, identity }) =>
      shownSubscription(db, await reachable(access, identity, "subscriptions:read", await findSubscription(db, params.id), "Subscription"), publicUrl),
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: SubscriptionUpdateBody, response: Subscription, summary: "Update a subscription", tag: TAG }, ({ params, body, identity }) =>
      updateSubscriptionAsAsked(parts, identity, params.id, body),
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "DELETE", params: z.object({ id: z.string() }), response: Subscription, summary: "Revoke a subscription now", tag: TAG }, ({ params, identity }) => revokeNow(parts, identity, params.id)),
  ];
}

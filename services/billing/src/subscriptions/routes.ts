import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import type { Parts } from "../parts.js";
import { Subscription, SubscriptionList, SubscriptionListQuery, SubscriptionUpdateBody } from "./schemas.js";
import { findSubscription, pageOfSubscriptions, shownSubscription, shownSubscriptions } from "./service.js";
import { revokeNow, updateSubscriptionAsAsked } from "./updates.js";

const TAG = "subscriptions";

export function subscriptionEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "config"> & { renewNow: (subscriptionId: string) => Promise<void> }): Endpoint[] {
  const { db, access, config } = parts;
  const publicUrl = config.PUBLIC_URL;
  return [
    defineEndpoint("/v1/subscriptions/", { method: "GET", query: SubscriptionListQuery, response: SubscriptionList, summary: "List subscriptions", tag: TAG }, async ({ query, identity, req }) => {
      const filter = { organizationIds: await access.organizationIds(identity, "subscriptions:read"), filters: query, metadata: metadataFilters(req) };
      const { rows, total } = await pageOfSubscriptions(db, filter, { ...query, sort: query.sorting });
      return pageJson(await shownSubscriptions(db, rows, publicUrl), total, query.limit);
    }),

    defineEndpoint("/v1/subscriptions/:id", { method: "GET", params: z.object({ id: z.string() }), response: Subscription, summary: "Get a subscription", tag: TAG }, async ({ params, identity }) =>
      shownSubscription(db, await reachable(access, identity, "subscriptions:read", await findSubscription(db, params.id), "Subscription"), publicUrl),
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: SubscriptionUpdateBody, response: Subscription, summary: "Update a subscription", tag: TAG }, ({ params, body, identity }) =>
      updateSubscriptionAsAsked(parts, identity, params.id, body),
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "DELETE", params: z.object({ id: z.string() }), response: Subscription, summary: "Revoke a subscription now", tag: TAG }, ({ params, identity }) => revokeNow(parts, identity, params.id)),
  ];
}

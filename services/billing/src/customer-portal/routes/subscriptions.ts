import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerSubscription, CustomerSubscriptionList, CustomerSubscriptionListQuery, PortalSubscriptionUpdate } from "../schemas.js";
import { cancelCustomerSubscription, customerSubscription, customerSubscriptionPage, updateCustomerSubscription } from "../service.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";
const byId = z.object({ id: z.string() });

/** The customer's subscriptions: read them, cancel or uncancel them, and pause or resume them, as the seller lets customers. */
export function portalSubscriptionEndpoints(parts: Pick<Parts, "db" | "units" | "config"> & { renewNow: (subscriptionId: string) => Promise<void> }): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/subscriptions/", { method: "GET", query: CustomerSubscriptionListQuery, response: CustomerSubscriptionList, summary: "List the customer's subscriptions", tag: TAG }, async ({ query, identity }) =>
      customerSubscriptionPage(parts, identity, query),
    ),
    defineEndpoint("/v1/customer-portal/subscriptions/:id", { method: "GET", params: byId, response: CustomerSubscription, summary: "Get one of the customer's subscriptions", tag: TAG }, async ({ params, identity }) =>
      customerSubscription(parts, identity, params.id),
    ),
    defineEndpoint(
      "/v1/customer-portal/subscriptions/:id",
      { method: "PATCH", params: byId, body: PortalSubscriptionUpdate, response: CustomerSubscription, summary: "Cancel or resume one of the customer's subscriptions", tag: TAG },
      async ({ params, body, identity }) => updateCustomerSubscription(parts, identity, params.id, body),
    ),
    defineEndpoint("/v1/customer-portal/subscriptions/:id", { method: "DELETE", params: byId, response: CustomerSubscription, summary: "Cancel one of the customer's subscriptions", tag: TAG }, async ({ params, identity }) =>
      cancelCustomerSubscription(parts, identity, params.id),
    ),
  ];
}

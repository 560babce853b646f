import {} from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { PurchasedOrderList, PurchasedSubscriptionList, PurchaseListQuery } from "./schemas.js";
import { purchasedOrders, purchasedSubscriptions } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "me";

/** A signed-in Tollgate user's purchases from every seller (see purchasedOrders): Tollgate's own, not Polar's. */
export function purchaseEndpoints({ db, config }: Pick<Parts, "db" | "config">): Endpoint[] {
  return [
    defineEndpoint("/v1/me/orders/", { method: "GET", query: PurchaseListQuery, response: PurchasedOrderList, summary: "List the signed-in user's orders from every seller", tag: TAG }, async ({ query, identity }) =>
      purchasedOrders(db, identity, query),
    ),
    defineEndpoint("/v1/me/subscriptions/", { method: "GET", query: PurchaseListQuery, response: PurchasedSubscriptionList, summary: "List the signed-in user's subscriptions to every seller", tag: TAG }, async ({ query, identity }) =>
      purchasedSubscriptions(db, identity, query, config.PUBLIC_URL),
    ),
  ];
}

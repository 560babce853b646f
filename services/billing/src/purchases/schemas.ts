import { z } from "zod";
import { listResource, paging } from "@tollgate/kit";
import { Order } from "../orders/schemas.js";
import { Subscription } from "../subscriptions/schemas.js";

/** Tollgate's own: who sold a purchase, for a user who bought from many. */
const PurchaseSeller = z.strictObject({ id: z.string(), name: z.string(), slug: z.string() }).meta({ id: "PurchaseSeller" });

export const PurchasedOrderList = listResource(Order.extend({ organization: PurchaseSeller.nullable() }).meta({ id: "PurchasedOrder" }), "ListResource_PurchasedOrder_");

export const PurchasedSubscriptionList = listResource(Subscription.extend({ organization: PurchaseSeller.nullable() }).meta({ id: "PurchasedSubscription" }), "ListResource_PurchasedSubscription_");

export const PurchaseListQuery = z.object(paging);

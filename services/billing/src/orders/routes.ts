import { z } from "zod";
import { defineEndpoint, momentInput, pageJson, paging, reachable, repeated, sorting, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { findOrder, pageOfOrders, shownOrder, shownOrders } from "./service.js";
import { Order, OrderList, ORDER_SORT_KEYS, ORDER_STATUSES } from "./schemas.js";
import type { Parts } from "../parts.js";

const TAG = "orders";

/** Polar's `created_after` and `created_before`: a moment, with its offset. */
const createdBound = momentInput().optional();

export function orderEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/orders/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          product_id: repeated(z.string()),
          customer_id: repeated(z.string()),
          checkout_id: repeated(z.string()),
          discount_id: repeated(z.string()),
          subscription_id: repeated(z.string()),
          external_customer_id: repeated(z.string()),
          product_billing_type: repeated(z.enum(["one_time", "recurring"])),
          status: repeated(z.enum(ORDER_STATUSES)),
          created_after: createdBound,
          created_before: createdBound,
          sorting: sorting(ORDER_SORT_KEYS, "-created_at"),
        }),
        response: OrderList,
        summary: "List orders",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const filter = { organizationIds: await access.organizationIds(identity, "orders:read"), filters: query, metadata: metadataFilters(req) };
        const { rows, total } = await pageOfOrders(db, filter, { ...query, sort: query.sorting });
        return pageJson(await shownOrders(db, rows), total, query.limit);
      },
    ),

    defineEndpoint("/v1/orders/:id", { method: "GET", params: z.object({ id: z.string() }), response: Order, summary: "Get an order", tag: TAG }, async ({ params, identity }) =>
      shownOrder(db, await reachable(access, identity, "orders:read", await findOrder(db, params.id), "Order")),
    ),
  ];
}

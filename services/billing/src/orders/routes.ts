import { z } from "zod";
import { defineEndpoint, pageJson, paging, reachable, repeated, sorting, type Endpoint, type Knex, type OrganizationAccess } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { findOrder, ORDER_SORTABLE, pageOfOrders } from "./orders.sql.js";
import { shownOrder, shownOrders } from "./service.js";
import { Order, OrderList } from "./schemas.js";

const TAG = "orders";

export function orderEndpoints({ db, access }: { db: Knex; access: OrganizationAccess }): Endpoint[] {
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
          sorting: sorting(Object.keys(ORDER_SORTABLE) as (keyof typeof ORDER_SORTABLE)[], "-created_at"),
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

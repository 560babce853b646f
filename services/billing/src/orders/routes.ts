import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { findOrder, pageOfOrders, shownOrder, shownOrders } from "./service.js";
import { Order, OrderList, OrderListQuery } from "./schemas.js";
import type { Parts } from "../parts.js";

const TAG = "orders";

export function orderEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/orders/",
      {
        method: "GET",
        query: OrderListQuery,
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

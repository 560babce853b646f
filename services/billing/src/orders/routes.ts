import { z } from "zod";
import { defineEndpoint, pageJson, pageOf, paging, reachable, repeated, sorting, whereAnyOf, type Endpoint } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { metadataFilters, whereMetadata } from "../api/metadata.js";
import { findOrder, orders, type OrderRow } from "./orders.sql.js";
import { orderJson, ordersJson } from "./output.js";
import { Order, OrderList } from "./schemas.js";

const SORTABLE = { created_at: "created_at", status: "status", invoice_number: "invoice_number" } as const;
const TAG = "orders";

export function orderEndpoints(billing: Billing): Endpoint[] {
  const { db, access } = billing;
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
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at"),
        }),
        response: OrderList,
        summary: "List orders",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const found = orders(db).whereIn("organization_id", await access.organizationIds(identity, "orders:read"));
        whereAnyOf(found, query, ["organization_id", "product_id", "customer_id", "checkout_id", "discount_id"]);
        whereMetadata(found, "metadata", metadataFilters(req));
        const { rows, total } = await pageOf<OrderRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "orders" });
        return pageJson(await ordersJson(db, rows), total, query.limit);
      },
    ),

    defineEndpoint("/v1/orders/:id", { method: "GET", params: z.object({ id: z.string() }), response: Order, summary: "Get an order", tag: TAG }, async ({ params, identity }) =>
      orderJson(db, await reachable(access, identity, "orders:read", await findOrder(db, params.id), "Order")),
    ),
  ];
}

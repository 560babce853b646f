import { z } from "zod";
import { defineEndpoint, pageJson, reachable, sendCsv, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { findOrder, pageOfOrders, shownOrder, shownOrders } from "./service.js";
import { Order, OrderList, OrderListQuery, orderExportQuery } from "./schemas.js";
import { exportFilename } from "../http/exports.js";
import { ORDER_EXPORT_DEFAULT_COLUMNS, ORDER_EXPORT_HEADERS, orderExportRows } from "./export.js";
import type { Parts } from "../parts.js";

const TAG = "orders";

export function orderEndpoints({ db, access, timeZones }: Pick<Parts, "db" | "access" | "timeZones">): Endpoint[] {
  return [
    // Before /v1/orders/:id, which would take "export" for an id.
    defineEndpoint("/v1/orders/export", { method: "GET", query: orderExportQuery(timeZones), produces: "text/csv", summary: "Export orders as a CSV file", tag: TAG }, async ({ query, identity, res }) => {
      const columns = query.columns ?? ORDER_EXPORT_DEFAULT_COLUMNS;
      const filter = { organizationIds: await access.organizationIds(identity, "orders:read"), filters: query };
      await sendCsv(res, exportFilename("orders", [query.created_after, query.created_before], query.timezone), columns.map((column) => ORDER_EXPORT_HEADERS[column]), orderExportRows(db, filter, columns, query.timezone));
    }),
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

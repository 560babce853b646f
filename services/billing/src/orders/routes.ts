import { z } from "zod";
import { defineEndpoint, pageJson, reachable, sendCsv, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { finalizeOrder } from "../flows/finalize-order.js";
import { createDraftOrder } from "./drafts.js";
import { findOrder, pageOfOrders, shownOrder, shownOrders } from "./service.js";
import { Order, OrderCreate, OrderFinalize, OrderList, OrderListQuery, orderExportQuery } from "./schemas.js";
import { exportFilename } from "../http/exports.js";
import { ORDER_EXPORT_DEFAULT_COLUMNS, ORDER_EXPORT_HEADERS, orderExportRows } from "./export.js";
import type { Parts } from "../parts.js";

const TAG = "orders";

export function orderEndpoints(parts: Pick<Parts, "db" | "units" | "config" | "processor" | "access" | "timeZones">): Endpoint[] {
  const { db, access, timeZones } = parts;
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

    defineEndpoint("/v1/orders/", { method: "POST", status: 201, body: OrderCreate, response: Order, summary: "Create a draft order for an off-session charge", tag: TAG }, async ({ body, identity }) =>
      createDraftOrder(parts, identity, body),
    ),
    defineEndpoint(
      "/v1/orders/:id/finalize",
      { method: "POST", params: z.object({ id: z.string() }), body: OrderFinalize, response: Order, summary: "Charge a draft order to the customer's saved card now", tag: TAG },
      async ({ params, body, identity }) => shownOrder(db, await finalizeOrder(parts, await reachable(access, identity, "orders:write", await findOrder(db, params.id), "Order"), body.payment_method_id)),
    ),

    defineEndpoint("/v1/orders/:id", { method: "GET", params: z.object({ id: z.string() }), response: Order, summary: "Get an order", tag: TAG }, async ({ params, identity }) =>
      shownOrder(db, await reachable(access, identity, "orders:read", await findOrder(db, params.id), "Order")),
    ),
  ];
}

import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import { refundOrder } from "../flows/refund.js";
import { findOrder } from "../orders/service.js";
import { refundJson } from "./output.js";
import { Refund, RefundCreate, RefundList, RefundListQuery } from "./schemas.js";
import { pageOfRefunds } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "refunds";

export function refundEndpoints({ db, units, access, processor }: Pick<Parts, "db" | "units" | "access" | "processor">): Endpoint[] {
  return [
    defineEndpoint("/v1/refunds/", { method: "POST", status: 201, body: RefundCreate, response: Refund, summary: "Refund an order, in part or in full", tag: TAG }, async ({ body, identity }) => {
      const order = await reachable(access, identity, "refunds:write", await findOrder(db, body.order_id), "Order");
      const { order_id: _orderId, comment, ...request } = body;
      return refundJson(await refundOrder({ units, processor }, order.id, { ...request, comment: comment ?? null }));
    }),

    defineEndpoint(
      "/v1/refunds/",
      {
        method: "GET",
        query: RefundListQuery,
        response: RefundList,
        summary: "List refunds",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "refunds:read");
        const { rows, total } = await pageOfRefunds(db, { organizationIds, filters: query, succeeded: query.succeeded }, { ...query, sort: query.sorting });
        return pageJson(rows.map(refundJson), total, query.limit);
      },
    ),
  ];
}

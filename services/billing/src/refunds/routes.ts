import { z } from "zod";
import { defineEndpoint, pageJson, paging, pgInteger, queryFlag, reachable, repeated, sorting, type Endpoint } from "@tollgate/kit";
import { refundOrder } from "../flows/refund.js";
import { metadataInput } from "../http/metadata.js";
import { findOrder } from "../orders/service.js";
import { refundJson } from "./output.js";
import { Refund, RefundList, REFUND_REASONS, REFUND_SORT_KEYS } from "./schemas.js";
import { pageOfRefunds } from "./service.js";
import type { Parts } from "../parts.js";

const createBody = z.object({
  order_id: z.string(),
  reason: z.enum(REFUND_REASONS),
  amount: pgInteger().min(1),
  comment: z.string().max(1_000).nullish(),
  revoke_benefits: z.boolean().default(false),
  metadata: metadataInput.default({}),
});

const TAG = "refunds";

export function refundEndpoints({ db, units, access, processor }: Pick<Parts, "db" | "units" | "access" | "processor">): Endpoint[] {
  return [
    defineEndpoint("/v1/refunds/", { method: "POST", status: 201, body: createBody, response: Refund, summary: "Refund an order, in part or in full", tag: TAG }, async ({ body, identity }) => {
      const order = await reachable(access, identity, "refunds:write", await findOrder(db, body.order_id), "Order");
      const { order_id: _orderId, comment, ...request } = body;
      return refundJson(await refundOrder({ units, processor }, order.id, { ...request, comment: comment ?? null }));
    }),

    defineEndpoint(
      "/v1/refunds/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          id: repeated(z.string()),
          organization_id: repeated(z.string()),
          order_id: repeated(z.string()),
          subscription_id: repeated(z.string()),
          customer_id: repeated(z.string()),
          succeeded: queryFlag().optional(),
          sorting: sorting(REFUND_SORT_KEYS, "-created_at"),
        }),
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

import { z } from "zod";
import { defineEndpoint, HttpError, invalidField, pageJson, pageOf, paging, queryFlag, randomId, reachable, repeated, sorting, whereAnyOf, type Endpoint, pgInteger } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { metadataInput } from "../api/metadata.js";
import { revokeBenefits } from "../benefits/granting.js";
import { sellerNow } from "../test-clock/clock.js";
import { emitBillingEvent } from "../events.js";
import { findOrder, orders, updateOrder, type OrderRow } from "../orders/orders.sql.js";
import { orderJson } from "../orders/output.js";
import { refundJson } from "./output.js";
import { insertRefund, REFUND_REASONS, refunds, updateRefund, type RefundRow } from "./refunds.sql.js";
import { Refund, RefundList } from "./schemas.js";

const createBody = z.object({
  order_id: z.string(),
  reason: z.enum(REFUND_REASONS),
  amount: pgInteger().min(1),
  comment: z.string().max(1_000).nullish(),
  revoke_benefits: z.boolean().default(false),
  metadata: metadataInput.default({}),
});

const SORTABLE = { created_at: "created_at", amount: "amount" } as const;
const TAG = "refunds";

/** What was paid before tax: refunds are asked for in it, and tax goes back in proportion, as Polar does. */
const netOf = (order: OrderRow) => order.subtotal_amount - order.discount_amount;

export function refundEndpoints(billing: Billing): Endpoint[] {
  const { db, access, outbox, processor } = billing;
  return [
    defineEndpoint("/v1/refunds/", { method: "POST", status: 201, body: createBody, response: Refund, summary: "Refund an order, in part or in full", tag: TAG }, async ({ body, identity }) => {
      const reached = await reachable(access, identity, "refunds:write", await findOrder(db, body.order_id), "Order");
      // The order row is locked while refunding, so refunds side by side never add up to more than was paid.
      return db.transaction(async (trx) => {
        const order = await orders(trx).where({ id: reached.id }).forUpdate().first();
        if (!order) throw new Error(`order ${reached.id} is gone`);
        if (order.status === "refunded") throw new HttpError(403, "RefundedAlready", "Order is already fully refunded.");
        if (order.status !== "paid" && order.status !== "partially_refunded") throw invalidField(["order_id"], "Only a paid order can be refunded", order.id);
        const refundable = netOf(order) - order.refunded_amount;
        if (body.amount > refundable) throw invalidField(["amount"], `Refund amount exceeds what is left to refund (${refundable})`, body.amount);
        if (body.revoke_benefits && order.subscription_id) throw invalidField(["revoke_benefits"], "Benefits of a subscription order are revoked by revoking the subscription", true);
        const payment = await trx("payments").where({ order_id: order.id, status: "succeeded" }).first<{ processor_payment_id: string } | undefined>("processor_payment_id");
        if (!payment) throw invalidField(["order_id"], "Nothing was paid for this order", order.id);
        const taxAmount = netOf(order) === 0 ? 0 : Math.round((body.amount * order.tax_amount) / netOf(order));
        const pending = await insertRefund(trx, {
          id: randomId(32),
          organization_id: order.organization_id,
          order_id: order.id,
          subscription_id: order.subscription_id,
          customer_id: order.customer_id,
          status: "pending",
          reason: body.reason,
          comment: body.comment ?? null,
          amount: body.amount,
          tax_amount: taxAmount,
          currency: order.currency,
          revoke_benefits: body.revoke_benefits,
          processor_refund_id: null,
          metadata: body.metadata,
        });
        await emitBillingEvent(outbox, trx, "refund.created", order.organization_id, refundJson(pending));
        const outcome = await processor.refund({ idempotencyKey: `refund:${pending.id}`, processorPaymentId: payment.processor_payment_id, amount: body.amount + taxAmount });
        if (outcome.status === "failed") {
          const failed = await updateRefund(trx, pending.id, { status: "failed" });
          await emitBillingEvent(outbox, trx, "refund.updated", order.organization_id, refundJson(failed));
          return refundJson(failed);
        }
        const refund = await updateRefund(trx, pending.id, { status: "succeeded", processor_refund_id: outcome.processorRefundId });
        await emitBillingEvent(outbox, trx, "refund.updated", order.organization_id, refundJson(refund));
        const refundedAmount = order.refunded_amount + refund.amount;
        const refunded = await updateOrder(trx, order.id, {
          refunded_amount: refundedAmount,
          refunded_tax_amount: order.refunded_tax_amount + refund.tax_amount,
          status: refundedAmount >= netOf(order) ? "refunded" : "partially_refunded",
        });
        if (refund.revoke_benefits) await revokeBenefits(billing, trx, { order_id: order.id }, await sellerNow(trx, order.organization_id));
        await emitBillingEvent(outbox, trx, ["order.updated", "order.refunded"], order.organization_id, await orderJson(trx, refunded));
        return refundJson(refund);
      });
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
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at"),
        }),
        response: RefundList,
        summary: "List refunds",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const found = refunds(db).whereIn("organization_id", await access.organizationIds(identity, "refunds:read"));
        whereAnyOf(found, query, ["id", "organization_id", "order_id", "subscription_id", "customer_id"]);
        if (query.succeeded !== undefined) void (query.succeeded ? found.where({ status: "succeeded" }) : found.whereNot({ status: "succeeded" }));
        const { rows, total } = await pageOf<RefundRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "refunds" });
        return pageJson(rows.map(refundJson), total, query.limit);
      },
    ),
  ];
}

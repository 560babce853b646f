import { HttpError, invalidField, randomId, type UnitOfWork } from "@tollgate/kit";
import { announceBilling } from "../events.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { orderNet } from "../orders/service.js";
import type { RefundOutcome } from "../payments/processor.js";
import { refundJson } from "./output.js";
import { insertRefund, updateRefund, type RefundRow } from "./refunds.sql.js";

// The read the routes make, as the store has it: a page of refunds.
export { findRefund, pageOfRefunds, succeededRefundsOf } from "./refunds.sql.js";

/** What a seller asks to refund of an order. */
export type RefundRequest = Pick<RefundRow, "reason" | "amount" | "revoke_benefits" | "metadata"> & { comment: string | null };

/** What of a refund is tax: the same share of it as of what was paid before tax (refunds are asked for in that, and tax goes back in proportion, as Polar does). */
const taxOf = (order: OrderRow, amount: number) => (orderNet(order) === 0 ? 0 : Math.round((amount * order.tax_amount) / orderNet(order)));

/**
 * Only a paid order can be refunded, through a payment that succeeded (`processorPaymentId`), never
 * beyond what is left of it; a subscription's benefits go with the subscription, not with a refund.
 */
export function checkRefundable(order: OrderRow, request: RefundRequest, processorPaymentId: string | undefined): asserts processorPaymentId is string {
  if (order.status === "refunded") throw new HttpError(403, "RefundedAlready", "Order is already fully refunded.");
  if (order.status !== "paid" && order.status !== "partially_refunded") throw invalidField(["order_id"], "Only a paid order can be refunded", order.id);
  const refundable = orderNet(order) - order.refunded_amount;
  if (request.amount > refundable) throw invalidField(["amount"], `Refund amount exceeds what is left to refund (${refundable})`, request.amount);
  if (request.revoke_benefits && order.subscription_id) throw invalidField(["revoke_benefits"], "Benefits of a subscription order are revoked by revoking the subscription", true);
  if (!processorPaymentId) throw invalidField(["order_id"], "Nothing was paid for this order", order.id);
}

/** A refund of the order recorded pending (checkRefundable said it may be), announced as refund.created. */
export async function openRefund(unit: UnitOfWork, order: OrderRow, request: RefundRequest): Promise<RefundRow> {
  const pending = await insertRefund(unit.db, {
    ...request,
    id: randomId(32),
    organization_id: order.organization_id,
    order_id: order.id,
    subscription_id: order.subscription_id,
    customer_id: order.customer_id,
    status: "pending",
    tax_amount: taxOf(order, request.amount),
    currency: order.currency,
    processor_refund_id: null,
  });
  announceBilling(unit, "refund.created", order.organization_id, refundJson(pending));
  return pending;
}

/** What the processor said of a pending refund: it succeeded or failed (refund.updated). */
export async function settleRefund(unit: UnitOfWork, pending: RefundRow, outcome: RefundOutcome): Promise<RefundRow> {
  const settled = await updateRefund(unit.db, pending.id, outcome.status === "failed" ? { status: "failed" } : { status: "succeeded", processor_refund_id: outcome.processorRefundId });
  announceBilling(unit, "refund.updated", settled.organization_id, refundJson(settled));
  return settled;
}

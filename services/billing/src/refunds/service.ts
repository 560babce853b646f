import { HttpError, invalidField, randomId, type Units } from "@tollgate/kit";
import type { BillingConfig } from "../config.js";
import { revokeBenefits } from "../benefits/granting.js";
import { announceBilling } from "../events.js";
import { lockOrder, updateOrder, type OrderRow } from "../orders/orders.sql.js";
import { shownOrder } from "../orders/service.js";
import { succeededPaymentOf } from "../payments/payments.sql.js";
import type { PaymentProcessor } from "../payments/processor.js";
import { sellerNow } from "../test-clock/clock.js";
import { refundJson } from "./output.js";
import { insertRefund, updateRefund, type RefundRow } from "./refunds.sql.js";

// The read the routes make, as the store has it: a page of refunds.
export { pageOfRefunds } from "./refunds.sql.js";

/** What a seller asks to refund of an order. */
export type RefundRequest = Pick<RefundRow, "reason" | "amount" | "revoke_benefits" | "metadata"> & { comment: string | null };

/** What was paid before tax: refunds are asked for in it, and tax goes back in proportion, as Polar does. */
const netOf = (order: OrderRow) => order.subtotal_amount - order.discount_amount;

/** What of a refund is tax: the same share of it as of what was paid. */
const taxOf = (order: OrderRow, amount: number) => (netOf(order) === 0 ? 0 : Math.round((amount * order.tax_amount) / netOf(order)));

/** Only a paid order can be refunded, never beyond what is left of it; a subscription's benefits go with the subscription, not with a refund. */
function checkRefundable(order: OrderRow, request: RefundRequest): void {
  if (order.status === "refunded") throw new HttpError(403, "RefundedAlready", "Order is already fully refunded.");
  if (order.status !== "paid" && order.status !== "partially_refunded") throw invalidField(["order_id"], "Only a paid order can be refunded", order.id);
  const refundable = netOf(order) - order.refunded_amount;
  if (request.amount > refundable) throw invalidField(["amount"], `Refund amount exceeds what is left to refund (${refundable})`, request.amount);
  if (request.revoke_benefits && order.subscription_id) throw invalidField(["revoke_benefits"], "Benefits of a subscription order are revoked by revoking the subscription", true);
}

/**
 * Refunds part or all of an order through the processor that charged it. The refund is recorded
 * pending before the processor is asked, and then succeeded (the order's refunded amounts grow, and
 * its benefits go if asked) or failed. The order row is locked throughout, so refunds side by side
 * never add up to more than was paid.
 */
export async function refundOrder(deps: { units: Units; processor: PaymentProcessor; config: BillingConfig }, orderId: string, request: RefundRequest): Promise<RefundRow> {
  return deps.units.run(async (unit) => {
    const order = await lockOrder(unit.db, orderId);
    if (!order) throw new Error(`order ${orderId} is gone`);
    checkRefundable(order, request);
    const processorPaymentId = await succeededPaymentOf(unit.db, order.id);
    if (!processorPaymentId) throw invalidField(["order_id"], "Nothing was paid for this order", order.id);
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
    const outcome = await deps.processor.refund({ idempotencyKey: `refund:${pending.id}`, processorPaymentId, amount: pending.amount + pending.tax_amount });
    if (outcome.status === "failed") {
      const failed = await updateRefund(unit.db, pending.id, { status: "failed" });
      announceBilling(unit, "refund.updated", order.organization_id, refundJson(failed));
      return failed;
    }
    const refund = await updateRefund(unit.db, pending.id, { status: "succeeded", processor_refund_id: outcome.processorRefundId });
    announceBilling(unit, "refund.updated", order.organization_id, refundJson(refund));
    const refundedAmount = order.refunded_amount + refund.amount;
    const refunded = await updateOrder(unit.db, order.id, {
      refunded_amount: refundedAmount,
      refunded_tax_amount: order.refunded_tax_amount + refund.tax_amount,
      status: refundedAmount >= netOf(order) ? "refunded" : "partially_refunded",
    });
    if (refund.revoke_benefits) await revokeBenefits(unit, deps.config, { order_id: order.id }, await sellerNow(unit.db, order.organization_id));
    announceBilling(unit, ["order.updated", "order.refunded"], order.organization_id, await shownOrder(unit.db, refunded));
    return refund;
  });
}
